// The rdma_cm side of an endpoint: once rdma_cm has connected the queue pair, give it the RNR
// timer of the control channel path and learn what the connection really got.
#include <arpa/inet.h>

#include <cstring>
#include <stdexcept>

#include "transports/rdma/endpoint.hpp"

namespace gpubench::transports::rdma {

namespace {

// rdma_cm connects with the kernel CM's min_rnr_timer 0 (655 ms per RNR NAK, a thousand times
// the control channel path's 0.64 ms) and no rdma_cm option sets it; RTS -> RTS may change it
// (an optional attribute of that transition for RC). A provider that refuses keeps rdma_cm's,
// and the context says so.
std::string set_rnr_timer(ibv_qp* qp) {
  ibv_qp_attr r{};
  r.qp_state = IBV_QPS_RTS;
  r.min_rnr_timer = default_min_rnr_timer;
  if (const int rc = ibv_modify_qp(qp, &r, IBV_QP_STATE | IBV_QP_MIN_RNR_TIMER); rc != 0)
    return "rdma_cm's: ibv_modify_qp RTS->RTS with min_rnr_timer " +
           std::to_string(default_min_rnr_timer) + " was refused: " + std::strerror(rc) +
           " (errno " + std::to_string(rc) + ")";
  return std::to_string(default_min_rnr_timer) +
         " (set once connected, RTS->RTS, as on the control channel path)";
}

}  // namespace

void endpoint::attach_peer(const endpoint_info& peer) {
  if (!m_cm) throw std::logic_error("endpoint::attach_peer without rdma_cm");
  const std::string& dev = m_port.device_name;
  check_peer(peer);
  m_peer = peer;
  m_rnr_timer_why = set_rnr_timer(m_qp.get());
  // rdma_cm moved the QP to RTS with attributes of its own choosing: read back what the
  // connection really got rather than reporting what was asked for.
  ibv_qp_attr a{};
  ibv_qp_init_attr init{};
  if (int rc = ibv_query_qp(m_qp.get(), &a,
                            IBV_QP_STATE | IBV_QP_PATH_MTU | IBV_QP_AV | IBV_QP_ACCESS_FLAGS |
                                IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MAX_DEST_RD_ATOMIC |
                                IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                                IBV_QP_MIN_RNR_TIMER | IBV_QP_PKEY_INDEX,
                            &init);
      rc != 0)
    throw_verbs("ibv_query_qp", dev, rc);
  if (a.qp_state != IBV_QPS_RTS)
    throw std::runtime_error("rdma_cm reported the connection to " + m_cm->peer_name() +
                             " established, but the QP on " + dev + " is in state " +
                             std::to_string(a.qp_state) + ", not RTS");
  if ((a.qp_access_flags & m_qp_access) != m_qp_access)
    throw std::runtime_error("rdma_cm gave the QP on " + dev + " access flags " +
                             std::to_string(a.qp_access_flags) + ", without the remote " +
                             to_string(m_config.op) + " access the test needs");
  if (m_config.op == rdma_op::read && (a.max_rd_atomic == 0 || a.max_dest_rd_atomic == 0))
    throw std::runtime_error("rdma_cm connected " + dev + " to " + m_cm->peer_name() +
                             " with no outstanding RDMA reads (initiator depth " +
                             std::to_string(a.max_rd_atomic) + ", responder resources " +
                             std::to_string(a.max_dest_rd_atomic) + ")");
  m_path_mtu = static_cast<int>(a.path_mtu);
  m_cm_qp = {{"timeout", a.timeout},
             {"retry_count", a.retry_cnt},
             {"rnr_retry", a.rnr_retry},
             {"min_rnr_timer", a.min_rnr_timer}};
  // The P_Key of the partition rdma_cm chose (the IP interface's), for the context.
  m_pkey_index = a.pkey_index;
  __be16 raw = 0;
  if (ibv_query_pkey(m_port.verbs, static_cast<std::uint8_t>(m_port.port), a.pkey_index, &raw) == 0)
    m_pkey = ntohs(raw);
  m_init_reads = a.max_rd_atomic;
  m_local.out_reads = a.max_dest_rd_atomic;
  if (a.ah_attr.is_global) {
    m_cm_qp["traffic_class"] = a.ah_attr.grh.traffic_class;  // --rdma-tclass set it as ToS
    m_gid_index = a.ah_attr.grh.sgid_index;
    for (const auto& g : m_port.gids)
      if (g.index == m_gid_index) {
        m_local.gid = g.gid;
        m_local.gid_kind = g.type;
      }
    m_local.has_gid = true;
  }
}

}  // namespace gpubench::transports::rdma
