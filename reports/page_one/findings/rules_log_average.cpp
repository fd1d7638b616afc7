// collective.log_average: an nccl-tests log's footer, "# Avg bus bandwidth", averages the bus
// bandwidth of every size it ran, the small latency-bound ones too; quoted as the bandwidth of
// the machine it understates it many times over. Where an imported log's footer is far below
// the bus bandwidth of its largest size, say which figure to quote.
#include <fmt/format.h>

#include "reports/model/kind_text.hpp"
#include "reports/model/series.hpp"
#include "reports/model/text_format.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

namespace {

// The footer counts as misleading when the largest size reaches this many times its value.
constexpr double misleading_ratio = 1.5;

}  // namespace

std::vector<finding> log_average_rule(const core::result_file& f, const rule_options&) {
  std::vector<finding> out;
  for (const auto& c : f.results) {
    if (!c.kind.is(core::paths::collective) || c.status != core::case_status::ok ||
        c.points.empty() || !c.context.is_object() || !c.context.contains("avg_busbw_reported") ||
        !c.context.at("avg_busbw_reported").is_number())
      continue;
    // One finding per operation: the in-place half of a log repeats the same footer.
    if (c.params.value("in_place", false)) continue;
    const double average = c.context.at("avg_busbw_reported").get<double>();
    const auto& last = c.points.back();
    const double plateau = last.stats.median;
    if (!(average > 0) || plateau < misleading_ratio * average) continue;
    finding x;
    x.rule = "collective.log_average";
    x.level = severity::info;
    x.subject = operation_title(c.kind.operation);
    x.title = fmt::format(
        "The log's 'Avg bus bandwidth' ({}) averages all {} sizes; the bandwidth reached is "
        "busbw at the largest sizes",
        figure(average, "GB/s"), c.points.size());
    x.evidence = fmt::format("busbw {}{}, {:.1f} times the footer's average",
                             figure(plateau, "GB/s"), at_size(last.bytes), plateau / average);
    x.check =
        "Quote busbw at the largest sizes (where it levels off), not the footer; the small sizes "
        "measure latency, not bandwidth";
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace gpubench::reports::page_one::findings
