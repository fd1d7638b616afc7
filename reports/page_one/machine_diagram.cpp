#include "reports/page_one/machine_diagram.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "reports/model/kind_text.hpp"
#include "reports/model/text_format.hpp"
#include "reports/page_one/path_figure.hpp"

namespace gpubench::reports::page_one {

using namespace model;

namespace {

std::optional<int> int_of(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return std::nullopt;
  const auto& v = j.at(key);
  if (v.is_number_integer()) return v.get<int>();
  if (v.is_string()) {
    try {
      return std::stoi(v.get<std::string>());
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string str_of(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) return {};
  return param_text(j.at(key));
}

// "gen5 x16" from {"generation": 5, "width": 16}; empty when neither is known.
std::string link_text(const nlohmann::json& l) {
  if (l.is_string()) return l.get<std::string>();
  const auto gen = int_of(l, "generation");
  const auto width = int_of(l, "width");
  if (!gen && !width) return {};
  return (gen ? "gen" + std::to_string(*gen) : "gen?") + " x" +
         (width ? std::to_string(*width) : "?");
}

// The PCIe link of a device: "PCIe gen4 x8 of gen4 x16" when it negotiated less than it can.
std::string pcie_text(const nlohmann::json& pcie) {
  if (pcie.is_string()) return "PCIe " + pcie.get<std::string>();
  if (!pcie.is_object()) return {};
  const auto current = link_text(pcie.value("current", nlohmann::json()));
  auto capable = link_text(pcie.value("usable", nlohmann::json()));
  if (capable.empty()) capable = link_text(pcie.value("max", nlohmann::json()));
  if (current.empty()) return capable.empty() ? "" : "PCIe capable " + capable;
  if (capable.empty() || capable == current) return "PCIe " + current;
  return "PCIe " + current + " of " + capable;
}

bool is_bandwidth(const core::case_result& c) {
  return c.better != "lower";
}

// The best (or, with `worst`, the slowest) measured case matching `pick`, by its figure.
template <class Pick>
std::optional<path_figure> pick_figure(const run_input& run, Pick pick, bool worst = false) {
  std::optional<path_figure> out;
  for (const auto& c : run.file.results) {
    if (!pick(c)) continue;
    const auto f = headline_figure(c);
    if (!f) continue;
    const bool better =
        !out || (f->higher_is_better ? f->value > out->value : f->value < out->value);
    if (better != worst || !out) out = f;
  }
  return out;
}

void add_line(diagram_edge& e, const std::string& what, const std::optional<path_figure>& f) {
  if (!f) return;
  e.lines.push_back(what + " " + figure_text(*f, true));
  e.measured = true;
  const auto band = band_of(f->fraction);
  // The edge takes the colour of its worst measured figure with a line rate.
  if (band != line_band::unknown && (e.band == line_band::unknown || band > e.band)) e.band = band;
}

std::string param_is(const core::case_result& c, const char* key) {
  return c.params.contains(key) ? param_text(c.params.at(key)) : "";
}

// A point-to-point network case over `transport`.
bool over(const core::case_result& c, std::string_view transport) {
  return c.kind.is(core::paths::network) && c.kind.transport == transport;
}

struct device {
  std::string id, label, detail, kind, pcie;
  int numa = 0;
};

}  // namespace

diagram machine_diagram(const run_input& run) {
  const auto& sys = run.file.system;
  diagram d;
  d.title = "Machine diagram: " + run.label;
  const auto gpus =
      sys.contains("gpus") && sys.at("gpus").is_array() ? sys.at("gpus") : nlohmann::json::array();
  const auto nics =
      sys.contains("nics") && sys.at("nics").is_array() ? sys.at("nics") : nlohmann::json::array();
  const auto rdma = sys.contains("rdma_devices") && sys.at("rdma_devices").is_array()
                        ? sys.at("rdma_devices")
                        : nlohmann::json::array();

  // Interfaces and RDMA devices the measurements went through, so they are drawn even when the
  // system block does not list them (loopback, a device hidden from the probe).
  std::vector<std::string> used_ifaces, used_rdma;
  for (const auto& c : run.file.results) {
    if (over(c, "tcp")) {
      const auto i = str_of(c.context, "interface");
      if (!i.empty() && std::find(used_ifaces.begin(), used_ifaces.end(), i) == used_ifaces.end())
        used_ifaces.push_back(i);
    }
    if (over(c, "rdma")) {
      auto i = str_of(c.context, "device");
      if (i.empty()) i = param_is(c, "device");
      if (!i.empty() && std::find(used_rdma.begin(), used_rdma.end(), i) == used_rdma.end())
        used_rdma.push_back(i);
    }
  }

  std::vector<device> devices;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const auto& g = gpus[i];
    device dev;
    const auto index = int_of(g, "index");
    dev.id = "gpu" + (index ? std::to_string(*index) : ":" + str_of(g, "pci_bus_id"));
    dev.label = index ? "GPU " + std::to_string(*index) : "GPU " + str_of(g, "pci_bus_id");
    dev.detail = str_of(g, "name");
    dev.kind = "gpu";
    dev.pcie = pcie_text(g.value("pcie", nlohmann::json()));
    dev.numa = int_of(g, "numa_node").value_or(0);
    devices.push_back(std::move(dev));
  }
  for (const auto& n : nics) {
    const auto name = str_of(n, "name");
    const bool used = std::find(used_ifaces.begin(), used_ifaces.end(), name) != used_ifaces.end();
    if (!used && (name == "lo" || n.value("virtual", false) || str_of(n, "kind") == "loopback"))
      continue;
    device dev{"nic:" + name, name, "", "nic", "", int_of(n, "numa_node").value_or(0)};
    if (const auto mbps = int_of(n, "speed_mbps"); mbps && *mbps > 0)
      dev.detail = format_value(*mbps / 1000.0) + " Gb/s";
    if (const auto mtu = int_of(n, "mtu"))
      dev.detail += (dev.detail.empty() ? "" : ", ") + std::string("MTU ") + std::to_string(*mtu);
    if (n.contains("pcie_link")) dev.pcie = pcie_text(n.at("pcie_link"));
    devices.push_back(std::move(dev));
  }
  for (const auto& name : used_ifaces)
    if (std::none_of(devices.begin(), devices.end(),
                     [&](const device& x) { return x.id == "nic:" + name; }))
      devices.push_back({"nic:" + name, name, name == "lo" ? "loopback" : "", "nic", "", 0});
  for (const auto& r : rdma) {
    const auto name = str_of(r, "name");
    device dev{"rdma:" + name, name, "", "rdma", "", int_of(r, "numa_node").value_or(0)};
    dev.detail = str_of(r, "link_layer");
    if (const auto gbps = int_of(r, "speed_gbps"))
      dev.detail += (dev.detail.empty() ? "" : ", ") + std::to_string(*gbps) + " Gb/s";
    devices.push_back(std::move(dev));
  }
  for (const auto& name : used_rdma)
    if (std::none_of(devices.begin(), devices.end(),
                     [&](const device& x) { return x.id == "rdma:" + name; }))
      devices.push_back({"rdma:" + name, name, "RDMA", "rdma", "", 0});

  // NUMA nodes: as many as the system block says, and every node a device names.
  int numa_count = std::max(1, int_of(sys, "numa_nodes").value_or(1));
  for (auto& dev : devices) {
    dev.numa = std::max(0, dev.numa);
    numa_count = std::max(numa_count, dev.numa + 1);
  }
  std::string cpu_model;
  if (sys.contains("cpu")) cpu_model = str_of(sys.at("cpu"), "model");

  // Within a NUMA node, GPUs first, then NICs and RDMA devices, so the GPU peer fabric and the
  // network on the right are reached by straight lines more often.
  std::stable_sort(devices.begin(), devices.end(), [](const device& a, const device& b) {
    return (a.kind == "gpu") > (b.kind == "gpu");
  });
  int row = 0;
  int gpu_first = -1, gpu_last = -1, net_first = -1, net_last = -1;
  for (int n = 0; n < numa_count; ++n) {
    const std::string sn = std::to_string(n);
    const auto here =
        std::count_if(devices.begin(), devices.end(), [n](const device& x) { return x.numa == n; });
    const int span = std::max(1, static_cast<int>(here));
    d.nodes.push_back({"mem" + sn, "DRAM", "host memory, node " + sn, "memory", 0, row, span});
    d.nodes.push_back(
        {"cpu" + sn, numa_count > 1 ? "NUMA " + sn : "CPU", cpu_model, "cpu", 1, row, span});
    diagram_edge e{"mem" + sn, "cpu" + sn, {}, line_band::unknown, false};
    add_line(e, "copy", pick_figure(run, [&](const core::case_result& c) {
               const auto numa = int_of(c.params, "numa");
               return c.kind.is(core::paths::host_memory) && (numa ? *numa == n : n == 0);
             }));
    d.edges.push_back(std::move(e));
    if (n > 0)
      d.edges.push_back({"cpu" + std::to_string(n - 1),
                         "cpu" + sn,
                         {"inter-socket link"},
                         line_band::unknown,
                         false});
    int r = row;
    for (const auto& dev : devices) {
      if (dev.numa != n) continue;
      d.nodes.push_back({dev.id, dev.label, dev.detail, dev.kind, 2, r, 1});
      auto& first = dev.kind == "gpu" ? gpu_first : net_first;
      auto& last = dev.kind == "gpu" ? gpu_last : net_last;
      if (first < 0) first = r;
      last = r;
      ++r;
      diagram_edge link{"cpu" + sn, dev.id, {}, line_band::unknown, false};
      if (dev.kind == "gpu") {
        const auto gpu = dev.id.substr(3);
        auto copy = [&](std::string_view direction) {
          return pick_figure(run, [&](const core::case_result& c) {
            return c.kind.is(core::paths::host_gpu) && c.kind.direction == direction &&
                   is_bandwidth(c) && endpoint_text(c, 0) == gpu &&
                   param_is(c, "memory") != "pageable" && param_is(c, "engine") != "sm" &&
                   (!c.params.contains("numa") || int_of(c.params, "numa") == n);
          });
        };
        add_line(link, "H2D", copy(core::directions::to_gpu));
        add_line(link, "D2H", copy(core::directions::to_host));
      }
      if (!dev.pcie.empty()) link.lines.push_back(dev.pcie);
      d.edges.push_back(std::move(link));
    }
    row += span;
  }
  d.rows = row;

  // GPU to GPU: one box for the peer fabric, each GPU's edge carries its slowest pair.
  std::set<std::string> links;
  for (const auto& c : run.file.results)
    if (c.kind.is(core::paths::gpu_gpu) && c.params.contains("link"))
      links.insert(param_text(c.params.at("link")));
  bool no_peer_access = false;
  if (sys.contains("gpu_pairs") && sys.at("gpu_pairs").is_array())
    for (const auto& p : sys.at("gpu_pairs")) {
      if (p.contains("link") && p.at("link").is_string() && p.at("link") != "unknown")
        links.insert(p.at("link").get<std::string>());
      if (p.contains("can_access_peer") && p.at("can_access_peer") == false) no_peer_access = true;
    }
  const auto gpu_count = std::count_if(devices.begin(), devices.end(),
                                       [](const device& x) { return x.kind == "gpu"; });
  if (gpu_count >= 2) {
    std::string label = links.contains("nvlink") ? "NVLink" : "GPU peer-to-peer";
    std::string detail;
    for (const auto& l : links)
      detail += (detail.empty() ? "" : ", ") + l;
    if (no_peer_access) detail += (detail.empty() ? "" : "; ") + std::string("some pairs staged");
    d.nodes.push_back({"peers", label, detail, "fabric", 3, gpu_first, gpu_last - gpu_first + 1});
    for (const auto& dev : devices) {
      if (dev.kind != "gpu") continue;
      const auto gpu = dev.id.substr(3);
      diagram_edge e{dev.id, "peers", {}, line_band::unknown, false};
      add_line(e, "slowest pair",
               pick_figure(
                   run,
                   [&](const core::case_result& c) {
                     return c.kind.is(core::paths::gpu_gpu) && is_bandwidth(c) &&
                            endpoint_text(c, 0) == gpu && param_is(c, "direction") != "bidir";
                   },
                   true));
      add_line(e, "latency", pick_figure(run, [&](const core::case_result& c) {
                 return c.kind.is(core::paths::gpu_gpu) && !is_bandwidth(c) &&
                        endpoint_text(c, 0) == gpu;
               }));
      d.edges.push_back(std::move(e));
    }
  }

  // The network: the peer of the point-to-point tests, or the cluster of the allreduce.
  std::string peer;
  int nodes = 0;
  for (const auto& c : run.file.results) {
    if (peer.empty() && c.params.contains("peer")) peer = param_text(c.params.at("peer"));
    if (c.kind.is(core::paths::collective) && c.status == core::case_status::ok)
      nodes = std::max(nodes, int_of(c.params, "nodes").value_or(0));
  }
  const bool any_net_device = std::any_of(devices.begin(), devices.end(), [](const device& x) {
    return x.kind == "nic" || x.kind == "rdma";
  });
  if (any_net_device) {
    std::string detail = peer.empty() ? "" : "peer " + peer;
    if (nodes > 1)
      detail += (detail.empty() ? "" : "; ") + std::string("allreduce up to ") +
                std::to_string(nodes) + " nodes";
    // Beside the peer fabric when their rows overlap (the lines pass under the fabric's box).
    const bool overlap = gpu_count >= 2 && net_first <= gpu_last && gpu_first <= net_last;
    d.nodes.push_back({"network", "network", detail, "network", overlap ? 4 : 3, net_first,
                       net_last - net_first + 1});
    for (const auto& dev : devices) {
      if (dev.kind != "nic" && dev.kind != "rdma") continue;
      const bool tcp = dev.kind == "nic";
      const std::string name = dev.label;
      auto on_device = [&](const core::case_result& c) {
        if (!over(c, tcp ? "tcp" : "rdma")) return false;
        const auto via = tcp ? str_of(c.context, "interface")
                             : (c.context.contains("device") ? str_of(c.context, "device")
                                                             : param_is(c, "device"));
        return via == name;
      };
      diagram_edge e{dev.id, "network", {}, line_band::unknown, false};
      const std::string what = tcp ? "TCP" : "RDMA";
      add_line(e, what, pick_figure(run, [&](const core::case_result& c) {
                 return on_device(c) && is_bandwidth(c);
               }));
      add_line(e, what + " p50", pick_figure(run, [&](const core::case_result& c) {
                 return on_device(c) && !is_bandwidth(c);
               }));
      d.edges.push_back(std::move(e));
    }
  }
  d.columns = 0;
  for (const auto& n : d.nodes)
    d.columns = std::max(d.columns, n.column + 1);
  return d;
}

}  // namespace gpubench::reports::page_one
