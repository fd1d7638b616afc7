// gpu.peer_unavailable: GPU pairs that cannot reach each other directly (no peer access),
// so every copy between them is staged through host memory, as in a VM whose GPUs are passed
// through without P2P. What it costs: the staged rate against the median of the P2P pairs.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reports/model/text_format.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

namespace {

constexpr core::kind_query pair_copies{.path = core::paths::gpu_gpu, .metric = "bandwidth"};

using gpu_pair = std::pair<long long, long long>;  // unordered: first < second

gpu_pair unordered(long long a, long long b) {
  return a < b ? gpu_pair{a, b} : gpu_pair{b, a};
}

bool says_no_peer(const std::string& reason) {
  return reason.find("CanAccessPeer says no") != std::string::npos ||
         reason.find("no P2P path") != std::string::npos;
}

// The variant both access modes were measured in: copy engine, write, one way.
bool base_variant(const core::case_result& c) {
  return text_param(c, "engine", "ce") == "ce" && text_param(c, "op", "write") == "write" &&
         text_param(c, "direction", "uni") == "uni";
}

}  // namespace

std::vector<finding> peer_access_rule(const core::result_file& f, const rule_options&) {
  std::set<gpu_pair> without, with;
  if (f.system.is_object() && f.system.contains("gpu_pairs") && f.system.at("gpu_pairs").is_array())
    for (const auto& p : f.system.at("gpu_pairs")) {
      if (!p.is_object() || !p.contains("can_access_peer") || !p.contains("src") ||
          !p.contains("dst") || !p.at("can_access_peer").is_boolean() ||
          !p.at("src").is_number_integer() || !p.at("dst").is_number_integer())
        continue;
      const auto pair = unordered(p.at("src").get<long long>(), p.at("dst").get<long long>());
      (p.at("can_access_peer").get<bool>() ? with : without).insert(pair);
    }
  for (const auto& c : f.results) {
    if (!pair_copies.matches(c.kind, c.metric) || text_param(c, "access") != "p2p") continue;
    const auto src = int_param(c, "src"), dst = int_param(c, "dst");
    if (!src || !dst) continue;
    if (c.status == core::case_status::skipped && says_no_peer(c.reason))
      without.insert(unordered(*src, *dst));
    else if (c.status == core::case_status::ok)
      with.insert(unordered(*src, *dst));
  }
  for (const auto& p : without)
    with.erase(p);  // one direction refused: the pair has no peer access
  if (without.empty()) return {};

  std::vector<double> p2p;
  std::map<gpu_pair, std::pair<double, std::uint64_t>> staged;
  for (const auto* c : measured_cases(f, pair_copies)) {
    const auto src = int_param(*c, "src"), dst = int_param(*c, "dst");
    const auto v = largest_median(*c);
    if (!src || !dst || !v || !base_variant(*c)) continue;
    const auto pair = unordered(*src, *dst);
    const std::string access = text_param(*c, "access", "p2p");
    if (access == "staged" && without.contains(pair)) {
      auto& s = staged[pair];
      if (*v > s.first) s = {*v, largest_bytes(*c)};
    } else if (access == "p2p" && with.contains(pair)) {
      p2p.push_back(*v);
    }
  }
  const double p2p_median = median_of(p2p);

  std::vector<std::string> names, costs;
  for (const auto& [a, b] : without)
    names.push_back(fmt::format("{}<->{}", a, b));
  for (const auto& [pair, s] : staged) {
    std::string line = fmt::format("GPU {}<->{} staged through host memory: {} at {}", pair.first,
                                   pair.second, figure(s.first, "GB/s"), format_size(s.second));
    if (!p2p.empty())
      line += fmt::format(" ({} of the P2P pairs' median)", percent(s.first / p2p_median));
    costs.push_back(line);
  }
  std::string evidence = fmt::format("no peer access between GPU {}", fmt::join(names, ", GPU "));
  if (!p2p.empty())
    evidence += fmt::format(
        "; {} pair(s) with peer access: median {} (copy engine, write, one "
        "way)",
        with.size(), figure(p2p_median, "GB/s"));
  if (!costs.empty()) evidence += "; " + fmt::format("{}", fmt::join(costs, "; "));
  const bool others_have_it = !with.empty();
  const std::string title =
      others_have_it
          ? (without.size() == 1
                 ? fmt::format("GPU pair {} lacks the peer access the other pairs have: its "
                               "copies are staged through host memory",
                               names.front())
                 : fmt::format("{} GPU pairs lack the peer access the other pairs have: their "
                               "copies are staged through host memory",
                               without.size()))
          : "No GPU pair has peer access: every GPU-to-GPU copy is staged through host memory "
            "(collectives between these GPUs go through the host too)";
  return {{"gpu.peer_unavailable", others_have_it ? severity::problem : severity::warning,
           "GPU peer access", title, evidence,
           "In a VM, the GPUs must be passed through with P2P allowed (vSphere: "
           "pciPassthru.allowP2P) and sit behind a common PCIe switch; on bare metal, check "
           "ACS on the switch ports and the IOMMU setting (nvidia-smi topo -p2p r shows the "
           "driver's answer per pair)"}};
}

}  // namespace gpubench::reports::page_one::findings
