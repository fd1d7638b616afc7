// collective.scaling: how each collective (allreduce, all-gather, ...) holds up as nodes are
// added. Bus bandwidth (busbw) of an ideal ring stays the same at any node count, so busbw at
// n nodes over busbw at the first multi-node count (the first that crosses the network) is the
// scaling efficiency; where it drops under scaling_falloff, scaling falls off.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reports/model/kind_text.hpp"
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

// The largest size every case measured (0: none in common).
std::uint64_t largest_common_size(const std::vector<const core::case_result*>& cases) {
  std::set<std::uint64_t> common;
  for (const auto& p : cases.front()->points)
    common.insert(p.bytes);
  for (const auto* c : cases) {
    std::set<std::uint64_t> mine;
    for (const auto& p : c->points)
      if (common.contains(p.bytes)) mine.insert(p.bytes);
    common = mine;
  }
  return common.empty() ? 0 : *common.rbegin();
}

std::optional<finding> scaling_of(const collective_group& g, const std::string& op,
                                  const rule_options& o) {
  std::vector<const core::case_result*> multi;
  for (const auto* c : g.cases)
    if (collective_nodes(*c) >= 2) multi.push_back(c);
  if (multi.size() < 2) return std::nullopt;
  const std::uint64_t size = largest_common_size(multi);
  const double base = size ? busbw_at(*multi.front(), size) : std::nan("");
  if (!(base > 0)) return std::nullopt;
  const long long first = collective_nodes(*multi.front());
  std::vector<std::string> steps;
  std::optional<long long> falls_at;
  double worst = std::numeric_limits<double>::infinity();  // over the counts after the first
  for (const auto* c : multi) {
    const double eff = busbw_at(*c, size) / base;
    if (!std::isfinite(eff)) continue;
    steps.push_back(fmt::format("{} nodes {} ({})", collective_nodes(*c),
                                figure(busbw_at(*c, size), "GB/s"), percent(eff)));
    if (eff < o.scaling_falloff && !falls_at) falls_at = collective_nodes(*c);
    if (c != multi.front()) worst = std::min(worst, eff);
  }
  std::string evidence = fmt::format("busbw at {} relative to {} nodes: {}", format_size(size),
                                     first, fmt::join(steps, ", "));
  if (collective_nodes(*g.cases.front()) == 1)
    if (const double one = busbw_at(*g.cases.front(), size); std::isfinite(one))
      evidence += fmt::format("; within one node: {}", figure(one, "GB/s"));
  // "Allreduce (mpi, tcp)", or the operation alone when its group is the only one.
  const std::string name = operation_title(op) + (g.label == op ? "" : " (" + g.label + ")");
  const std::string subject = op + (g.label == op ? "" : " " + g.label);
  if (falls_at)
    return finding{"collective.scaling",
                   severity::warning,
                   subject,
                   fmt::format("{} scaling falls off at {} nodes: bus bandwidth drops to {} of "
                               "the {}-node figure",
                               name, *falls_at, percent(worst), first),
                   evidence,
                   "Look for the slow link or node (a cluster run names suspects), the switch's "
                   "oversubscription between the added nodes, and whether the library changed "
                   "algorithm or transport: " +
                       collective_path_check(*multi.back())};
  return finding{"collective.scaling",
                 severity::info,
                 subject,
                 fmt::format("{} holds its bus bandwidth from {} to {} nodes: {} of the "
                             "{}-node figure at worst",
                             name, first, collective_nodes(*multi.back()), percent(worst), first),
                 evidence,
                 "Nothing to fix; measure more nodes to see where it falls off"};
}

}  // namespace

std::vector<finding> collective_scaling_rule(const core::result_file& f, const rule_options& o) {
  std::vector<finding> out;
  for (const auto& op : collective_operations(f))
    for (const auto& g : collective_groups(f, op))
      if (auto one = scaling_of(g, op, o)) out.push_back(std::move(*one));
  return out;
}

}  // namespace gpubench::reports::page_one::findings
