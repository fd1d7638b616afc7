#include "transports/rdma/cm_protocol.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string_view>

#include "core/errors.hpp"
#include "transports/rdma/params.hpp"
#include "transports/rdma/wire.hpp"

namespace gpubench::transports::rdma {

namespace {

constexpr std::uint32_t cm_magic = 0x4742434d;  // "GBCM"
constexpr std::uint8_t cm_version = 1;

// Events whose status is a negative errno (kernel rdma_cm), not a reject reason.
bool status_is_errno(cm_event e) {
  return e == cm_event::addr_error || e == cm_event::route_error || e == cm_event::connect_error ||
         e == cm_event::unreachable || e == cm_event::multicast_error;
}

std::string status_text(cm_event got, int status) {
  std::string s = "status " + std::to_string(status);
  if (got == cm_event::rejected) return s + ": " + reject_reason(status);
  if (status_is_errno(got) && status < 0) return s + ": " + std::strerror(-status);
  return s;
}

// What the user can do about the common failures.
std::string hint(cm_event got, int status) {
  switch (got) {
    case cm_event::addr_error:
      return "; no RDMA device has an IP address that reaches the peer (rdma_cm needs an IP "
             "on the RDMA interface: IPoIB or the RoCE netdev)";
    case cm_event::route_error:
      return "; no path to the peer (on InfiniBand: is a subnet manager running?)";
    case cm_event::rejected:
      return status == 8 ? "; is the server still listening?" : "";
    case cm_event::unreachable:
    case cm_event::connect_error:
      return "; the peer's CM did not answer";
    default:
      return "";
  }
}

}  // namespace

bool parse_rdma_cm(const std::string& text) {
  if (text == "on") return true;
  if (text == "off" || text.empty()) return false;
  throw core::usage_error("--rdma-cm: '" + text + "' is not on or off");
}

std::vector<std::byte> encode_cm_port(std::uint16_t port) {
  wire_writer w;
  w.u32(cm_magic);
  w.u8(cm_version);
  w.u16(port);
  return w.take();
}

std::uint16_t decode_cm_port(std::span<const std::byte> in) {
  wire_reader r(in, "rdma_cm port message");
  if (in.size() > 64) r.fail(std::to_string(in.size()) + " bytes, more than any port message");
  if (r.u32() != cm_magic) r.fail("not a gpubench rdma_cm message (bad magic)");
  if (const auto v = r.u8(); v != cm_version)
    r.fail("protocol version " + std::to_string(v) + ", this gpubench speaks " +
           std::to_string(cm_version) + ": run the same gpubench version on both hosts");
  const auto port = r.u16();
  r.finish();
  if (port == 0) r.fail("port 0");
  return port;
}

std::string to_string(cm_event e) {
  static constexpr const char* names[] = {
      "ADDR_RESOLVED",   "ADDR_ERROR",       "ROUTE_RESOLVED", "ROUTE_ERROR",
      "CONNECT_REQUEST", "CONNECT_RESPONSE", "CONNECT_ERROR",  "UNREACHABLE",
      "REJECTED",        "ESTABLISHED",      "DISCONNECTED",   "DEVICE_REMOVAL",
      "MULTICAST_JOIN",  "MULTICAST_ERROR",  "ADDR_CHANGE",    "TIMEWAIT_EXIT"};
  const auto i = static_cast<int>(e);
  if (i < 0 || i >= static_cast<int>(std::size(names)))
    return "unknown rdma_cm event " + std::to_string(i);
  return std::string("RDMA_CM_EVENT_") + names[i];
}

std::string reject_reason(int status) {
  // The IB CM reject reasons (IBTA 12.6.7.2) the kernel passes through; iWARP and RoCE
  // without the IB CM report a negative errno instead.
  switch (status) {
    case 1:
      return "no QP available at the peer";
    case 3:
      return "no resources at the peer";
    case 4:
      return "timeout";
    case 5:
      return "unsupported request";
    case 6:
      return "invalid communication ID";
    case 8:
      return "invalid service ID: nobody listens on the port";
    case 9:
      return "invalid transport type";
    case 10:
      return "stale connection";
    case 12:
      return "invalid GID";
    case 13:
      return "invalid LID";
    case 28:
      return "rejected by the peer's application";
    case 29:
      return "invalid RNR retry count";
    default:
      if (status < 0) return std::strerror(-status);
      return "reason code " + std::to_string(status);
  }
}

std::string cm_event_error(cm_event expected, cm_event got, int status, const std::string& peer,
                           const std::string& doing) {
  return "rdma_cm: " + to_string(got) + " (" + status_text(got, status) + ") from " + peer +
         " while " + doing + ", expected " + to_string(expected) + hint(got, status);
}

std::string cm_timeout_error(cm_event expected, const std::string& peer, const std::string& doing,
                             std::chrono::milliseconds timeout) {
  return "rdma_cm: no " + to_string(expected) + " from " + peer + " within " +
         std::to_string(timeout.count()) + " ms while " + doing;
}

cm_depths request_depths(std::uint32_t requested, int device_max_rd_atom,
                         int device_max_init_rd_atom) {
  // The same clamping as the control channel path's (no peer limit yet: 0).
  return {outstanding_reads(requested, device_max_rd_atom, 0),
          outstanding_reads(requested, device_max_init_rd_atom, 0)};
}

cm_depths accept_depths(const cm_depths& own, const cm_depths& request) {
  return {std::min(own.responder_resources, request.responder_resources),
          std::min(own.initiator_depth, request.initiator_depth)};
}

std::string cm_address(const std::string& numeric) {
  constexpr std::string_view mapped = "::ffff:";
  if (numeric.size() > mapped.size() && numeric.compare(0, mapped.size(), mapped) == 0 &&
      numeric.find('.') != std::string::npos &&
      numeric.find(':', mapped.size()) == std::string::npos)
    return numeric.substr(mapped.size());
  return numeric;
}

std::optional<std::string> cm_source_address(const std::string& control_local,
                                             const std::string& target, bool loopback) {
  if (loopback || control_local.empty()) return std::nullopt;
  const std::string local = cm_address(control_local);
  const auto v6 = [](const std::string& a) { return a.find(':') != std::string::npos; };
  if (v6(local) != v6(cm_address(target))) return std::nullopt;
  return local;
}

}  // namespace gpubench::transports::rdma
