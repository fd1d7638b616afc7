// The rdma_cm connection path (--rdma-cm on): the queue pair is created on an rdma_cm id and
// connected by rdma_cm instead of by the control channel exchange of QPN, PSN and LID/GID.
//
// Passive side: event channel + id, rdma_bind_addr on the wildcard address with an ephemeral
// port, rdma_listen, the port to the client as an oob blob, then CONNECT_REQUEST: the
// endpoint is built on the new id's device, its QP created there, receives pre-posted,
// rdma_accept, ESTABLISHED. Active side: the port from the server, rdma_resolve_addr and
// rdma_resolve_route towards the control connection's peer address, the endpoint on the id's
// device, rdma_connect, ESTABLISHED. Then both swap endpoint_info (rkey, buffer address and
// length) over the control channel as the default path does, and the session's barrier
// follows. Every event wait is bounded by the I/O timeout.
#pragma once

#include <memory>

#include "transports/rdma/endpoint.hpp"
#include "transports/rdma/rdma_settings.hpp"
#include "transports/transport.hpp"

namespace gpubench::transports::rdma {

enum class cm_role { active, passive };

// The rdma_cm handshake up to the point where a queue pair is needed (see above). Throws
// core::skip_case on builds without librdmacm and when the rdma_cm device cannot be opened.
std::unique_ptr<qp_connector> make_cm_connector(cm_role role, const endpoint_setup& setup);

// make_cm_connector when the case asks for rdma_cm, else nothing (the control channel path).
std::unique_ptr<qp_connector> connector_for(const rdma_settings& s, const endpoint_setup& setup,
                                            cm_role role);

// For an endpoint built on a connector: pre-posts its receives, lets rdma_cm connect or
// accept, then swaps endpoint_info over the control channel.
void connect_via_cm(endpoint& ep, const endpoint_setup& setup);

}  // namespace gpubench::transports::rdma
