#include "transports/rdma/verbs.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/errors.hpp"

namespace gpubench::transports::rdma {

device_list::device_list() {
  m_list = ibv_get_device_list(&m_count);
  if (!m_list) m_count = 0;
}

device_list::~device_list() {
  if (m_list) ibv_free_device_list(m_list);
}

std::vector<std::string> device_list::names() const {
  std::vector<std::string> out;
  for (int i = 0; i < m_count; ++i)
    out.emplace_back(ibv_get_device_name(m_list[i]));
  return out;
}

ibv_device* device_list::find(const std::string& name) const {
  for (int i = 0; i < m_count; ++i)
    if (name == ibv_get_device_name(m_list[i])) return m_list[i];
  return nullptr;
}

std::optional<std::string> verbs_unavailable_reason() {
  errno = 0;
  int count = 0;
  ibv_device** list = ibv_get_device_list(&count);
  const int err = errno;
  if (!list)
    return "no RDMA device: ibv_get_device_list returned none (" +
           core::errno_message("ibv_get_device_list", err) +
           (err == ENOSYS ? ": the kernel has no RDMA/InfiniBand support)" : ")");
  ibv_free_device_list(list);
  if (count == 0) return "no RDMA device: ibv_get_device_list returned none";
  return std::nullopt;
}

void throw_verbs(const std::string& call, const std::string& device, int err) {
  throw std::runtime_error(call + " on " + device + ": " + std::strerror(err) + " (errno " +
                           std::to_string(err) + ")");
}

std::vector<gid_entry> read_gid_table(ibv_context* ctx, int port, int table_len) {
  std::vector<gid_entry> out;
  for (int i = 0; i < table_len; ++i) {
    ibv_gid_entry e{};
    // Empty or unreadable entries (ENODATA) are simply not candidates.
    if (ibv_query_gid_ex(ctx, static_cast<std::uint32_t>(port), static_cast<std::uint32_t>(i), &e,
                         0) != 0)
      continue;
    gid_entry g;
    g.index = i;
    std::memcpy(g.gid.data(), e.gid.raw, g.gid.size());
    g.type = e.gid_type == IBV_GID_TYPE_ROCE_V2   ? gid_type::roce_v2
             : e.gid_type == IBV_GID_TYPE_ROCE_V1 ? gid_type::roce_v1
                                                  : gid_type::ib;
    out.push_back(g);
  }
  return out;
}

namespace {

// Fills the limits, port attributes, link layer and GIDs of out.verbs's port out.port.
void query_into(opened_port& out) {
  ibv_context* ctx = out.verbs;
  const int port = out.port;
  if (int rc = ibv_query_device(ctx, &out.device_attr); rc != 0)
    throw_verbs("ibv_query_device", out.device_name, rc);
  if (port < 1 || port > out.device_attr.phys_port_cnt)
    throw core::usage_error("--rdma-port " + std::to_string(port) + ": " + out.device_name +
                            " has " + std::to_string(out.device_attr.phys_port_cnt) + " port(s)");
  if (int rc = ibv_query_port(ctx, static_cast<std::uint8_t>(port), &out.port_attr); rc != 0)
    throw_verbs("ibv_query_port " + std::to_string(port), out.device_name, rc);
  if (out.port_attr.state != IBV_PORT_ACTIVE)
    throw core::skip_case(out.device_name + " port " + std::to_string(port) +
                          " is not active (state " + ibv_port_state_str(out.port_attr.state) + ")");
  out.link = out.port_attr.link_layer == IBV_LINK_LAYER_ETHERNET ? link_layer::ethernet
                                                                 : link_layer::infiniband;
  out.gids = read_gid_table(ctx, port, out.port_attr.gid_tbl_len);
}

bool port_active(ibv_context* ctx, int port) {
  ibv_port_attr a{};
  return ibv_query_port(ctx, static_cast<std::uint8_t>(port), &a) == 0 &&
         a.state == IBV_PORT_ACTIVE;
}

}  // namespace

opened_port open_port(const std::optional<std::string>& name, int port) {
  device_list list;
  if (list.size() == 0) throw core::skip_case("no RDMA device: ibv_get_device_list returned none");
  opened_port out;
  out.port = port;
  if (name) {
    ibv_device* dev = list.find(*name);
    if (!dev) {
      std::string known;
      for (const auto& n : list.names())
        known += (known.empty() ? "" : ", ") + n;
      throw core::skip_case("--rdma-device " + *name + ": no such device (devices: " + known + ")");
    }
    out.context.reset(ibv_open_device(dev));
    if (!out.context) throw_verbs("ibv_open_device", *name, errno);
    out.device_name = *name;
  } else {
    std::string inactive;
    for (int i = 0; i < list.size() && !out.context; ++i) {
      context_ptr ctx(ibv_open_device(list.at(i)));
      const std::string n = ibv_get_device_name(list.at(i));
      if (ctx && port_active(ctx.get(), port)) {
        out.context = std::move(ctx);
        out.device_name = n;
      } else {
        inactive += (inactive.empty() ? "" : ", ") + n;
      }
    }
    if (!out.context)
      throw core::skip_case("no RDMA device with an active port " + std::to_string(port) + " (" +
                            inactive + ")");
  }
  out.verbs = out.context.get();
  query_into(out);
  return out;
}

opened_port query_port(ibv_context* ctx, int port) {
  opened_port out;
  out.verbs = ctx;
  out.port = port;
  out.device_name = ibv_get_device_name(ctx->device);
  query_into(out);
  return out;
}

}  // namespace gpubench::transports::rdma
