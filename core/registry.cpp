#include "core/registry.hpp"

#include <algorithm>
#include <regex>
#include <stdexcept>

#include "core/errors.hpp"

namespace gpubench::core {

std::vector<nlohmann::json> cartesian(const std::vector<axis>& axes) {
  std::vector<nlohmann::json> out{nlohmann::json::object()};
  for (const auto& a : axes) {
    std::vector<nlohmann::json> next;
    for (const auto& partial : out)
      for (const auto& v : a.values) {
        auto p = partial;
        p[a.name] = v;
        next.push_back(std::move(p));
      }
    out = std::move(next);
  }
  return out;
}

void registry::add(benchmark_def def) {
  if (def.id.empty() || !def.body) throw std::logic_error("benchmark without id or body");
  // Reports find a benchmark's cases by the kind it declares: without one it would be missing.
  if (def.kind.empty()) throw std::logic_error("benchmark without a kind: " + def.id);
  for (const auto& b : m_benchmarks)
    if (b.id == def.id) throw std::logic_error("benchmark registered twice: " + def.id);
  m_benchmarks.push_back(std::move(def));
}

void registry::add_option(option_spec spec) {
  for (auto& o : m_options)
    if (o.name == spec.name) {  // families may share an option (--streams)
      if (!o.check) o.check = std::move(spec.check);
      return;
    }
  m_options.push_back(std::move(spec));
}

void registry::check_options(const run_context& ctx) const {
  for (const auto& o : m_options)
    if (o.check) o.check(ctx);
}

void registry::add_system_probe(std::function<void(nlohmann::json&)> probe) {
  m_probes.push_back(std::move(probe));
}

std::vector<const benchmark_def*> registry::select(const std::string& suite,
                                                   const std::string& filter) const {
  const auto& suites = known_suites();
  if (std::find(suites.begin(), suites.end(), suite) == suites.end()) {
    std::string list;
    for (const auto& s : suites)
      list += (list.empty() ? "" : ", ") + s;
    throw usage_error("unknown suite '" + suite + "' (suites: " + list + ")");
  }
  std::regex re;
  try {
    re = std::regex(filter.empty() ? ".*" : filter, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw usage_error("--filter '" + filter + "' is not a valid regular expression: " + e.what());
  }
  std::vector<const benchmark_def*> out;
  for (const auto& b : m_benchmarks) {
    const bool in_suite = suite == "interconnect" ||
                          std::find(b.suites.begin(), b.suites.end(), suite) != b.suites.end();
    if (in_suite && std::regex_search(b.id, re)) out.push_back(&b);
  }
  return out;
}

}  // namespace gpubench::core
