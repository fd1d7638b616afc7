#include "transports/rdma/device_info.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "core/system/sysfs.hpp"

namespace gpubench::transports::rdma {

namespace fs = std::filesystem;

namespace {

struct known_provider {
  const char* prefix;  // matched against the start of the driver or device name
  const char* provider;
  const char* label;
};

constexpr known_provider known_providers[] = {
    {"vmw_pvrdma", "vmw_pvrdma", "PVRDMA (VMware paravirtual)"},
    {"mlx5", "mlx5", "NVIDIA ConnectX (mlx5)"},
    {"mlx4", "mlx4", "Mellanox ConnectX-3 (mlx4)"},
    {"rxe", "rxe", "Soft-RoCE (rxe)"},
    {"rdma_rxe", "rxe", "Soft-RoCE (rxe)"},
    {"siw", "siw", "Soft-iWARP (siw)"},
    {"irdma", "irdma", "Intel Ethernet (irdma)"},
    {"i40iw", "irdma", "Intel Ethernet (irdma)"},
    {"bnxt", "bnxt_re", "Broadcom NetXtreme (bnxt_re)"},
    {"efa", "efa", "AWS Elastic Fabric Adapter (efa)"},
    {"qed", "qedr", "Marvell FastLinQ (qedr)"},
    {"hns", "hns", "HiSilicon RoCE (hns)"},
    {"erdma", "erdma", "Alibaba Elastic RDMA (erdma)"},
    {"mana", "mana", "Microsoft Azure MANA (mana)"},
    {"hfi1", "hfi1", "Cornelis Omni-Path (hfi1)"},
    {"cxgb4", "cxgb4", "Chelsio T4/T5 iWARP (cxgb4)"},
    {"usnic", "usnic", "Cisco usNIC (usnic)"},
};

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

std::string link_name(const fs::path& p) {
  std::error_code ec;
  const auto target = fs::read_symlink(p, ec);
  return ec ? std::string() : target.filename().string();
}

std::string line_or(const fs::path& p, std::string fallback = "") {
  auto v = core::read_line(p);
  return v ? *v : fallback;
}

// sysfs port state reads "4: ACTIVE".
std::string after_colon(const std::string& s) {
  const auto c = s.find(':');
  if (c == std::string::npos) return s;
  const auto start = s.find_first_not_of(' ', c + 1);
  return start == std::string::npos ? std::string() : s.substr(start);
}

std::vector<fs::path> sorted_children(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

port_description describe_port(const fs::path& dir) {
  port_description p;
  p.number = std::atoi(dir.filename().c_str());
  p.state = after_colon(line_or(dir / "state", "unknown"));
  p.link_layer = line_or(dir / "link_layer", "InfiniBand");
  p.rate_text = line_or(dir / "rate");
  p.rate = rate_from_sysfs(p.rate_text);
  if (auto lid = core::read_int(dir / "lid"); lid && *lid > 0) p.lid = static_cast<int>(*lid);
  for (const auto& f : sorted_children(dir / "gid_attrs" / "ndevs")) {
    auto n = core::read_line(f);
    if (!n || n->empty()) continue;
    p.netdev_of_gid[std::atoi(f.filename().c_str())] = *n;
    if (std::find(p.netdevs.begin(), p.netdevs.end(), *n) == p.netdevs.end())
      p.netdevs.push_back(*n);
  }
  for (const auto& f : sorted_children(dir / "gids")) {
    auto g = core::read_line(f);
    if (g && !g->empty() && *g != "0000:0000:0000:0000:0000:0000:0000:0000") p.gids.push_back(*g);
  }
  return p;
}

}  // namespace

std::string provider_from(const std::string& driver, const std::string& device_name) {
  for (const auto& k : known_providers)
    if (!driver.empty() && starts_with(driver, k.prefix)) return k.provider;
  for (const auto& k : known_providers)
    if (starts_with(device_name, k.prefix)) return k.provider;
  if (!driver.empty()) return driver;
  // Unknown soft device: its name without the trailing index ("foo_3" -> "foo").
  std::string p = device_name;
  while (!p.empty() && std::isdigit(static_cast<unsigned char>(p.back())))
    p.pop_back();
  while (!p.empty() && p.back() == '_')
    p.pop_back();
  return p.empty() ? device_name : p;
}

std::string provider_label(const std::string& provider) {
  for (const auto& k : known_providers)
    if (provider == k.provider) return k.label;
  return provider;
}

bool is_iwarp(const std::string& provider, const std::string& node_type) {
  return node_type == "RNIC" || provider == "siw" || provider == "cxgb4";
}

std::string iwarp_manual_refusal(const std::string& device) {
  return device +
         " is an iWARP device (node type RNIC): iWARP queue pairs are connected by rdma_cm, "
         "which sets the connection up over TCP, and cannot be moved to RTS by the control "
         "channel exchange: use --rdma-cm on";
}

bool has_rc(const std::string& provider, const std::string& node_type) {
  return provider != "efa" && provider != "usnic" && node_type != "unspecified" &&
         node_type.rfind("usNIC", 0) != 0;
}

std::string no_rc_refusal(const std::string& device, const std::string& provider) {
  return device + " (" + provider_label(provider) + ") has no reliable-connected queue pairs" +
         (provider == "efa" ? " (SRD and UD only; perftest measures it with -c SRD)"
                            : " (unreliable datagrams only)") +
         ": net.rdma cases use RC";
}

std::string path_label(const std::string& provider, const std::string& node_type,
                       const std::string& link_layer, const std::string& rate_text) {
  const std::string who = provider_label(provider);
  if (is_iwarp(provider, node_type)) return who + " over iWARP";
  if (!has_rc(provider, node_type))
    return who + (provider == "efa" ? ", SRD only" : ", unreliable datagrams only");
  if (link_layer == "Ethernet") return who + " over RoCE";
  if (!link_layer.empty() && link_layer != "InfiniBand")
    return who + " (link layer " + link_layer + ")";
  // InfiniBand: the generation is what architects name ("InfiniBand HDR").
  std::string gen;
  const auto open = rate_text.find('(');
  const auto close = rate_text.find(')', open == std::string::npos ? 0 : open);
  if (open != std::string::npos && close != std::string::npos) {
    const std::string inside = rate_text.substr(open + 1, close - open - 1);  // "4X HDR"
    const auto space = inside.find(' ');
    gen = space == std::string::npos ? inside : inside.substr(space + 1);
  }
  return "InfiniBand" + (gen.empty() ? std::string() : " " + gen) + " (" + provider + ")";
}

std::vector<device_description> describe_devices(const fs::path& root) {
  std::vector<device_description> out;
  for (const auto& dir : sorted_children(root)) {
    device_description d;
    d.name = dir.filename().string();
    d.driver = link_name(dir / "device" / "driver");
    d.provider = provider_from(d.driver, d.name);
    d.node_type = after_colon(line_or(dir / "node_type"));  // "1: CA" -> "CA"
    d.firmware = line_or(dir / "fw_ver");
    d.hca_type = line_or(dir / "hca_type");
    d.board_id = line_or(dir / "board_id");
    if (auto n = core::read_int(dir / "device" / "numa_node"); n && *n >= 0)
      d.numa_node = static_cast<int>(*n);
    d.pci_address = link_name(dir / "device");
    for (const auto& n : sorted_children(dir / "device" / "net"))
      d.pci_netdevs.push_back(n.filename().string());
    for (const auto& p : sorted_children(dir / "ports"))
      d.ports.push_back(describe_port(p));
    out.push_back(std::move(d));
  }
  return out;
}

nlohmann::json to_json(const device_description& d) {
  nlohmann::json j;
  j["name"] = d.name;
  j["provider"] = d.provider;
  if (!d.driver.empty()) j["driver"] = d.driver;
  if (!d.node_type.empty()) j["node_type"] = d.node_type;
  if (!d.firmware.empty()) j["firmware"] = d.firmware;
  if (!d.hca_type.empty()) j["hca_type"] = d.hca_type;
  if (!d.board_id.empty()) j["board_id"] = d.board_id;
  if (!d.pci_address.empty()) j["pci_address"] = d.pci_address;
  j["numa_node"] = d.numa_node ? nlohmann::json(*d.numa_node) : nlohmann::json(nullptr);
  j["ports"] = nlohmann::json::array();
  for (const auto& p : d.ports) {
    nlohmann::json pj;
    pj["port"] = p.number;
    pj["state"] = p.state;
    pj["link_layer"] = p.link_layer;
    pj["label"] = path_label(d.provider, d.node_type, p.link_layer, p.rate_text);
    if (!p.rate_text.empty()) pj["rate"] = p.rate_text;
    if (p.rate) pj["line_rate_gbit_s"] = p.rate->gbit_per_s;
    if (p.lid) pj["lid"] = *p.lid;
    if (!p.netdevs.empty()) pj["netdevs"] = p.netdevs;
    j["ports"].push_back(std::move(pj));
  }
  return j;
}

std::string port_netdev(const device_description& d, int port, int gid_index) {
  for (const auto& p : d.ports) {
    if (p.number != port) continue;
    if (const auto it = p.netdev_of_gid.find(gid_index); it != p.netdev_of_gid.end())
      return it->second;
    if (!p.netdevs.empty()) return p.netdevs.front();
  }
  return d.pci_netdevs.empty() ? std::string() : d.pci_netdevs.front();
}

netdev_link read_netdev_link(const std::string& name, const fs::path& sysfs_net) {
  netdev_link l;
  l.name = name;
  // Virtual links (veth, some virtio) report -1 or refuse the read: unknown, not zero.
  if (auto speed = core::read_int(sysfs_net / name / "speed"); speed && *speed > 0)
    l.speed_mbps = *speed;
  l.driver = link_name(sysfs_net / name / "device" / "driver");
  // A bond lists its ports in one line: "ens1f0np0 ens1f1np1".
  if (const auto ports = core::read_line(sysfs_net / name / "bonding" / "slaves")) {
    std::istringstream in(*ports);
    for (std::string port; in >> port;) {
      l.bond_ports.push_back(port);
      if (l.bond_port_speed_mbps) continue;
      if (auto speed = core::read_int(sysfs_net / port / "speed"); speed && *speed > 0) {
        l.bond_port = port;
        l.bond_port_speed_mbps = *speed;
      }
    }
  }
  return l;
}

void add_rdma_devices(nlohmann::json& system, const fs::path& root) {
  auto devices = nlohmann::json::array();
  for (const auto& d : describe_devices(root))
    devices.push_back(to_json(d));
  system["rdma_devices"] = std::move(devices);
}

}  // namespace gpubench::transports::rdma
