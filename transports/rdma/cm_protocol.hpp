// The choices of the rdma_cm connection path that need no device: the --rdma-cm option, the
// listening port message, connection depths, addresses and the text of failed events.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpubench::transports::rdma {

// "on" | "off" for --rdma-cm; anything else is a core::usage_error naming the option.
bool parse_rdma_cm(const std::string& text);

// The passive side's message: the port its rdma_cm id listens on (wildcard address,
// ephemeral port). Decoding refuses (wire_error) a wrong magic, version, length or port 0.
std::vector<std::byte> encode_cm_port(std::uint16_t port);
std::uint16_t decode_cm_port(std::span<const std::byte> in);

// Mirrors enum rdma_cm_event_type value for value (checked by static_assert where librdmacm
// is included), so the texts below are tested without the library.
enum class cm_event : int {
  addr_resolved = 0,
  addr_error,
  route_resolved,
  route_error,
  connect_request,
  connect_response,
  connect_error,
  unreachable,
  rejected,
  established,
  disconnected,
  device_removal,
  multicast_join,
  multicast_error,
  addr_change,
  timewait_exit,
};
std::string to_string(cm_event e);  // "RDMA_CM_EVENT_REJECTED", as rdma_event_str names it

// The IB CM reason of a REJECTED event ("invalid service ID: nobody listens on the port").
std::string reject_reason(int status);

// Why waiting for `expected` failed when `got` arrived with `status`, naming the event, its
// status and the peer: "rdma_cm: RDMA_CM_EVENT_REJECTED (status 8: invalid service ID ...)
// from 198.18.0.2:41000 while connecting, expected RDMA_CM_EVENT_ESTABLISHED".
std::string cm_event_error(cm_event expected, cm_event got, int status, const std::string& peer,
                           const std::string& doing);
std::string cm_timeout_error(cm_event expected, const std::string& peer, const std::string& doing,
                             std::chrono::milliseconds timeout);

// RDMA reads a side takes part in, as rdma_conn_param carries them: responder_resources are
// the peer's reads this side serves at once, initiator_depth the reads it issues at once.
struct cm_depths {
  std::uint8_t responder_resources = 1;
  std::uint8_t initiator_depth = 1;
};
// What the active side asks for: the requested depth clamped to the device's max_qp_rd_atom
// and max_qp_init_rd_atom (and to the 8-bit field).
cm_depths request_depths(std::uint32_t requested, int device_max_rd_atom,
                         int device_max_init_rd_atom);
// What the passive side accepts: its own request_depths clamped to what the CONNECT_REQUEST
// event reports, which rdma_cm already states from the recipient's view (its
// responder_resources are the reads the client will issue, its initiator_depth the reads the
// client will serve): serve no more reads than the client issues, issue no more than it
// serves.
cm_depths accept_depths(const cm_depths& own, const cm_depths& request);

// The address to resolve: an IPv4-mapped IPv6 address ("::ffff:198.18.0.2") becomes the plain
// IPv4 address, so rdma_cm resolves it over IPv4 like the control connection did.
std::string cm_address(const std::string& numeric);

// The source address the active side binds rdma_resolve_addr to: the control connection's local
// address (`control_local`, as the socket reports it), so that on a host with several RDMA
// NICs in one subnet rdma_cm leaves through the interface the control connection used, not
// whichever its routing picks. Nothing (rdma_cm chooses) in loopback, where the control
// connection runs over 127.0.0.1 and `target` is the device's own address; when the local
// address is unknown; or when its family differs from the target's.
std::optional<std::string> cm_source_address(const std::string& control_local,
                                             const std::string& target, bool loopback);

}  // namespace gpubench::transports::rdma
