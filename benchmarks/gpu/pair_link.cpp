#include "benchmarks/gpu/pair_link.hpp"

#include <algorithm>

namespace gpubench::benchmarks::gpu {

std::string to_string(pcie_path p) {
  switch (p) {
    case pcie_path::pix:
      return "PIX";
    case pcie_path::pxb:
      return "PXB";
    case pcie_path::phb:
      return "PHB";
    case pcie_path::node:
      return "NODE";
    case pcie_path::sys:
      return "SYS";
    case pcie_path::unknown:
      break;
  }
  return "unknown";
}

pcie_path classify_pcie_path(const std::vector<std::string>& a, std::optional<int> a_numa,
                             const std::vector<std::string>& b, std::optional<int> b_numa) {
  if (a.size() < 2 || b.size() < 2) return pcie_path::unknown;
  if (a.front() != b.front()) {
    // Different root buses: the traffic leaves one host bridge for another.
    if (!a_numa || !b_numa) return pcie_path::unknown;
    return *a_numa == *b_numa ? pcie_path::node : pcie_path::sys;
  }
  // Components shared below the root bus, not counting the devices themselves.
  const std::size_t limit = std::min(a.size(), b.size()) - 1;
  std::size_t common = 1;
  while (common < limit && a[common] == b[common])
    ++common;
  if (common == 1) return pcie_path::phb;  // different root ports of one root complex
  // Below a shared bridge: each side's ports between it and the device. One switch shows
  // up as its downstream port only (upstream port shared), so one port per side is PIX.
  const std::size_t a_ports = a.size() - 1 - common;
  const std::size_t b_ports = b.size() - 1 - common;
  return a_ports <= 1 && b_ports <= 1 ? pcie_path::pix : pcie_path::pxb;
}

std::string pair_link::label() const {
  if (kind == "nvlink") return "NV" + std::to_string(nvlink_links);
  return to_string(pcie);
}

nlohmann::json to_json(const pair_link& l) {
  nlohmann::json j = {{"link", l.kind}, {"topo", l.label()}, {"pcie_path", to_string(l.pcie)}};
  if (l.kind == "nvlink") {
    j["nvlink_links"] = l.nvlink_links;
    j["nvlink_generation"] =
        l.nvlink_generation ? nlohmann::json(*l.nvlink_generation) : nlohmann::json(nullptr);
  }
  return j;
}

}  // namespace gpubench::benchmarks::gpu
