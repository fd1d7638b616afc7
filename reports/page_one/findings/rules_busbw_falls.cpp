// collective.busbw_falls: bus bandwidth should rise with message size and level off; where it
// falls again at the largest sizes (well under the best size's), something gives way under
// load: a path that cannot sustain the rate (NVLink disabled, traffic staged through host
// memory, a shared-memory path out of cache), memory pressure, or a link that degrades while hot.
#include <fmt/format.h>

#include "reports/model/kind_text.hpp"
#include "reports/model/text_format.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

namespace {

// The largest size under this fraction of the best size's busbw "falls".
constexpr double falls_below = 0.85;

}  // namespace

std::vector<finding> busbw_falls_rule(const core::result_file& f, const rule_options&) {
  std::vector<finding> out;
  for (const auto& c : f.results) {
    if (!c.kind.is(core::paths::collective) || c.status != core::case_status::ok ||
        c.metric != "bandwidth" || c.points.size() < 3 || c.params.value("in_place", false))
      continue;
    const core::point_result* best = &c.points.front();
    for (const auto& p : c.points)
      if (p.stats.median > best->stats.median) best = &p;
    const auto& last = c.points.back();
    if (!(best->stats.median > 0) || last.stats.median >= falls_below * best->stats.median)
      continue;
    finding x;
    x.rule = "collective.busbw_falls";
    x.level = severity::warning;
    x.subject = operation_title(c.kind.operation);
    x.title = "Bus bandwidth falls at the largest sizes instead of levelling off";
    x.evidence =
        fmt::format("busbw {}{}, down from {}{} ({} of it)", figure(last.stats.median, "GB/s"),
                    at_size(last.bytes), figure(best->stats.median, "GB/s"), at_size(best->bytes),
                    percent(last.stats.median / best->stats.median));
    // GPU buffers can run short of device memory; host buffers of host memory and placement.
    const bool gpu = text_param(c, "backend", "nccl") == "nccl";
    x.check = "Check " + collective_path_check(c) +
              (gpu ? ", GPU memory headroom (nvidia-smi)"
                   : ", host memory headroom and where the ranks are bound (--report-bindings)") +
              ", and whether the link slows down under load";
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace gpubench::reports::page_one::findings
