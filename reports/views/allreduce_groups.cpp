#include "reports/views/allreduce_groups.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "reports/model/series.hpp"
#include "reports/model/text_format.hpp"

namespace gpubench::reports::views {

using namespace model;

namespace {

long long integer_param(const core::case_result& c, const char* name, long long otherwise) {
  const auto& p = c.params;
  return p.is_object() && p.contains(name) && p.at(name).is_number_integer()
             ? p.at(name).get<long long>()
             : otherwise;
}

}  // namespace

long long collective_nodes(const core::case_result& c) {
  return integer_param(c, "nodes", 1);
}

long long collective_ranks(const core::case_result& c) {
  return integer_param(c, "ranks", collective_nodes(c));
}

std::vector<collective_group> collective_groups(const core::result_file& f,
                                                std::string_view operation) {
  std::map<std::string, collective_group> by_key;
  std::vector<std::string> order;
  for (const auto& c : f.results) {
    if (!c.kind.is(core::paths::collective) || c.kind.operation != operation ||
        c.status != core::case_status::ok || c.points.empty())
      continue;
    nlohmann::json key = c.params.is_object() ? c.params : nlohmann::json::object();
    key.erase("nodes");
    key.erase("ranks");
    const std::string k = key.dump();
    auto [it, added] = by_key.try_emplace(k);
    if (added) {
      it->second.params = key;
      order.push_back(k);
    }
    auto& cases = it->second.cases;
    const bool seen = std::any_of(cases.begin(), cases.end(), [&](const auto* o) {
      return collective_nodes(*o) == collective_nodes(c);
    });
    if (!seen) cases.push_back(&c);
  }
  std::vector<collective_group> out;
  for (const auto& k : order) {
    auto g = by_key.at(k);
    if (g.params.contains("in_place") && g.params.at("in_place") == true) {
      auto twin = g.params;
      twin["in_place"] = false;
      if (by_key.contains(twin.dump())) continue;
    }
    std::sort(g.cases.begin(), g.cases.end(), [](const auto* a, const auto* b) {
      return collective_nodes(*a) < collective_nodes(*b);
    });
    out.push_back(std::move(g));
  }
  // Label each group by the parameters whose values differ between groups.
  std::vector<std::string> keys;
  for (const auto& g : out)
    for (const auto& [k, v] : g.params.items())
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  for (auto& g : out) {
    std::string label;
    for (const auto& k : keys) {
      const bool differs = std::any_of(out.begin(), out.end(), [&](const collective_group& o) {
        return o.params.value(k, nlohmann::json()) != g.params.value(k, nlohmann::json());
      });
      if (!differs || !g.params.contains(k)) continue;
      if (!label.empty()) label += ", ";
      label += param_text(g.params.at(k));
    }
    g.label = label.empty() ? std::string(operation) : label;
  }
  return out;
}

std::optional<double> bus_factor(std::string_view operation, double ranks) {
  if (!(ranks >= 1)) return std::nullopt;
  if (operation == "allreduce") return 2 * (ranks - 1) / ranks;
  if (operation == "allgather" || operation == "reduce_scatter" || operation == "alltoall")
    return (ranks - 1) / ranks;
  if (operation == "broadcast" || operation == "sendrecv") return 1.0;
  return std::nullopt;
}

std::string bus_factor_text(std::string_view operation) {
  if (operation == "allreduce") return "2(n-1)/n";
  if (operation == "allgather" || operation == "reduce_scatter" || operation == "alltoall")
    return "(n-1)/n";
  if (operation == "broadcast" || operation == "sendrecv") return "1";
  return "";
}

std::vector<std::string> collective_operations(const core::result_file& f) {
  std::vector<std::string> out;
  for (const auto& c : f.results)
    if (c.kind.is(core::paths::collective) &&
        std::find(out.begin(), out.end(), c.kind.operation) == out.end())
      out.push_back(c.kind.operation);
  return out;
}

std::optional<double> collective_seconds(const core::case_result& c, const core::point_result& p) {
  if (const double us = extra_value(p, "time_us"); std::isfinite(us) && us > 0) return us * 1e-6;
  if (c.unit == "us" && std::isfinite(p.stats.median) && p.stats.median > 0)
    return p.stats.median * 1e-6;
  if (const double algbw = extra_value(p, "algbw"); std::isfinite(algbw) && algbw > 0)
    return static_cast<double>(p.bytes) / (algbw * 1e9);
  const auto factor = bus_factor(c.kind.operation, double(collective_ranks(c)));
  if (const double busbw = extra_value(p, "busbw");
      factor && *factor > 0 && std::isfinite(busbw) && busbw > 0)
    return static_cast<double>(p.bytes) * *factor / (busbw * 1e9);
  return std::nullopt;
}

}  // namespace gpubench::reports::views
