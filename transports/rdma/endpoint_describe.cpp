// What an endpoint tells a result about its path: the port's line rate and the device, link,
// GID, memory and queue facts for the result's context.
#include "transports/rdma/endpoint.hpp"

namespace gpubench::transports::rdma {

std::optional<line_rate> endpoint::rate() const {
  if (auto r = rate_from_codes(m_port.port_attr.active_speed, m_port.port_attr.active_width))
    return r;
  for (const auto& p : m_sysfs.ports)
    if (p.number == m_config.port && p.rate) return p.rate;
  return std::nullopt;
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
  j["memory"] = m_memory->describe();
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
