// One side of an RDMA case: device port, protection domain, completion queues, an RC queue
// pair and its registered buffer, brought from RESET to RTS against a peer's endpoint_info,
// or created and connected by rdma_cm through a qp_connector.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "transports/rdma/buffer_plan.hpp"
#include "transports/rdma/device_info.hpp"
#include "transports/rdma/exchange.hpp"
#include "transports/rdma/numa_binding.hpp"
#include "transports/rdma/params.hpp"
#include "transports/rdma/qp_connector.hpp"
#include "transports/rdma/rdma_memory.hpp"
#include "transports/rdma/relaxed_ordering.hpp"
#include "transports/rdma/verbs.hpp"

namespace gpubench::transports::rdma {

struct endpoint_config {
  test_kind test = test_kind::latency;
  rdma_op op = rdma_op::send;
  memory_kind memory = memory_kind::host;
  std::uint64_t max_size = 0;
  std::uint32_t tx_depth = default_tx_depth;  // requested; clamped to the device
  std::uint32_t rx_depth = 0;                 // 0: chosen from the test and operation
  std::optional<std::uint32_t> inline_size;
  std::optional<std::string> device;
  int port = 1;
  std::optional<int> gid_index;
  int gpu = 0;
  completion_mode completion = completion_mode::poll;
  std::uint8_t tclass = 0;       // GRH traffic class of the address handle
  std::uint8_t sl = 0;           // service level of the address handle
  int pkey_index = 0;            // P_Key index of the QP (control channel path)
  bool relaxed_ordering = true;  // ask for PCIe relaxed ordering on the memory region
  // The control connection's local address: without --rdma-device / --gid-index, the device
  // and GID that hold it are chosen (the rail that reaches the peer). Empty: not known.
  std::string local_address;
};

class endpoint {
 public:
  // Without a connector the endpoint opens c.device itself and moves its QP through the
  // states with connect(). With one (rdma_cm), the device and port are the connector's
  // (c.device, if set, must name the same device) and the connector connects the QP.
  explicit endpoint(const endpoint_config& c, std::unique_ptr<qp_connector> cm = nullptr);
  ~endpoint() = default;
  endpoint(const endpoint&) = delete;
  endpoint& operator=(const endpoint&) = delete;

  endpoint_info local_info() const { return m_local; }
  // Validates the peer (buffer, GID family, link layer) and moves the QP INIT -> RTR -> RTS.
  void connect(const endpoint_info& peer);
  const endpoint_info& peer() const { return m_peer; }
  qp_connector* connector() const { return m_cm.get(); }
  // The rdma_cm path, once the connector has established the connection: validates the peer's
  // buffer, sets the RNR timer rdma_cm leaves at 0 (endpoint_cm.cpp) and learns the path MTU,
  // GID, P_Key and read depths the connection was given.
  void attach_peer(const endpoint_info& peer);

  // Local regions of the registered buffer, each max_size long: what this side sends or
  // writes from, and where the peer's data lands (receives, writes, read responses).
  std::byte* source() { return m_source->data(); }
  std::byte* target() { return m_target->data(); }
  bool host_memory() const { return m_source->host_accessible(); }
  // The largest message both sides' buffers hold (after connecting: the smaller of the two),
  // and, when that is below the case's largest size, why (this device's limits or the peer's).
  std::uint64_t largest_message() const;
  std::string size_limit_reason() const;
  std::uint32_t tx_depth() const { return m_tx_depth; }
  std::uint32_t rx_depth() const { return m_rx_depth; }
  // The inline size posts use: what was asked for, within what the provider granted; 0
  // with GPU memory.
  std::uint32_t max_inline() const;

  // One work request of `op` for `size` bytes: send from source(), write from source() to
  // the peer's target, read from the peer's target into target(); each buffer from `offset`
  // on (offset + size within cycle_space()).
  void post(rdma_op op, std::uint64_t size, std::uint64_t wr_id, bool signaled,
            std::uint64_t offset = 0);
  // A signalled zero-byte send with `tag` as its immediate value: the start and end marks
  // of bidirectional samples. The receiver sees IBV_WC_WITH_IMM and the tag (sync_tag()).
  void post_sync(std::uint32_t tag, std::uint64_t wr_id);
  // A receive of up to max_size bytes into target().
  void post_recv(std::uint64_t wr_id);
  // One receive per id, posted as one chained list (one ibv_post_recv call).
  void post_recvs(std::span<const std::uint64_t> wr_ids);

  // Called after a poll found nothing. Polling mode: returns false at once (the caller spins).
  // Event mode: the first call arms both CQs and returns false, so the caller polls once more
  // (a completion that came before the arming raised no event); the next sleeps on the
  // completion channel, and on `extra_fd` when given, at most `slice`, and returns true.
  bool idle(std::chrono::milliseconds slice, int extra_fd = -1);
  completion_mode completion() const { return m_config.completion; }

  // Polls up to out.size() completions; 0 when none. Throws on a failed poll or any
  // completion whose status is not success (naming op, status and vendor error).
  int poll_send(std::span<ibv_wc> out) { return poll(m_send_cq.get(), out, "send"); }
  int poll_recv(std::span<ibv_wc> out) { return poll(m_recv_cq.get(), out, "receive"); }

  // Path facts for the result's context: device, provider, link layer, rate, firmware, NUMA,
  // MTU, GID, P_Key, depths, inline size and relaxed ordering.
  nlohmann::json describe() const;
  // The port's line rate (port_line_rate: on RoCE the netdev's speed).
  std::optional<line_rate> rate() const;
  // The port queried again (state, speed, width, sysfs rate): its line rate now.
  std::optional<line_rate> rate_now();
  bool port_active() const { return m_port.port_attr.state == IBV_PORT_ACTIVE; }

  // What the asynchronous events name (point_events.hpp).
  ibv_context* context() const { return m_port.verbs; }
  const std::string& device_name() const { return m_port.device_name; }
  int port_number() const { return m_port.port; }
  std::uint32_t qp_num() const { return m_qp ? m_qp->qp_num : 0; }
  bool owns_cq(const ibv_cq* cq) const { return cq == m_send_cq.get() || cq == m_recv_cq.get(); }

 private:
  std::optional<netdev_link> netdev() const;
  int poll(ibv_cq* cq, std::span<ibv_wc> out, const char* which);

  void check_peer(const endpoint_info& peer) const;
  void create_qp(std::uint32_t want_inline, bool pow2, std::uint32_t max_wr);

  endpoint_config m_config;
  std::unique_ptr<qp_connector> m_cm;  // rdma_cm's ids and device context: destroyed last
  std::string m_device_why;            // how the device was chosen, for describe()
  opened_port m_port;                  // owns the device context without rdma_cm
  device_description m_sysfs;
  numa_binding m_binding;  // before the memory, so its pages are placed on the node
  pd_ptr m_pd;
  buffer_plan m_buffers;
  bool m_iwarp = false;
  std::unique_ptr<rdma_memory> m_source;  // what this side sends or writes from
  std::unique_ptr<rdma_memory> m_target;  // where receives, the peer's writes and reads land
  mr_ptr m_source_mr;
  mr_ptr m_target_mr;
  channel_ptr m_channel;  // event mode only; outlives the CQs attached to it
  bool m_armed = false;   // both CQs asked for an event since the last one arrived
  cq_ptr m_send_cq;
  cq_ptr m_recv_cq;
  std::unique_ptr<ibv_qp, qp_release> m_qp;  // destroyed first
  std::uint32_t m_tx_depth = 0, m_rx_depth = 0, m_max_inline = 0;
  std::uint32_t m_want_inline = 0;  // what was asked for: posts inline at most this much
  std::uint32_t m_send_wrs = 0;     // the window plus the sync slot of bandwidth tests
  int m_gid_index = -1;
  std::string m_gid_why;  // how the GID was chosen, for describe()
  int m_path_mtu = 0;
  std::uint8_t m_init_reads = 1;
  endpoint_info m_local, m_peer;
  nlohmann::json m_cm_qp;              // the QP attributes rdma_cm chose, for describe()
  unsigned m_qp_access = 0;            // the remote access the operation needs on the QP
  relaxed_ordering_outcome m_relaxed;  // how the memory region was registered
  std::uint32_t m_inline_default = 0;  // the provider's latency default (without --rdma-inline)
  std::string m_inline_fallback;       // set when the provider refused the inline size
  int m_pkey_index = 0;
  std::optional<std::uint16_t> m_pkey;  // the P_Key at that index, host byte order
  std::string m_rnr_timer_why;          // rdma_cm: how min_rnr_timer came about
};

}  // namespace gpubench::transports::rdma
