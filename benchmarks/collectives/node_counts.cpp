#include "benchmarks/collectives/node_counts.hpp"

#include <algorithm>
#include <charconv>
#include <string>

#include "core/errors.hpp"

namespace gpubench::benchmarks::collectives {

std::vector<int> default_node_counts(int available) {
  std::vector<int> out;
  for (int n = 1; n < available; n *= 2)
    out.push_back(n);
  if (available >= 1) out.push_back(available);
  return out;
}

std::vector<int> parse_node_counts(std::string_view text, int available) {
  std::vector<int> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string_view item = text.substr(pos, comma - pos);
    int v = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc{} || end != item.data() + item.size() || v < 1)
      throw core::usage_error("--nodes '" + std::string(text) +
                              "': expected a comma-separated list of node counts, e.g. 1,2,4");
    if (v > available)
      throw core::usage_error("--nodes " + std::to_string(v) + ": this launch has " +
                              std::to_string(available) + " node(s)");
    out.push_back(v);
    pos = comma + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace gpubench::benchmarks::collectives
