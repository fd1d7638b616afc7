// gpu.pair_outlier and gpu.host_outlier: in a machine of like GPUs, a GPU pair or a GPU much
// slower than its siblings measured the same way (a bad NVLink, a degraded switch port, a GPU
// throttling). Rates are compared as a fraction of each case's line rate when every case of a
// group has one (pairs over 12 and over 6 NVLinks are then alike), else as measured.
#include <map>
#include <set>
#include <tuple>

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reports/model/text_format.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

namespace {

struct member {
  const core::case_result* c = nullptr;
  double value = 0;  // median at the largest size
  double score = 0;  // value, or value / line rate
};

// Sets each member's score and returns the group's median score.
double score_group(std::vector<member>& group) {
  bool all_peaks = true;
  for (const auto& m : group)
    all_peaks = all_peaks && m.c->peak && m.c->peak->value > 0;
  std::vector<double> scores;
  for (auto& m : group) {
    m.score = all_peaks ? m.value / m.c->peak->value : m.value;
    scores.push_back(m.score);
  }
  return median_of(scores);
}

std::string variant_text(const core::case_result& c) {
  return fmt::format("{} {} {}, {}", text_param(c, "engine", "ce"), text_param(c, "op", "write"),
                     text_param(c, "direction", "uni"), text_param(c, "link", "link unknown"));
}

struct outlier {
  double ratio = 1;
  std::string evidence;
};

}  // namespace

std::vector<finding> pair_outlier_rule(const core::result_file& f, const rule_options& o) {
  std::map<std::tuple<std::string, std::string, std::string, std::string>, std::vector<member>>
      groups;
  for (const auto* c : measured_cases(f, {.path = core::paths::gpu_gpu, .metric = "bandwidth"})) {
    if (text_param(*c, "access", "p2p") != "p2p") continue;  // staged: gpu.peer_unavailable
    const auto v = largest_median(*c);
    if (!v || !int_param(*c, "src") || !int_param(*c, "dst")) continue;
    groups[{text_param(*c, "engine"), text_param(*c, "op"), text_param(*c, "direction"),
            text_param(*c, "link")}]
        .push_back({c, *v, 0});
  }
  using gpu_pair = std::pair<long long, long long>;
  std::map<gpu_pair, outlier> slow;                  // worst variant per unordered pair
  std::map<long long, std::set<gpu_pair>> pairs_of;  // every judged pair per GPU
  for (auto& [key, group] : groups) {
    if (static_cast<int>(group.size()) < o.min_siblings) continue;
    const double mid = score_group(group);
    std::vector<double> values;
    for (const auto& m : group)
      values.push_back(m.value);
    const double value_mid = median_of(values);
    for (const auto& m : group) {
      const long long a = *int_param(*m.c, "src"), b = *int_param(*m.c, "dst");
      const gpu_pair p = a < b ? gpu_pair{a, b} : gpu_pair{b, a};
      pairs_of[a].insert(p);
      pairs_of[b].insert(p);
      if (!(mid > 0) || m.score >= o.sibling_outlier * mid) continue;
      const double ratio = m.score / mid;
      auto it = slow.find(p);
      if (it != slow.end() && it->second.ratio <= ratio) continue;
      slow[p] = {ratio, fmt::format("GPU {}->{} {}{} ({}), siblings' median {} ({} of it{})", a, b,
                                    figure(m.value, "GB/s"), at_size(largest_bytes(*m.c)),
                                    variant_text(*m.c), figure(value_mid, "GB/s"), percent(ratio),
                                    m.c->peak ? ", as fractions of line rate" : "")};
    }
  }
  std::vector<finding> out;
  // A GPU slow in every pair it is in (two or more): one finding for the GPU.
  std::set<gpu_pair> explained;
  for (const auto& [gpu, pairs] : pairs_of) {
    if (pairs.size() < 2) continue;
    std::vector<std::string> evidence;
    for (const auto& p : pairs)
      if (slow.contains(p)) evidence.push_back(slow[p].evidence);
    if (evidence.size() != pairs.size()) continue;
    for (const auto& p : pairs)
      explained.insert(p);
    out.push_back({"gpu.pair_outlier", severity::warning, fmt::format("GPU {}", gpu),
                   fmt::format("GPU {} is much slower than its siblings in all its GPU pairs", gpu),
                   fmt::format("{}", fmt::join(evidence, "; ")),
                   "Check the GPU's NVLink or PCIe state (nvidia-smi nvlink -s, nvidia-smi -q: "
                   "clocks, throttle reasons, link errors) and its cooling"});
  }
  for (const auto& [p, s] : slow) {
    if (explained.contains(p)) continue;
    out.push_back(
        {"gpu.pair_outlier", severity::warning, fmt::format("GPU {}<->{}", p.first, p.second),
         fmt::format("GPU pair {}<->{} is much slower than its sibling pairs", p.first, p.second),
         s.evidence,
         "Check the links between these two GPUs (nvidia-smi nvlink -s and -e for "
         "inactive links or errors; nvidia-smi topo -m for the PCIe path)"});
  }
  return out;
}

std::vector<finding> host_outlier_rule(const core::result_file& f, const rule_options& o) {
  // Per direction, memory and engine: each GPU's best rate over the NUMA nodes fed from.
  std::map<std::tuple<std::size_t, std::string, std::string>, std::map<long long, member>> best;
  for (std::size_t d = 0; d < std::size(host_copy_directions); ++d)
    for (const auto* c : measured_cases(f, host_copies(host_copy_directions[d]))) {
      const auto gpu = int_param(*c, "gpu");
      const auto v = largest_median(*c);
      if (!gpu || !v) continue;
      // A bidirectional copy imported from nvbandwidth says which of its two directions the
      // figure is: each is its own comparison.
      const std::string engine =
          text_param(*c, "engine") +
          (c->params.contains("measured") ? ", " + text_param(*c, "measured") + " measured" : "");
      auto& m = best[{d, text_param(*c, "memory"), engine}][*gpu];
      if (!m.c || *v > m.value) m = {c, *v, 0};
    }
  std::map<long long, outlier> slow, fast;
  for (auto& [key, by_gpu] : best) {
    if (static_cast<int>(by_gpu.size()) < o.min_siblings) continue;
    std::vector<member> group;
    std::vector<double> values;
    for (const auto& [gpu, m] : by_gpu) {
      group.push_back(m);
      values.push_back(m.value);
    }
    const double mid = score_group(group);
    for (const auto& m : group) {
      // One GPU far ahead of the rest says the others share something it does not (a PCIe
      // switch, a root port, a NUMA path): worth a look, not a fault of that GPU.
      if (mid > 0 && m.score * o.sibling_outlier > mid) {
        const long long gpu = *int_param(*m.c, "gpu");
        const double ratio = m.score / mid;
        auto& seen = fast[gpu];
        seen.ratio = std::max(seen.ratio, ratio);
        seen.evidence +=
            (seen.evidence.empty() ? "" : "; ") +
            fmt::format("{} ({} memory, {}) {}{}, siblings' median {} ({} of it)",
                        direction_text(host_copy_directions[std::get<0>(key)]), std::get<1>(key),
                        std::get<2>(key), figure(m.value, "GB/s"), at_size(largest_bytes(*m.c)),
                        figure(median_of(values), "GB/s"), percent(ratio));
      }
      if (!(mid > 0) || m.score >= o.sibling_outlier * mid) continue;
      const long long gpu = *int_param(*m.c, "gpu");
      const double ratio = m.score / mid;
      if (slow.contains(gpu) && slow[gpu].ratio <= ratio) continue;
      slow[gpu] = {ratio, fmt::format("{} ({} memory, {}) {}{}, siblings' median {} ({} of it)",
                                      direction_text(host_copy_directions[std::get<0>(key)]),
                                      std::get<1>(key), std::get<2>(key), figure(m.value, "GB/s"),
                                      at_size(largest_bytes(*m.c)),
                                      figure(median_of(values), "GB/s"), percent(ratio))};
    }
  }
  std::vector<finding> out;
  for (const auto& [gpu, s] : slow)
    out.push_back({"gpu.host_outlier", severity::warning, fmt::format("GPU {}", gpu),
                   fmt::format("GPU {}'s host copies are much slower than its siblings'", gpu),
                   s.evidence,
                   "Compare its PCIe link with the others' (lspci -vv: LnkSta), the switch or "
                   "root port above it, and its clocks and throttle reasons (nvidia-smi -q)"});
  for (const auto& [gpu, s] : fast)
    out.push_back({"gpu.host_outlier", severity::info, fmt::format("GPU {}", gpu),
                   fmt::format("GPU {}'s host copies are much faster than its siblings'", gpu),
                   s.evidence,
                   "The others may share a PCIe switch, root port or NUMA path that this GPU "
                   "does not: compare nvidia-smi topo -m and lspci -t for it and for them"});
  return out;
}

}  // namespace gpubench::reports::page_one::findings
