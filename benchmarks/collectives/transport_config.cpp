#include "benchmarks/collectives/transport_config.hpp"

#include <algorithm>
#include <array>

namespace gpubench::benchmarks::collectives {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    if (comma > pos) out.push_back(text.substr(pos, comma - pos));
    pos = comma + 1;
  }
  return out;
}

namespace {

// The btls that may move data over RDMA (Open MPI 4's openib and uct, 5's ofi, Cisco usnic).
constexpr std::array<const char*, 4> rdma_btls = {"openib", "uct", "ofi", "usnic"};

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// Open MPI's btl list is either an inclusion list or, after '^', an exclusion list.
struct btl_selection {
  bool set = false;
  bool exclude = false;
  std::vector<std::string> names;
  bool allows(const std::string& btl) const {
    if (!set) return true;
    return exclude != contains(names, btl);
  }
};

btl_selection parse_btl(const std::optional<std::string>& text) {
  btl_selection s;
  if (!text || text->empty()) return s;
  s.set = true;
  std::string list = *text;
  if (list[0] == '^') {
    s.exclude = true;
    list.erase(0, 1);
  }
  s.names = split_list(list);
  return s;
}

void record(nlohmann::json& settings, const env_lookup& env, const char* name) {
  if (auto v = env(name)) settings[name] = *v;
}

// UCX's InfiniBand/RoCE transports, by alias ("rc", "ud_x", "ib") or by transport name as UCX
// prints them ("rc_verbs", "ud_mlx5"; 1.13 names the verbs ones so, UCX_TLS=rc_verbs,ud_verbs
// is what soft-RoCE and PVRDMA need).
bool has_rdma_tls(const std::string& tls) {
  for (const auto& t : split_list(tls)) {
    if (t == "rc" || t == "rc_v" || t == "rc_x" || t == "rc_verbs" || t == "rc_mlx5" || t == "dc" ||
        t == "dc_x" || t == "dc_mlx5" || t == "ud" || t == "ud_v" || t == "ud_x" ||
        t == "ud_verbs" || t == "ud_mlx5" || t == "ib" || t == "all")
      return true;
  }
  return false;
}

}  // namespace

transport_choice mpi_transport(const env_lookup& env, int nodes, bool rdma_devices_present) {
  transport_choice c;
  c.settings = nlohmann::json::object();
  for (const char* name :
       {"OMPI_MCA_pml", "OMPI_MCA_btl", "OMPI_MCA_osc", "OMPI_MCA_btl_tcp_if_include",
        "OMPI_MCA_btl_tcp_if_exclude", "UCX_TLS", "UCX_NET_DEVICES", "UCX_IB_GID_INDEX"})
    record(c.settings, env, name);
  if (auto v = env("OMPI_MCA_btl_tcp_if_include")) c.interfaces = split_list(*v);

  const std::string pml = env("OMPI_MCA_pml").value_or("");
  if (pml == "ucx") {
    const std::string tls = env("UCX_TLS").value_or("");
    if (auto v = env("UCX_NET_DEVICES")) c.interfaces = split_list(*v);
    if (nodes == 1 && (tls.empty() || tls.find("sm") != std::string::npos)) {
      c.label = "shm";
      c.basis = "OMPI_MCA_pml=ucx within one node (UCX shared memory)";
    } else if (!tls.empty() && tls[0] == '^') {
      // An exclusion list: UCX chooses among everything else.
      c.label = "ucx";
      c.basis = "OMPI_MCA_pml=ucx, UCX_TLS=" + tls + ": UCX chooses among the transports left";
    } else if (!tls.empty() && has_rdma_tls(tls)) {
      c.label = "rdma";
      c.basis = "OMPI_MCA_pml=ucx, UCX_TLS=" + tls;
    } else if (!tls.empty() && tls.find("tcp") != std::string::npos) {
      c.label = "tcp";
      c.basis = "OMPI_MCA_pml=ucx, UCX_TLS=" + tls;
    } else {
      c.label = "ucx";
      c.basis = tls.empty() ? "OMPI_MCA_pml=ucx, UCX chooses its transports (UCX_TLS not set)"
                            : "OMPI_MCA_pml=ucx, UCX_TLS=" + tls +
                                  " names neither an InfiniBand/RoCE transport nor tcp";
    }
    return c;
  }

  const btl_selection btl = parse_btl(env("OMPI_MCA_btl"));
  const std::string btl_text = env("OMPI_MCA_btl").value_or("");
  const std::string why = btl.set ? "OMPI_MCA_btl=" + btl_text : std::string("Open MPI defaults");
  if (nodes == 1 && (btl.allows("vader") || btl.allows("sm"))) {
    c.label = "shm";
    c.basis = why + ": ranks on one node use shared memory (vader)";
    return c;
  }
  const bool rdma_btl = btl.set && !btl.exclude &&
                        std::any_of(rdma_btls.begin(), rdma_btls.end(),
                                    [&](const char* b) { return contains(btl.names, b); });
  const bool rdma_excluded = btl.set && std::none_of(rdma_btls.begin(), rdma_btls.end(),
                                                     [&](const char* b) { return btl.allows(b); });
  if (!pml.empty() && pml != "ob1") {
    c.label = "auto";
    c.basis = why + ", OMPI_MCA_pml=" + pml + ": the pml, not the btls, picks the transport";
    return c;
  }
  if (rdma_btl) {
    c.label = "rdma";
    c.basis = why;
  } else if (btl.allows("tcp") && pml == "ob1" && rdma_excluded) {
    // Only then is it certainly TCP: without pml ob1, Open MPI may pick the ucx or cm pml
    // (UCX, libfabric) whatever the btls say; with an RDMA btl allowed, ob1 may use it.
    c.label = "tcp";
    c.basis = why;
  } else if (!btl.allows("tcp") && nodes > 1) {
    c.label = "rdma";
    c.basis = why + " (tcp excluded)";
  } else {
    c.label = "auto";
    c.basis =
        why + (pml == "ob1" ? "" : "; OMPI_MCA_pml is not ob1, so ucx or cm may be chosen") +
        (rdma_excluded ? "" : "; the btl list does not exclude openib, uct, ofi and usnic") +
        (rdma_devices_present ? "; an RDMA device is present" : "; no RDMA device seen here") +
        ": Open MPI picks the transport itself (say --mca pml ob1 --mca btl self,vader,tcp "
        "for TCP)";
  }
  if (pml.size()) c.basis += ", OMPI_MCA_pml=" + pml;
  return c;
}

transport_choice nccl_transport(const env_lookup& env, int nodes, bool rdma_devices_present) {
  transport_choice c;
  c.settings = nlohmann::json::object();
  for (const char* name :
       {"NCCL_NET", "NCCL_IB_HCA", "NCCL_IB_DISABLE", "NCCL_SOCKET_IFNAME", "NCCL_IB_GID_INDEX",
        "NCCL_NET_GDR_LEVEL", "NCCL_P2P_DISABLE", "NCCL_SHM_DISABLE"})
    record(c.settings, env, name);
  if (nodes == 1) {
    c.label = "intra-node";
    c.basis = "one node: NCCL uses NVLink/PCIe peer-to-peer or shared memory";
    return c;
  }
  const std::string net = env("NCCL_NET").value_or("");
  const bool ib_disabled = env("NCCL_IB_DISABLE").value_or("0") == "1";
  if (auto v = env("NCCL_SOCKET_IFNAME")) c.interfaces = split_list(*v);
  if (net == "Socket" || net == "socket") {
    c.label = "tcp";
    c.basis = "NCCL_NET=" + net;
  } else if (net == "IB" || net == "ib") {
    c.label = "rdma";
    c.basis = "NCCL_NET=" + net;
    if (auto v = env("NCCL_IB_HCA")) c.interfaces = split_list(*v);
  } else if (ib_disabled) {
    c.label = "tcp";
    c.basis = "NCCL_IB_DISABLE=1";
  } else if (!rdma_devices_present) {
    c.label = "tcp";
    c.basis = "no RDMA device on this host: NCCL falls back to sockets";
  } else {
    c.label = "auto";
    c.basis = "RDMA device present and NCCL_NET not set: NCCL prefers IB/RoCE";
    if (auto v = env("NCCL_IB_HCA")) c.interfaces = split_list(*v);
  }
  if (!net.empty() && net != "Socket" && net != "socket" && net != "IB" && net != "ib") {
    c.label = "auto";
    c.basis = "NCCL_NET=" + net + " (a network plugin)";
  }
  return c;
}

}  // namespace gpubench::benchmarks::collectives
