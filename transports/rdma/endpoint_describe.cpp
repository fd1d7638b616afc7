// What an endpoint tells a result about its path: the port's line rate, the largest message
// its buffers and the peer's hold, and the device, link, GID, memory and queue facts for the
// result's context.
#include "transports/rdma/endpoint.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/system/sysfs.hpp"

namespace gpubench::transports::rdma {

// On RoCE the netdev of the GID in use (or the port's, or the PCI function's).
std::optional<netdev_link> endpoint::netdev() const {
  if (m_port.link != link_layer::ethernet) return std::nullopt;
  const std::string name = port_netdev(m_sysfs, m_config.port, m_gid_index);
  if (name.empty()) return std::nullopt;
  return read_netdev_link(name);
}

std::optional<line_rate> endpoint::rate() const {
  std::string sysfs_rate;
  for (const auto& p : m_sysfs.ports)
    if (p.number == m_config.port) sysfs_rate = p.rate_text;
  return port_line_rate(m_port.link == link_layer::ethernet, m_port.port_attr.active_speed,
                        m_port.port_attr.active_width, sysfs_rate, netdev());
}

std::optional<line_rate> endpoint::rate_now() {
  ibv_port_attr a{};
  if (ibv_query_port(m_port.verbs, static_cast<std::uint8_t>(m_port.port), &a) == 0)
    m_port.port_attr = a;
  for (auto& p : m_sysfs.ports)
    if (p.number == m_config.port)
      p.rate_text = core::read_line(fmt::format("/sys/class/infiniband/{}/ports/{}/rate",
                                                m_port.device_name, p.number))
                        .value_or(p.rate_text);
  return rate();
}

std::uint64_t endpoint::largest_message() const {
  return m_peer.length > 0 ? std::min(m_config.max_size, m_peer.length) : m_config.max_size;
}

std::string endpoint::size_limit_reason() const {
  if (m_peer.length > 0 && m_peer.length < m_config.max_size)
    return "the peer's buffers hold at most " + std::to_string(m_peer.length) +
           " bytes (its device's limits: see the server's context, buffers)";
  return m_buffers.limit;
}

nlohmann::json endpoint::describe() const {
  nlohmann::json j;
  const std::string ll = m_port.link == link_layer::ethernet ? "Ethernet" : "InfiniBand";
  std::string rate_text;
  for (const auto& p : m_sysfs.ports)
    if (p.number == m_config.port) rate_text = p.rate_text;
  j["device"] = m_port.device_name;
  j["device_choice"] = m_device_why;
  j["port"] = m_config.port;
  j["provider"] = m_sysfs.provider;
  j["path"] = path_label(m_sysfs.provider, m_sysfs.node_type, ll, rate_text);
  j["link_layer"] = ll;
  if (const auto speed = speed_from_code(m_port.port_attr.active_speed)) j["speed"] = speed->name;
  if (const auto lanes = lanes_from_code(m_port.port_attr.active_width)) j["width"] = *lanes;
  if (!rate_text.empty()) j["rate"] = rate_text;
  if (const auto n = netdev()) {
    // RoCE: the speed and width above are the driver's InfiniBand codes for the Ethernet
    // speed; the netdev's speed is what the line rate (peak) comes from.
    j["netdev"] = n->name;
    if (n->speed_mbps) j["netdev_speed_mbps"] = *n->speed_mbps;
    if (!n->bond_ports.empty()) j["bond_ports"] = n->bond_ports;  // RoCE LAG: the rate is one's
  }
  if (const auto r = rate()) j["line_rate_basis"] = r->basis;
  if (!m_sysfs.firmware.empty()) j["firmware"] = m_sysfs.firmware;
  j["numa"] = m_sysfs.numa_node ? nlohmann::json(*m_sysfs.numa_node) : nlohmann::json(nullptr);
  j["numa_binding"] = m_binding.note();
  if (const auto mtu = mtu_bytes(m_path_mtu)) j["mtu"] = *mtu;
  if (m_gid_index >= 0) {
    j["gid_index"] = m_gid_index;
    if (!m_gid_why.empty()) j["gid_choice"] = m_gid_why;
    j["gid"] = format_gid(m_local.gid);
    for (const auto& g : m_port.gids)
      if (g.index == m_gid_index) j["gid_type"] = to_string(g.type);
  } else {
    j["lid"] = m_local.lid;
  }
  j["memory"] = m_source->describe();
  nlohmann::json buffers = {{"regions", "source and target, each its own memory region"},
                            {"region_bytes", m_buffers.region_bytes},
                            {"largest_message", m_buffers.largest_message},
                            {"max_mr_size", m_port.device_attr.max_mr_size},
                            {"max_msg_sz", m_port.port_attr.max_msg_sz}};
  if (!m_buffers.limit.empty()) buffers["limit"] = m_buffers.limit;
  j["buffers"] = std::move(buffers);
  j["tx_depth"] = m_tx_depth;
  j["inline"] = max_inline();          // what posts use
  j["inline_granted"] = m_max_inline;  // what the provider granted the QP
  if (!m_config.inline_size) j["inline_default"] = m_inline_default;  // the provider's
  if (!m_inline_fallback.empty()) j["inline_fallback"] = m_inline_fallback;
  j["relaxed_ordering"] = m_relaxed.used;
  j["relaxed_ordering_choice"] = m_relaxed.why;
  j["pkey_index"] = m_pkey_index;
  if (m_pkey) j["pkey"] = pkey_text(*m_pkey);
  j["completion"] = to_string(m_config.completion) == "event"
                        ? "event (completion channel, ibv_req_notify_cq)"
                        : "poll (busy-polling the CQ)";
  j["outstanding_reads"] = m_init_reads;
  if (m_cm) {
    j.update(m_cm->describe());
    j["qp_attributes"] = m_cm_qp;  // as rdma_cm set them, read back
    j["min_rnr_timer_choice"] = m_rnr_timer_why;
  } else {
    j["connection"] = "control channel exchange";
    j["traffic_class"] = m_config.tclass;
    j["service_level"] = m_config.sl;
  }
  return j;
}

}  // namespace gpubench::transports::rdma
