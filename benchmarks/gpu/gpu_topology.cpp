#include "benchmarks/gpu/gpu_topology.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "benchmarks/gpu/link_peak.hpp"

namespace gpubench::benchmarks::gpu {

namespace {

nlohmann::json opt(const std::optional<int>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
nlohmann::json opt(const std::optional<std::string>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::optional<core::peak_info> pcie_peak_of(const pci_gpu* g, int directions) {
  if (!g) return std::nullopt;
  const auto l = usable_link(*g);
  if (!l.generation || !l.width) return std::nullopt;
  return pcie_peak(*l.generation, *l.width, directions);
}

}  // namespace

const pci_gpu* gpu_topology::pci_of(int cuda_index) const {
  if (cuda_index < 0 || static_cast<std::size_t>(cuda_index) >= devices.size()) return nullptr;
  const auto& id = devices[static_cast<std::size_t>(cuda_index)].pci_bus_id;
  const auto it =
      std::find_if(pci.begin(), pci.end(), [&](const pci_gpu& g) { return g.bus_id == id; });
  return it == pci.end() ? nullptr : &*it;
}

std::optional<int> gpu_topology::numa_of(int cuda_index) const {
  if (const auto* g = pci_of(cuda_index); g && g->numa_node) return g->numa_node;
  if (cuda_index < 0 || static_cast<std::size_t>(cuda_index) >= devices.size()) return std::nullopt;
  return devices[static_cast<std::size_t>(cuda_index)].host_numa;
}

pair_link gpu_topology::link(int a, int b) const {
  pair_link l;
  const auto* pa = pci_of(a);
  const auto* pb = pci_of(b);
  if (pa && pb) l.pcie = classify_pcie_path(pa->path, pa->numa_node, pb->path, pb->numa_node);
  const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  if (ua >= pairs.size() || ub >= pairs[ua].size()) return l;
  const auto& links = pairs[ua][ub].nvlink_links;
  if (!links) return l;  // NVML could not say: the link stays unknown
  if (*links > 0) {
    l.kind = "nvlink";
    l.nvlink_links = *links;
    l.nvlink_generation = nvlink_generation(devices[ua].cc_major, devices[ua].cc_minor);
  } else {
    l.kind = "pcie";
  }
  return l;
}

std::optional<core::peak_info> gpu_topology::host_peak(const std::vector<int>& gpus,
                                                       int directions) const {
  if (gpus.size() == 1) return pcie_peak_of(pci_of(gpus.front()), directions);
  core::peak_info sum{0, "GB/s", ""};
  std::vector<std::string> parts;
  for (const int g : gpus) {
    const auto p = pcie_peak_of(pci_of(g), directions);
    if (!p) return std::nullopt;
    sum.value += p->value;
    parts.push_back(fmt::format("GPU {}: {}", g, p->basis));
  }
  sum.basis = fmt::format("sum of {} GPU links ({}); a shared switch uplink can be lower",
                          gpus.size(), fmt::join(parts, "; "));
  return sum;
}

std::optional<core::peak_info> gpu_topology::p2p_peak(int src, int dst, bool staged,
                                                      int directions) const {
  const pair_link l = link(src, dst);
  if (!staged && l.kind == "nvlink") {
    const auto& d = devices[static_cast<std::size_t>(src)];
    return nvlink_peak(d.cc_major, d.cc_minor, l.nvlink_links, directions);
  }
  if (!staged && l.kind != "pcie") return std::nullopt;
  auto a = pcie_peak_of(pci_of(src), directions);
  auto b = pcie_peak_of(pci_of(dst), directions);
  if (!a || !b) return std::nullopt;
  auto p = a->value <= b->value ? *a : *b;
  p.basis = (staged ? "staged through host memory, the slower PCIe link: "
                    : "the slower PCIe link of the pair: ") +
            p.basis;
  return p;
}

gpu_topology load_topology(const backend& b, const std::filesystem::path& sys_root) {
  gpu_topology t;
  t.pci = scan_pci_gpus(sys_root);
  t.notes = b.notes();
  const int n = b.status().met ? b.device_count() : 0;
  for (int i = 0; i < n; ++i)
    t.devices.push_back(b.device(i));
  t.pairs.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      t.pairs[static_cast<std::size_t>(i)].push_back(i == j ? pair_facts{} : b.pair(i, j));
  return t;
}

nlohmann::json gpus_json(const gpu_topology& t) {
  nlohmann::json out = nlohmann::json::array();
  auto pcie = [](const pci_gpu& g) {
    return nlohmann::json{{"current", to_json(g.current)},
                          {"max", to_json(g.max)},
                          {"upstream_port_max", to_json(g.upstream_max)},
                          {"usable", to_json(usable_link(g))}};
  };
  for (const auto& d : t.devices) {
    nlohmann::json j = {{"index", d.index},
                        {"name", d.name},
                        {"uuid", d.uuid},
                        {"pci_bus_id", d.pci_bus_id},
                        {"numa_node", opt(t.numa_of(d.index))},
                        {"memory_bytes", d.memory_bytes},
                        {"compute_capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)},
                        {"sm_count", d.sm_count},
                        {"mig_mode", opt(d.mig_mode)},
                        {"virtualization", opt(d.virtualization)}};
    const auto* g = t.pci_of(d.index);
    j["pcie"] = g ? pcie(*g) : nlohmann::json(nullptr);
    out.push_back(std::move(j));
  }
  // GPUs the kernel sees but CUDA does not (no driver, hidden by CUDA_VISIBLE_DEVICES, ...).
  for (const auto& g : t.pci) {
    const bool known = std::any_of(t.devices.begin(), t.devices.end(),
                                   [&](const device_facts& d) { return d.pci_bus_id == g.bus_id; });
    if (known) continue;
    out.push_back({{"index", nullptr},
                   {"pci_bus_id", g.bus_id},
                   {"pci_device_id", g.device_id},
                   {"numa_node", opt(g.numa_node)},
                   {"pcie", pcie(g)}});
  }
  return out;
}

nlohmann::json gpu_pairs_json(const gpu_topology& t) {
  nlohmann::json out = nlohmann::json::array();
  const int n = static_cast<int>(t.devices.size());
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      const auto& f = t.pairs[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
      nlohmann::json j = {{"src", a},
                          {"dst", b},
                          {"can_access_peer", f.can_access_peer},
                          {"performance_rank", opt(f.performance_rank)}};
      j.update(to_json(t.link(a, b)));
      const auto peak = t.p2p_peak(a, b, false, 1);
      j["peak_gbps"] = peak ? nlohmann::json(peak->value) : nlohmann::json(nullptr);
      out.push_back(std::move(j));
    }
  if (n > 0) return out;
  // No CUDA devices: the PCIe path of every pair the kernel knows, by bus id.
  for (std::size_t a = 0; a < t.pci.size(); ++a)
    for (std::size_t b = a + 1; b < t.pci.size(); ++b) {
      const auto& ga = t.pci[a];
      const auto& gb = t.pci[b];
      out.push_back({{"a", ga.bus_id},
                     {"b", gb.bus_id},
                     {"link", "unknown"},
                     {"pcie_path", to_string(classify_pcie_path(ga.path, ga.numa_node, gb.path,
                                                                gb.numa_node))}});
    }
  return out;
}

}  // namespace gpubench::benchmarks::gpu
