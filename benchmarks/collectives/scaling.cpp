#include "benchmarks/collectives/scaling.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace gpubench::benchmarks::collectives {

namespace {

nlohmann::json ratio(double value, double base) {
  if (!(base > 0)) return nullptr;
  return value / base;
}

using row_it = std::vector<scaling_row>::const_iterator;

nlohmann::json baseline_json(row_it base, row_it end, const char* which) {
  if (base == end) return nullptr;
  return {{"nodes", base->nodes},
          {"ranks", base->ranks},
          {"what", fmt::format("{}: {} node(s), {} ranks", which, base->nodes, base->ranks)}};
}

// The ratios of `r` against `base` (null without a baseline).
void add_ratios(nlohmann::json& large, nlohmann::json& small, const scaling_row& r, row_it base,
                row_it end, const std::string& suffix) {
  const bool none = base == end;
  large["busbw_relative" + suffix] = none ? nullptr : ratio(r.large_busbw, base->large_busbw);
  small["busbw_relative" + suffix] = none ? nullptr : ratio(r.small_busbw, base->small_busbw);
  small["time_relative" + suffix] = none ? nullptr : ratio(r.small_time_us, base->small_time_us);
}

}  // namespace

nlohmann::json scaling_table(const std::vector<scaling_row>& input) {
  std::vector<scaling_row> rows = input;
  std::sort(rows.begin(), rows.end(),
            [](const scaling_row& a, const scaling_row& b) { return a.nodes < b.nodes; });
  const auto usable = [](const scaling_row& r) { return r.ranks >= 2 && r.large_busbw > 0; };
  const auto base = std::find_if(rows.cbegin(), rows.cend(), usable);
  const auto multi = std::find_if(rows.cbegin(), rows.cend(),
                                  [&](const scaling_row& r) { return r.nodes >= 2 && usable(r); });
  nlohmann::json table = {
      {"basis",
       "median busbw at each node count divided by a baseline's; small messages also as time "
       "relative to it (latency-bound). *_relative: against `baseline` (the first row of two "
       "or more ranks, often one node over NVLink or shared memory); *_relative_multi_node: "
       "against `multi_node_baseline` (the first row of two or more nodes, the network's own "
       "scaling)"}};
  table["baseline_nodes"] =
      base == rows.cend() ? nlohmann::json(nullptr) : nlohmann::json(base->nodes);
  table["baseline"] = baseline_json(base, rows.cend(), "first row of 2 or more ranks");
  table["multi_node_baseline_nodes"] =
      multi == rows.cend() ? nlohmann::json(nullptr) : nlohmann::json(multi->nodes);
  table["multi_node_baseline"] = baseline_json(multi, rows.cend(), "first row of 2 or more nodes");
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json large = {{"bytes", r.large_bytes}, {"busbw", r.large_busbw}};
    nlohmann::json small = {
        {"bytes", r.small_bytes}, {"time_us", r.small_time_us}, {"busbw", r.small_busbw}};
    add_ratios(large, small, r, base, rows.cend(), "");
    add_ratios(large, small, r, multi, rows.cend(), "_multi_node");
    out.push_back({{"nodes", r.nodes}, {"ranks", r.ranks}, {"large", large}, {"small", small}});
  }
  table["rows"] = std::move(out);
  return table;
}

}  // namespace gpubench::benchmarks::collectives
