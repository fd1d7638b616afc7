// collective.busbw_collapse: bus bandwidth that drops by half or more from one size to the next
// and stays down for several sizes is a cliff in the middle of the sweep (an all-to-all at 30
// GB/s up to 8 MiB and 1.5 GB/s from 16 MiB): the library switched protocol or algorithm at that
// size, a buffer or a queue ran out, or the fabric dropped into congestion control. The
// busbw_falls rule compares only the largest size with the best, so a cliff the sweep climbs
// out of again at its largest sizes is this rule's alone.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "reports/model/kind_text.hpp"
#include "reports/model/series.hpp"
#include "reports/model/text_format.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

namespace {

// busbw where the point records it, else its median (an imported log's value is busbw).
double busbw_of(const core::point_result& p) {
  const double b = extra_value(p, "busbw");
  return std::isfinite(b) ? b : p.stats.median;
}

struct cliff {
  std::size_t before = 0;                // the last size before the drop
  std::size_t down = 0;                  // sizes after it under before / factor
  std::size_t lowest = 0;                // the lowest point of the run of sizes down
  std::optional<std::size_t> recovered;  // the first size back above before / factor
};

// The first drop by `factor` between neighbouring sizes that stays down for `sizes` sizes.
std::optional<cliff> find_cliff(const std::vector<const core::point_result*>& points, double factor,
                                std::size_t sizes) {
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    const double top = busbw_of(*points[i]);
    if (!(top > 0) || !(busbw_of(*points[i + 1]) <= top / factor)) continue;
    cliff c{i, 0, i + 1, std::nullopt};
    for (std::size_t j = i + 1; j < points.size(); ++j) {
      if (busbw_of(*points[j]) > top / factor) {
        c.recovered = j;
        break;
      }
      ++c.down;
      if (busbw_of(*points[j]) < busbw_of(*points[c.lowest])) c.lowest = j;
    }
    if (c.down >= sizes) return c;
  }
  return std::nullopt;
}

}  // namespace

std::vector<finding> collapse_rule(const core::result_file& f, const rule_options& o) {
  std::vector<finding> out;
  for (const auto& c : f.results) {
    if (!c.kind.is(core::paths::collective) || c.status != core::case_status::ok ||
        c.metric != "bandwidth" || c.params.value("in_place", false))
      continue;
    std::vector<const core::point_result*> points;
    for (const auto& p : c.points)
      points.push_back(&p);
    std::sort(points.begin(), points.end(),
              [](const auto* a, const auto* b) { return a->bytes < b->bytes; });
    const auto k = find_cliff(points, o.collapse_factor,
                              static_cast<std::size_t>(std::max(1, o.collapse_sizes)));
    if (!k) continue;
    const auto& top = *points[k->before];
    const auto& first = *points[k->before + 1];
    const auto& low = *points[k->lowest];
    const auto& last_down = *points[k->before + k->down];
    finding x;
    x.rule = "collective.busbw_collapse";
    x.level = severity::warning;
    x.subject = operation_title(c.kind.operation);
    x.title = "Bus bandwidth collapses in the middle of the sweep and stays down";
    x.evidence = fmt::format(
        "busbw {}{}, then {}{} ({} of it); down by {:g}x or more for {} sizes, up to {} "
        "(lowest {}{})",
        figure(busbw_of(top), "GB/s"), at_size(top.bytes), figure(busbw_of(first), "GB/s"),
        at_size(first.bytes), percent(busbw_of(first) / busbw_of(top)), o.collapse_factor, k->down,
        format_size(last_down.bytes), figure(busbw_of(low), "GB/s"), at_size(low.bytes));
    if (k->recovered) {
      const auto& back = *points[*k->recovered];
      x.evidence +=
          fmt::format("; back to {}{}", figure(busbw_of(back), "GB/s"), at_size(back.bytes));
    } else {
      x.evidence += "; it does not recover by the largest size";
    }
    x.check =
        "Run the sizes around the cliff again (a cliff that moves is congestion or another "
        "job), then check " +
        collective_path_check(c) +
        ": the algorithm and protocol chosen at that size, the NIC and switch counters "
        "(pause frames, ECN, congestion drops) while those sizes run, and buffer settings "
        "(NCCL_BUFFSIZE, NCCL_NCHANNELS_PER_NET_PEER)";
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace gpubench::reports::page_one::findings
