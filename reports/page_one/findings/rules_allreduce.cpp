// allreduce.scaling: how allreduce holds up as nodes are added. Bus bandwidth (busbw) of an
// ideal ring stays the same at any node count, so busbw at n nodes over busbw at the first
// multi-node count (the first that crosses the network) is the scaling efficiency; where it
// drops under scaling_falloff, scaling falls off.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reports/model/series.hpp"
#include "reports/model/text_format.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"
#include "reports/views/allreduce_groups.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;
using namespace views;

namespace {

double busbw_at(const core::case_result& c, std::uint64_t bytes) {
  for (const auto& p : c.points)
    if (p.bytes == bytes) return extra_value(p, "busbw");
  return std::nan("");
}

}  // namespace

std::vector<finding> allreduce_scaling_rule(const core::result_file& f, const rule_options& o) {
  std::vector<finding> out;
  for (const auto& g : allreduce_groups(f)) {
    std::vector<const core::case_result*> multi;
    for (const auto* c : g.cases)
      if (allreduce_nodes(*c) >= 2) multi.push_back(c);
    if (multi.size() < 2) continue;
    // The largest size every multi-node case measured.
    std::set<std::uint64_t> common;
    for (const auto& p : multi.front()->points)
      common.insert(p.bytes);
    for (const auto* c : multi) {
      std::set<std::uint64_t> mine;
      for (const auto& p : c->points)
        if (common.contains(p.bytes)) mine.insert(p.bytes);
      common = mine;
    }
    if (common.empty()) continue;
    const std::uint64_t size = *common.rbegin();
    const double base = busbw_at(*multi.front(), size);
    if (!(base > 0)) continue;
    std::vector<std::string> steps;
    std::optional<long long> falls_at;
    double worst = std::numeric_limits<double>::infinity();  // over the counts after the first
    for (const auto* c : multi) {
      const double eff = busbw_at(*c, size) / base;
      if (!std::isfinite(eff)) continue;
      steps.push_back(fmt::format("{} nodes {} ({})", allreduce_nodes(*c),
                                  figure(busbw_at(*c, size), "GB/s"), percent(eff)));
      if (eff < o.scaling_falloff && !falls_at) falls_at = allreduce_nodes(*c);
      if (c != multi.front()) worst = std::min(worst, eff);
    }
    std::string evidence = fmt::format("busbw at {} relative to {} nodes: {}", format_size(size),
                                       allreduce_nodes(*multi.front()), fmt::join(steps, ", "));
    if (allreduce_nodes(*g.cases.front()) == 1)
      if (const double one = busbw_at(*g.cases.front(), size); std::isfinite(one))
        evidence += fmt::format("; within one node: {}", figure(one, "GB/s"));
    const long long last = allreduce_nodes(*multi.back());
    if (falls_at)
      out.push_back(
          {"allreduce.scaling", severity::warning, "allreduce " + g.label,
           fmt::format("Allreduce ({}) scaling falls off at {} nodes: bus bandwidth "
                       "drops to {} of the {}-node figure",
                       g.label, *falls_at, percent(worst), allreduce_nodes(*multi.front())),
           evidence,
           "Look for the slow link or node (a cluster run names suspects), the "
           "switch's oversubscription between the added nodes, and whether the "
           "library changed algorithm or transport (NCCL_DEBUG=INFO)"});
    else
      out.push_back({"allreduce.scaling", severity::info, "allreduce " + g.label,
                     fmt::format("Allreduce ({}) holds its bus bandwidth from {} to {} nodes: "
                                 "{} of the {}-node figure at worst",
                                 g.label, allreduce_nodes(*multi.front()), last, percent(worst),
                                 allreduce_nodes(*multi.front())),
                     evidence, "Nothing to fix; measure more nodes to see where it falls off"});
  }
  return out;
}

}  // namespace gpubench::reports::page_one::findings
