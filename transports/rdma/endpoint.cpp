#include "transports/rdma/endpoint.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <random>
#include <stdexcept>

#include "core/errors.hpp"
#include "transports/rdma/buffer_plan.hpp"
#include "transports/rdma/device_choice.hpp"
#include "transports/rdma/recv_chain.hpp"
#include "transports/rdma/relaxed_ordering.hpp"

namespace gpubench::transports::rdma {

namespace {

constexpr std::size_t page = 4096;
constexpr std::size_t gpu_granule = 64 * 1024;  // GPUDirect registers whole GPU pages

device_description sysfs_of(const std::string& name) {
  for (auto& d : describe_devices())
    if (d.name == name) return d;
  device_description d;
  d.name = name;
  d.provider = provider_from("", name);
  return d;
}

int access_for(rdma_op op) {
  int a = IBV_ACCESS_LOCAL_WRITE;  // receives and read responses land in local memory
  if (op == rdma_op::write) a |= IBV_ACCESS_REMOTE_WRITE;
  if (op == rdma_op::read) a |= IBV_ACCESS_REMOTE_READ;
  return a;
}

// The memory regions' access: the QP's, and on iWARP a read's sink also takes remote writes
// (iWARP carries the read response as a write into the sink's tagged buffer).
int region_access(rdma_op op, bool iwarp) {
  int a = access_for(op);
  if (iwarp && op == rdma_op::read) a |= IBV_ACCESS_REMOTE_WRITE;
  return a;
}

std::string address_note(const std::string& address) {
  return address.empty() ? std::string("the control connection's local address (unknown)")
                         : address + ", the control connection's local address";
}

// The device and port: rdma_cm's, --rdma-device, or the one on the control connection's path
// (device_choice.hpp); with several active devices and none on that path, a refusal naming them.
opened_port choose_port(const endpoint_config& c, qp_connector* cm, std::string& why) {
  if (cm) {
    why = "rdma_cm: the device its route to " + cm->peer_name() + " leaves through";
    return query_port(cm->context(), cm->port());
  }
  if (c.device) {
    why = "--rdma-device";
    return open_port(c.device, c.port);
  }
  const auto choice = choose_device(describe_devices(), c.port, control_path_for(c.local_address));
  if (choice.refused) throw core::skip_case(choice.why);
  if (!choice.device.empty()) {
    why = choice.why;
    return open_port(choice.device, c.port);
  }
  why = "the first device with an active port " + std::to_string(c.port) +
        " (sysfs lists none with it active)";
  return open_port(std::nullopt, c.port);
}

// A memory region's flags: region_access's, and relaxed ordering when asked (a region-only
// flag: a QP given it would refuse the transition).
int mr_access(rdma_op op, bool iwarp, bool relaxed) {
  int a = region_access(op, iwarp);
#if GPUBENCH_IBV_RELAXED_ORDERING
  if (relaxed) a |= IBV_ACCESS_RELAXED_ORDERING;
#else
  static_cast<void>(relaxed);
#endif
  return a;
}

// The P_Key at `index` of the port (host byte order), checked: an index outside the table or
// on an empty entry fails here, naming it, instead of a QP that never connects. Index 0, which
// every port has, is taken unread where the table cannot be read (the value is only reported).
std::optional<std::uint16_t> checked_pkey(const opened_port& p, int index) {
  const int table = p.port_attr.pkey_tbl_len;
  std::optional<std::uint16_t> pkey;
  if (index >= 0 && index < table) {
    __be16 raw = 0;
    if (ibv_query_pkey(p.verbs, static_cast<std::uint8_t>(p.port), index, &raw) == 0)
      pkey = ntohs(raw);
    else if (index != 0)
      throw_verbs("ibv_query_pkey (--pkey-index " + std::to_string(index) + ")", p.device_name,
                  errno);
  }
  if (const auto why = pkey_index_problem(index, table, pkey.value_or(0xffff)); !why.empty())
    throw std::runtime_error(p.device_name + " port " + std::to_string(p.port) + ": " + why);
  return pkey;
}

void make_nonblocking(int fd, const std::string& dev) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
    throw_verbs("fcntl O_NONBLOCK on the completion channel", dev, errno);
}

std::uint32_t random_psn() {
  std::random_device rd;
  return rd() & 0xffffff;
}

}  // namespace

endpoint::endpoint(const endpoint_config& c, std::unique_ptr<qp_connector> cm)
    : m_config(c),
      m_cm(std::move(cm)),
      m_port(choose_port(c, m_cm.get(), m_device_why)),
      m_sysfs(sysfs_of(m_port.device_name)),
      m_binding(m_sysfs.numa_node) {
  const std::string& dev = m_port.device_name;
  ibv_context* ctx = m_port.verbs;
  const auto& da = m_port.device_attr;
  if (m_cm) {
    // rdma_cm chose the device and port from the peer's address; a different explicit choice
    // would silently measure another path.
    if (c.device && *c.device != dev)
      throw std::runtime_error("--rdma-device " + *c.device + " was given, but rdma_cm reaches " +
                               m_cm->peer_name() + " through " + dev +
                               ": with --rdma-cm on the address decides the device");
    if (c.port != 1 && c.port != m_port.port)
      throw std::runtime_error("--rdma-port " + std::to_string(c.port) +
                               " was given, but rdma_cm reaches " + m_cm->peer_name() +
                               " through port " + std::to_string(m_port.port) + " of " + dev);
    if (c.gid_index)
      throw core::usage_error(
          "--gid-index does not apply with --rdma-cm on: rdma_cm uses the "
          "GID of the IP address");
    m_config.port = m_port.port;
  }
  m_iwarp = ctx->device->transport_type == IBV_TRANSPORT_IWARP ||
            is_iwarp(m_sysfs.provider, m_sysfs.node_type);
  if (m_iwarp && !m_cm) throw core::skip_case(iwarp_manual_refusal(dev));
  const auto node = ctx->device->node_type;
  if (!has_rc(m_sysfs.provider, m_sysfs.node_type) || node == IBV_NODE_UNSPECIFIED ||
      node == IBV_NODE_USNIC || node == IBV_NODE_USNIC_UDP)
    throw core::skip_case(no_rc_refusal(dev, m_sysfs.provider));
  if (c.max_size == 0) throw std::logic_error("RDMA endpoint without a message size");
  // Buffers within what the device registers and carries (PVRDMA: 1 GiB per region); sizes
  // above the plan's largest are left out of the case, saying why (message_limit()).
  m_buffers = plan_buffers(c.max_size, c.memory == memory_kind::cuda ? gpu_granule : page,
                           da.max_mr_size, m_port.port_attr.max_msg_sz, dev);
  if (m_buffers.largest_message == 0)
    throw core::skip_case("no message fits " + dev + "'s buffers: " + m_buffers.limit);
  m_config.max_size = m_buffers.largest_message;

  // rdma_cm resolves the path, GID included; the control channel path picks the GID here.
  // Without --gid-index, the GID holding the control connection's local address is the
  // interface that reaches the peer; else perftest's rule (IPv4, RoCE v2, global).
  if (!m_cm && (m_port.link == link_layer::ethernet || c.gid_index)) {
    const auto address = gid_of_address(c.local_address);
    const int held = address ? index_holding(m_port.gids, *address) : -1;
    gid_choice choice;
    if (c.gid_index) {
      choice = check_gid_index(m_port.gids, *c.gid_index);
      m_gid_why = "--gid-index";
    } else if (held >= 0) {
      choice = {held, ""};
      m_gid_why = "holds " + address_note(c.local_address);
    } else {
      choice = select_gid(m_port.gids);
      m_gid_why =
          "no GID holds " + address_note(c.local_address) + ": the first IPv4, RoCE v2, global GID";
    }
    if (choice.index < 0)
      throw core::skip_case(dev + " port " + std::to_string(c.port) + ": " + choice.why);
    m_gid_index = choice.index;
  }

  m_pd.reset(ibv_alloc_pd(ctx));
  if (!m_pd) throw_verbs("ibv_alloc_pd", dev, errno);

  // Source and target are separate allocations, each its own memory region, so a region is
  // never larger than the largest message (rounded up to a page).
  const auto region = static_cast<std::size_t>(m_buffers.region_bytes);
  for (auto* m : {&m_source, &m_target})
    *m = c.memory == memory_kind::cuda ? make_cuda_memory(region, c.gpu) : make_host_memory(region);
  const auto register_one = [&](rdma_memory& m) {
    return register_with_relaxed_ordering(
        [&](bool relaxed) {
          return m.register_region(m_pd.get(), mr_access(c.op, m_iwarp, relaxed), dev);
        },
        c.relaxed_ordering, relaxed_ordering_in_headers, m_relaxed);
  };
  m_source_mr = register_one(*m_source);
  m_target_mr = register_one(*m_target);

  // Depths within what both the queues and the CQs can hold, after the provider's own
  // rounding (vmw_pvrdma: powers of two), so every queue asked for is one the device grants.
  const bool pow2 = rounds_queues_to_pow2(m_sysfs.provider);
  const auto max_wr = static_cast<std::uint32_t>(std::max(da.max_qp_wr, 1));
  const auto max_cqe = static_cast<std::uint32_t>(std::max(da.max_cqe, 1));
  const std::uint32_t cap =
      std::min(queue_entries(max_wr, max_wr, pow2), queue_entries(max_cqe, max_cqe, pow2));
  m_tx_depth = send_depth(c.test, c.tx_depth, cap);
  m_rx_depth = c.rx_depth ? std::min(c.rx_depth, cap) : recv_depth(c.test, c.op, m_tx_depth, cap);
  // A bandwidth send queue also holds the sync message of a bidirectional sample.
  m_send_wrs = std::min(cap, m_tx_depth + (c.test == test_kind::bandwidth ? sync_send_slots : 0));

  if (c.completion == completion_mode::event) {
    m_channel.reset(ibv_create_comp_channel(ctx));
    if (!m_channel) throw_verbs("ibv_create_comp_channel", dev, errno);
    make_nonblocking(m_channel->fd, dev);
  }
  // A CQ smaller than the WRs that may complete into it overruns (IBV_EVENT_CQ_ERR).
  m_send_cq.reset(ibv_create_cq(ctx, static_cast<int>(queue_entries(m_send_wrs, max_cqe, pow2)),
                                nullptr, m_channel.get(), 0));
  if (!m_send_cq) throw_verbs("ibv_create_cq (send)", dev, errno);
  m_recv_cq.reset(ibv_create_cq(ctx, static_cast<int>(queue_entries(m_rx_depth, max_cqe, pow2)),
                                nullptr, m_channel.get(), 0));
  if (!m_recv_cq) throw_verbs("ibv_create_cq (receive)", dev, errno);

  // Inline only from memory the CPU can read, and only up to what was asked for; without
  // --rdma-inline, latency tests ask for what the provider is known to hold.
  m_inline_default = provider_inline_default(c.op, m_sysfs.provider, dev, da.vendor_id);
  m_want_inline = m_source->host_accessible()
                      ? wanted_inline(c.test, c.op, c.memory, c.inline_size, m_inline_default)
                      : 0;
  create_qp(m_want_inline, pow2, max_wr);

  // rdma_create_qp leaves the QP in INIT already, with rdma_cm's access flags (checked once
  // connected, in attach_peer).
  m_qp_access = static_cast<unsigned>(access_for(c.op) & ~IBV_ACCESS_LOCAL_WRITE);
  if (!m_cm) {
    m_pkey = checked_pkey(m_port, c.pkey_index);
    m_pkey_index = c.pkey_index;
    ibv_qp_attr a{};
    a.qp_state = IBV_QPS_INIT;
    a.pkey_index = static_cast<std::uint16_t>(c.pkey_index);  // --pkey-index (perftest's too)
    a.port_num = static_cast<std::uint8_t>(c.port);
    a.qp_access_flags = m_qp_access;
    if (int rc = ibv_modify_qp(
            m_qp.get(), &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
        rc != 0)
      throw_verbs("ibv_modify_qp RESET->INIT", dev, rc);
  }

  m_local.lid = m_port.port_attr.lid;
  m_local.qpn = m_qp->qp_num;
  m_local.psn = random_psn();
  m_local.rkey = m_target_mr->rkey;
  m_local.addr = reinterpret_cast<std::uint64_t>(target());
  m_local.length = m_config.max_size;
  m_local.link = m_port.link;
  m_local.mtu = static_cast<std::uint8_t>(m_port.port_attr.active_mtu);
  // Responder resources this side offers: as many reads as the device accepts as target.
  m_local.out_reads = outstanding_reads(default_out_reads, da.max_qp_rd_atom, 0);
  if (m_gid_index >= 0) {
    for (const auto& g : m_port.gids)
      if (g.index == m_gid_index) {
        m_local.gid = g.gid;
        m_local.gid_kind = g.type;
      }
    m_local.has_gid = true;
  }
}

std::uint32_t endpoint::max_inline() const {
  return m_source->host_accessible() ? std::min(m_want_inline, m_max_inline) : 0;
}

void endpoint::create_qp(std::uint32_t want_inline, bool pow2, std::uint32_t max_wr) {
  const std::string call = m_cm ? "rdma_create_qp (RC)" : "ibv_create_qp (RC)";
  for (;;) {
    ibv_qp_init_attr init{};
    init.send_cq = m_send_cq.get();
    init.recv_cq = m_recv_cq.get();
    init.qp_type = IBV_QPT_RC;
    init.sq_sig_all = 0;  // selective signalling
    init.cap.max_send_wr = queue_entries(m_send_wrs, max_wr, pow2);
    init.cap.max_recv_wr = queue_entries(m_rx_depth, max_wr, pow2);
    init.cap.max_send_sge = 1;
    init.cap.max_recv_sge = 1;
    init.cap.max_inline_data = want_inline;
    ibv_qp* qp = m_cm ? m_cm->create_qp(m_pd.get(), init) : ibv_create_qp(m_pd.get(), &init);
    if (qp) {
      m_qp = std::unique_ptr<ibv_qp, qp_release>(qp, qp_release{m_cm.get()});
      m_max_inline = init.cap.max_inline_data;  // what the provider granted
      return;
    }
    const int err = errno;
    // Providers refuse an inline size they cannot hold (EINVAL): fall back to none, and say
    // so in the context (posts then copy every payload by DMA, small messages included).
    if (want_inline == 0 || err != EINVAL) throw_verbs(call, m_port.device_name, err);
    m_inline_fallback = call + " refused max_inline_data " + std::to_string(want_inline) +
                        " (EINVAL): created without inline, so no post is inline";
    want_inline = 0;
    m_want_inline = 0;
  }
}

void endpoint::check_peer(const endpoint_info& peer) const {
  // A peer whose device holds less than this side's buffers limits the case (largest_message());
  // the decoder already refused an empty buffer.
  if (peer.length == 0) throw std::runtime_error("the peer offered an empty buffer");
}

void endpoint::connect(const endpoint_info& peer) {
  if (m_cm) throw std::logic_error("endpoint::connect on a QP that rdma_cm connects");
  const std::string& dev = m_port.device_name;
  if (peer.link != m_local.link)
    throw std::runtime_error("the peer's port is " + to_string(peer.link) + ", " + dev + "'s is " +
                             to_string(m_local.link) + ": they cannot connect");
  if (const auto why = gid_mismatch(m_local, peer); !why.empty())
    throw std::runtime_error(dev + ": " + why);
  check_peer(peer);
  m_peer = peer;
  m_path_mtu = negotiate_mtu(m_local.mtu, peer.mtu);
  // Reads this side issues: its device's initiator limit, then what the peer accepts.
  m_init_reads =
      outstanding_reads(default_out_reads, m_port.device_attr.max_qp_init_rd_atom, peer.out_reads);

  ibv_qp_attr a{};
  a.qp_state = IBV_QPS_RTR;
  a.path_mtu = static_cast<ibv_mtu>(m_path_mtu);
  a.dest_qp_num = peer.qpn;
  a.rq_psn = peer.psn;
  a.max_dest_rd_atomic = m_local.out_reads;
  a.min_rnr_timer = default_min_rnr_timer;
  a.ah_attr.dlid = peer.lid;
  a.ah_attr.sl = m_config.sl;  // --rdma-sl (perftest -S)
  a.ah_attr.src_path_bits = 0;
  a.ah_attr.port_num = static_cast<std::uint8_t>(m_config.port);
  if (peer.has_gid) {
    a.ah_attr.is_global = 1;
    std::copy(peer.gid.begin(), peer.gid.end(), a.ah_attr.grh.dgid.raw);
    a.ah_attr.grh.sgid_index = static_cast<std::uint8_t>(m_gid_index);
    a.ah_attr.grh.hop_limit = 0xff;
    a.ah_attr.grh.traffic_class = m_config.tclass;  // --rdma-tclass (perftest -T)
  }
  if (int rc = ibv_modify_qp(m_qp.get(), &a,
                             IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                                 IBV_QP_RQ_PSN | IBV_QP_MIN_RNR_TIMER | IBV_QP_MAX_DEST_RD_ATOMIC);
      rc != 0)
    throw_verbs("ibv_modify_qp INIT->RTR (peer QPN " + std::to_string(peer.qpn) + ")", dev, rc);

  ibv_qp_attr s{};
  s.qp_state = IBV_QPS_RTS;
  s.sq_psn = m_local.psn;
  s.timeout = 14;  // 4.096 us * 2^14, about 67 ms per retry
  s.retry_cnt = 7;
  s.rnr_retry = 7;  // retry forever on RNR; every wait of ours is bounded instead
  s.max_rd_atomic = m_init_reads;
  if (int rc = ibv_modify_qp(m_qp.get(), &s,
                             IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                                 IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
      rc != 0)
    throw_verbs("ibv_modify_qp RTR->RTS", dev, rc);
}

void endpoint::post(rdma_op op, std::uint64_t size, std::uint64_t wr_id, bool signaled,
                    std::uint64_t offset) {
  ibv_sge sge{};
  sge.length = static_cast<std::uint32_t>(size);
  sge.lkey = m_source_mr->lkey;
  ibv_send_wr wr{};
  wr.wr_id = wr_id;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.send_flags = signaled ? IBV_SEND_SIGNALED : 0;
  switch (op) {
    case rdma_op::send:
      wr.opcode = IBV_WR_SEND;
      sge.addr = reinterpret_cast<std::uint64_t>(source() + offset);
      break;
    case rdma_op::write:
      wr.opcode = IBV_WR_RDMA_WRITE;
      sge.addr = reinterpret_cast<std::uint64_t>(source() + offset);
      wr.wr.rdma.remote_addr = m_peer.addr + offset;
      wr.wr.rdma.rkey = m_peer.rkey;
      break;
    case rdma_op::read:
      wr.opcode = IBV_WR_RDMA_READ;
      sge.addr = reinterpret_cast<std::uint64_t>(target() + offset);  // the response lands here
      sge.lkey = m_target_mr->lkey;
      wr.wr.rdma.remote_addr = m_peer.addr + offset;
      wr.wr.rdma.rkey = m_peer.rkey;
      break;
  }
  // Inline copies the payload at post time: small messages skip the DMA read of it. Only
  // from host memory (the CPU would copy a device pointer) and only up to what was asked.
  if (use_inline(op, size, m_want_inline, m_max_inline, m_source->host_accessible()))
    wr.send_flags |= IBV_SEND_INLINE;
  ibv_send_wr* bad = nullptr;
  if (int rc = ibv_post_send(m_qp.get(), &wr, &bad); rc != 0)
    throw_verbs("ibv_post_send (" + to_string(op) + ", " + std::to_string(size) + " B)",
                m_port.device_name, rc);
}

void endpoint::post_sync(std::uint32_t tag, std::uint64_t wr_id) {
  ibv_send_wr wr{};
  wr.wr_id = wr_id;
  wr.sg_list = nullptr;
  wr.num_sge = 0;  // zero bytes: only the immediate value travels
  wr.opcode = IBV_WR_SEND_WITH_IMM;
  wr.imm_data = htonl(tag);
  wr.send_flags = IBV_SEND_SIGNALED;
  ibv_send_wr* bad = nullptr;
  if (int rc = ibv_post_send(m_qp.get(), &wr, &bad); rc != 0)
    throw_verbs("ibv_post_send (sync message)", m_port.device_name, rc);
}

void endpoint::post_recv(std::uint64_t wr_id) {
  ibv_sge sge{};
  sge.addr = reinterpret_cast<std::uint64_t>(target());
  sge.length = static_cast<std::uint32_t>(m_config.max_size);
  sge.lkey = m_target_mr->lkey;
  ibv_recv_wr wr{};
  wr.wr_id = wr_id;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  ibv_recv_wr* bad = nullptr;
  if (int rc = ibv_post_recv(m_qp.get(), &wr, &bad); rc != 0)
    throw_verbs("ibv_post_recv", m_port.device_name, rc);
}

void endpoint::post_recvs(std::span<const std::uint64_t> wr_ids) {
  if (wr_ids.empty()) return;
  ibv_sge sge{};
  sge.addr = reinterpret_cast<std::uint64_t>(target());
  sge.length = static_cast<std::uint32_t>(m_config.max_size);
  sge.lkey = m_target_mr->lkey;
  std::uint64_t refused = 0;
  ibv_qp* qp = m_qp.get();
  const int rc = post_receive_chains(
      wr_ids, sge,
      [qp](ibv_recv_wr* head, ibv_recv_wr*& bad) { return ibv_post_recv(qp, head, &bad); },
      refused);
  if (rc != 0)
    throw_verbs("ibv_post_recv (" + std::to_string(wr_ids.size()) + " receives in chains of " +
                    std::to_string(recv_chain_max) + ", work request " + std::to_string(refused) +
                    " refused)",
                m_port.device_name, rc);
}

bool endpoint::idle(std::chrono::milliseconds slice, int extra_fd) {
  if (!m_channel) return false;
  const std::string& dev = m_port.device_name;
  if (!m_armed) {
    for (ibv_cq* cq : {m_send_cq.get(), m_recv_cq.get()})
      if (int rc = ibv_req_notify_cq(cq, 0); rc != 0) throw_verbs("ibv_req_notify_cq", dev, rc);
    m_armed = true;
    return false;  // poll once more: a completion before the arming raised no event
  }
  pollfd fds[2] = {{m_channel->fd, POLLIN, 0}, {extra_fd, POLLIN, 0}};
  const int n = ::poll(fds, extra_fd >= 0 ? 2 : 1, static_cast<int>(slice.count()));
  if (n < 0 && errno != EINTR) throw_verbs("poll on the completion channel", dev, errno);
  if (n > 0 && (fds[0].revents & POLLIN) != 0) {
    ibv_cq* cq = nullptr;
    void* cq_context = nullptr;
    // The channel is non-blocking: take every pending event, acknowledging each (a CQ with
    // unacknowledged events cannot be destroyed).
    while (ibv_get_cq_event(m_channel.get(), &cq, &cq_context) == 0) {
      ibv_ack_cq_events(cq, 1);
      m_armed = false;
    }
  }
  return true;
}

int endpoint::poll(ibv_cq* cq, std::span<ibv_wc> out, const char* which) {
  const int n = ibv_poll_cq(cq, static_cast<int>(out.size()), out.data());
  if (n < 0)
    throw std::runtime_error("ibv_poll_cq (" + std::string(which) + ") on " + m_port.device_name +
                             " failed: the completion queue is in error");
  for (int i = 0; i < n; ++i) {
    const ibv_wc& wc = out[static_cast<std::size_t>(i)];
    // On error only wr_id, status, qp_num and vendor_err are valid.
    if (wc.status != IBV_WC_SUCCESS)
      throw std::runtime_error(std::string(which) + " completion failed on " + m_port.device_name +
                               ": " + ibv_wc_status_str(wc.status) + " (status " +
                               std::to_string(wc.status) + ", vendor error 0x" +
                               [&] {
                                 char b[16];
                                 std::snprintf(b, sizeof b, "%x", wc.vendor_err);
                                 return std::string(b);
                               }() +
                               ", work request " + std::to_string(wc.wr_id) + ")");
  }
  return n;
}

}  // namespace gpubench::transports::rdma
