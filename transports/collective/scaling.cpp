#include "transports/collective/scaling.hpp"

#include <algorithm>

namespace gpubench::coll {

namespace {

nlohmann::json ratio(double value, double base) {
  if (!(base > 0)) return nullptr;
  return value / base;
}

}  // namespace

nlohmann::json scaling_table(const std::vector<scaling_row>& input) {
  std::vector<scaling_row> rows = input;
  std::sort(rows.begin(), rows.end(),
            [](const scaling_row& a, const scaling_row& b) { return a.nodes < b.nodes; });
  const auto base = std::find_if(rows.begin(), rows.end(), [](const scaling_row& r) {
    return r.ranks >= 2 && r.large_busbw > 0;
  });
  nlohmann::json table = {{"basis",
                           "median busbw at each node count divided by the baseline's; small "
                           "messages also as time relative to the baseline (latency-bound)"}};
  table["baseline_nodes"] =
      base == rows.end() ? nlohmann::json(nullptr) : nlohmann::json(base->nodes);
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json large = {{"bytes", r.large_bytes}, {"busbw", r.large_busbw}};
    nlohmann::json small = {
        {"bytes", r.small_bytes}, {"time_us", r.small_time_us}, {"busbw", r.small_busbw}};
    large["busbw_relative"] =
        base == rows.end() ? nullptr : ratio(r.large_busbw, base->large_busbw);
    small["busbw_relative"] =
        base == rows.end() ? nullptr : ratio(r.small_busbw, base->small_busbw);
    small["time_relative"] =
        base == rows.end() ? nullptr : ratio(r.small_time_us, base->small_time_us);
    out.push_back({{"nodes", r.nodes}, {"ranks", r.ranks}, {"large", large}, {"small", small}});
  }
  table["rows"] = std::move(out);
  return table;
}

}  // namespace gpubench::coll
