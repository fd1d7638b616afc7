// The parts of the rdma_cm path that need no librdmacm: choosing it and finishing the
// connection once the connector has a queue pair.
#include <stdexcept>

#include "core/errors.hpp"
#include "transports/control/channel.hpp"
#include "transports/rdma/cm_connector.hpp"

namespace gpubench::transports::rdma {

std::unique_ptr<qp_connector> connector_for(const rdma_settings& s, const endpoint_setup& setup,
                                            cm_role role) {
  if (!s.rdma_cm) return nullptr;
  return make_cm_connector(role, setup);
}

void connect_via_cm(endpoint& ep, const endpoint_setup& setup) {
  qp_connector* cm = ep.connector();
  if (!cm || !setup.oob) throw std::logic_error("connect_via_cm without rdma_cm or a channel");
  // Receives first: the peer may send as soon as the connection is established.
  for (std::uint32_t i = 0; i < ep.rx_depth(); ++i)
    ep.post_recv(i);
  try {
    cm->establish();
  } catch (const core::interrupted&) {
    throw;
  } catch (const std::exception& e) {
    // A side that fails while building its endpoint tears its id down, which the other side
    // only sees as REJECTED; the reason travels on the control channel, so look there.
    try {
      setup.oob->receive_blob(std::chrono::milliseconds(500));
    } catch (const control::peer_error& peer) {
      throw std::runtime_error(std::string(e.what()) + "; " + peer.what());
    } catch (const std::exception&) {
      // Nothing more from the peer: the event says it all.
    }
    throw;
  }
  // rkey, address and length still travel over the control channel; the QPN, PSN and GID in
  // the same message are rdma_cm's business now and unused (a RoCE side sends no GID: it only
  // learns its GID index from the connected QP, in attach_peer).
  setup.oob->send_blob(encode(ep.local_info()));
  ep.attach_peer(
      decode_endpoint_info(setup.oob->receive_blob(setup.io_timeout), peer_addressing::rdma_cm));
}

}  // namespace gpubench::transports::rdma
