// pcie.link_degraded: a GPU's host copies far below the line rate its PCIe link is capable
// of, while the link trained narrower or slower than capable (a card in an x8 slot, a riser,
// a Gen3 port). The generation of an idle link drops to save power, so a lower generation
// alone is not a finding: only with the measured rate far below the capable one.
#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/units.hpp"
#include "reports/model/text_format.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

namespace {

struct gpu_link {
  pcie_link current;
  pcie_link capable;  // the card's own maximum
  pcie_link port;     // the maximum of the port above it
};

std::optional<gpu_link> link_of(const nlohmann::json& gpu) {
  const auto it = gpu.find("pcie");
  if (it == gpu.end() || !it->is_object() || !it->contains("current") || !it->contains("max"))
    return std::nullopt;  // "gen5 x16" text or null: nothing to compare
  gpu_link l;
  l.current = pcie_link_of(it->at("current"));
  l.capable = pcie_link_of(it->at("max"));
  if (it->contains("upstream_port_max")) l.port = pcie_link_of(it->at("upstream_port_max"));
  return l;
}

bool below(const std::optional<int>& have, const std::optional<int>& capable) {
  return have && capable && *have < *capable;
}

// Best median at the largest size over the host copy cases of one GPU alone, per direction.
std::map<std::string, std::pair<double, std::uint64_t>> best_rates(const core::result_file& f,
                                                                   long long gpu) {
  std::map<std::string, std::pair<double, std::uint64_t>> out;
  for (const auto direction : {core::directions::to_host, core::directions::to_gpu})
    for (const auto* c : measured_cases(f, host_copies(direction))) {
      if (int_param(*c, "gpu") != gpu) continue;
      const auto v = largest_median(*c);
      if (!v) continue;
      auto& best = out[direction_text(direction)];
      if (*v > best.first) best = {*v, largest_bytes(*c)};
    }
  return out;
}

}  // namespace

std::vector<finding> pcie_link_rule(const core::result_file& f, const rule_options& o) {
  std::vector<finding> out;
  if (!f.system.is_object() || !f.system.contains("gpus") || !f.system.at("gpus").is_array())
    return out;
  for (const auto& gpu : f.system.at("gpus")) {
    if (!gpu.is_object() || !gpu.contains("index") || !gpu.at("index").is_number_integer())
      continue;
    const long long index = gpu.at("index").get<long long>();
    const auto l = link_of(gpu);
    if (!l || !l->capable.generation || !l->capable.width) continue;
    // The link trains to the slower end: the port's maximum below the card's is a cap too.
    const bool width_low =
        below(l->current.width, l->capable.width) || below(l->port.width, l->capable.width);
    const bool gen_low = below(l->current.generation, l->capable.generation) ||
                         below(l->port.generation, l->capable.generation);
    if (!width_low && !gen_low) continue;
    const double line = core::pcie_lane_gbps(*l->capable.generation) * *l->capable.width;
    const auto rates = best_rates(f, index);
    double best = 0;
    for (const auto& [id, r] : rates)
      best = std::max(best, r.first);
    const std::string bus = gpu.value("pci_bus_id", std::string());
    const std::string subject = fmt::format("GPU {}{}", index, bus.empty() ? "" : " (" + bus + ")");
    std::string links =
        fmt::format("negotiated {}, capable {} ({} per direction)", pcie_text(l->current),
                    pcie_text(l->capable), figure(line, "GB/s"));
    if (l->port.width || l->port.generation)
      links += fmt::format(", port above it capable of {}", pcie_text(l->port));
    if (rates.empty()) {
      // Not measured: only a narrower width is telling (the generation drops at idle).
      if (!width_low) continue;
      out.push_back({"pcie.link_degraded", severity::warning, subject,
                     "The GPU's PCIe link is narrower than the card can run (not measured)",
                     links + "; no host<->GPU copy of this GPU alone was measured",
                     "Run the gpu suite to measure it; check the slot's electrical width, a "
                     "riser or the BIOS bifurcation setting (lspci -vv: LnkSta against LnkCap)"});
      continue;
    }
    if (best >= o.far_below_line * line) continue;
    std::vector<std::string> measured;
    for (const auto& [id, r] : rates)
      measured.push_back(
          fmt::format("{} {} at {}", id, figure(r.first, "GB/s"), format_size(r.second)));
    out.push_back(
        {"pcie.link_degraded", severity::problem, subject,
         fmt::format("Host<->GPU copies reach {} of the capable PCIe line rate: the link runs "
                     "{}",
                     percent(best / line),
                     width_low && gen_low ? "narrower and slower than capable"
                     : width_low          ? "narrower than capable"
                                          : "at a lower generation than capable"),
         fmt::format("{}; {}", fmt::join(measured, ", "), links),
         "Check the slot's electrical width and generation (lspci -vv: LnkSta against LnkCap), "
         "a riser or retimer, the BIOS bifurcation and link-speed settings; reseat the card"});
  }
  return out;
}

}  // namespace gpubench::reports::page_one::findings
