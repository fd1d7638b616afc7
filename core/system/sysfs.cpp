#include "core/system/sysfs.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

namespace gpubench::core {

std::optional<std::string> read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return ss.str();
}

std::optional<std::string> read_line(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
    line.pop_back();
  return line;
}

std::optional<long long> read_int(const std::filesystem::path& p) {
  auto line = read_line(p);
  if (!line || line->empty()) return std::nullopt;
  try {
    std::size_t used = 0;
    const long long v = std::stoll(*line, &used, 0);
    if (used != line->size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::size_t> count_cpu_list(std::string_view list) {
  std::size_t count = 0;
  while (!list.empty()) {
    const auto comma = list.find(',');
    const auto item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    unsigned long first = 0, last = 0;
    const auto dash = item.find('-');
    const auto parse = [](std::string_view s, unsigned long& out) {
      if (s.empty()) return false;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
      return ec == std::errc{} && end == s.data() + s.size();
    };
    if (!parse(item.substr(0, dash), first)) return std::nullopt;
    last = first;
    if (dash != std::string_view::npos && !parse(item.substr(dash + 1), last)) return std::nullopt;
    if (last < first) return std::nullopt;
    count += last - first + 1;
  }
  return count;
}

}  // namespace gpubench::core
