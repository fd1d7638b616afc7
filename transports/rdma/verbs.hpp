// RAII owners of libibverbs objects, and the queries a benchmark needs from a device: its
// port, GID table and limits. Every failure throws with the call and the device named.
#pragma once

#include <infiniband/verbs.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "transports/rdma/gid_select.hpp"

namespace gpubench::transports::rdma {

template <auto destroy>
struct verbs_deleter {
  template <typename T>
  void operator()(T* p) const noexcept {
    // Teardown errors cannot be acted on here; the objects are gone either way.
    if (p) static_cast<void>(destroy(p));
  }
};

using context_ptr = std::unique_ptr<ibv_context, verbs_deleter<ibv_close_device>>;
using pd_ptr = std::unique_ptr<ibv_pd, verbs_deleter<ibv_dealloc_pd>>;
using cq_ptr = std::unique_ptr<ibv_cq, verbs_deleter<ibv_destroy_cq>>;
using qp_ptr = std::unique_ptr<ibv_qp, verbs_deleter<ibv_destroy_qp>>;
using mr_ptr = std::unique_ptr<ibv_mr, verbs_deleter<ibv_dereg_mr>>;
using channel_ptr = std::unique_ptr<ibv_comp_channel, verbs_deleter<ibv_destroy_comp_channel>>;

// The device list of ibv_get_device_list, freed on destruction.
class device_list {
 public:
  device_list();
  ~device_list();
  device_list(const device_list&) = delete;
  device_list& operator=(const device_list&) = delete;

  std::vector<std::string> names() const;
  // nullptr when absent.
  ibv_device* find(const std::string& name) const;
  int size() const { return m_count; }
  ibv_device* at(int i) const { return m_list[i]; }

 private:
  ibv_device** m_list = nullptr;
  int m_count = 0;
};

// Why there is no usable device, or nothing when there is one: the skip reason.
std::optional<std::string> verbs_unavailable_reason();

// An open device and one of its ports, with what was learned about them.
struct opened_port {
  context_ptr context;           // empty when the context belongs to rdma_cm
  ibv_context* verbs = nullptr;  // the context in use, owned or not
  std::string device_name;
  int port = 1;
  ibv_device_attr device_attr{};
  ibv_port_attr port_attr{};
  std::vector<gid_entry> gids;
  link_layer link = link_layer::infiniband;
};

// Opens `name`, or the first device whose port `port` is active. Throws std::runtime_error
// (or core::skip_case when no device exists) with the reason.
opened_port open_port(const std::optional<std::string>& name, int port);
// Queries a context someone else opened (rdma_cm's): limits, port, GIDs. The port must be
// active.
opened_port query_port(ibv_context* ctx, int port);

std::vector<gid_entry> read_gid_table(ibv_context* ctx, int port, int table_len);

// "ibv_create_qp on mlx5_0: Cannot allocate memory (errno 12)".
[[noreturn]] void throw_verbs(const std::string& call, const std::string& device, int err);

}  // namespace gpubench::transports::rdma
