// The control channel's wire format: length-prefixed, versioned frames, encoded and checked
// by pure functions so they can be tested without sockets.
//
// A frame is a 12-byte header, big-endian: magic "GBCC" (4), protocol version (2), message
// type (2), payload length (4); then the payload (JSON text, except `blob`, which is raw
// bytes owned by a transport). The version travels in every frame, so a peer of another
// version is recognised on its first frame and told so in an `error` frame, whose payload
// ({"message": "..."}) every version keeps.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpubench::transports::control {

inline constexpr std::uint32_t frame_magic = 0x47424343;  // "GBCC"
inline constexpr std::uint16_t protocol_version = 1;
inline constexpr std::size_t frame_header_bytes = 12;
// Larger frames are refused before their payload is read: nothing here needs more (RDMA's
// queue-pair data is well under a kilobyte).
inline constexpr std::uint32_t max_frame_payload = 1u << 20;

enum class message : std::uint16_t {
  hello = 1,    // client: {protocol, tool, nonce}
  challenge,    // server: {protocol, tool, auth: bool, nonce}
  auth,         // client: {mac} (HMAC-SHA256 of both nonces under the token)
  welcome,      // server: {mac} (the server's proof), the session is open
  busy,         // server: {message}, another session is running
  error,        // either: {message}; the sender closes after it
  case_open,    // client: {transport, params}
  case_ready,   // server: {context}, the passive endpoint is built
  blob,         // either: raw bytes of a transport's out-of-band exchange
  point_begin,  // client: point_spec
  point_ready,  // server: {}, the passive side is prepared
  point_end,    // client: {}, the runner's stopping rule ended the point
  point_done,   // server: point_totals of the passive side
  case_close,   // client: {}, the case is over; another case_open or bye may follow
  bye,          // client: {}, the session is over
};
inline constexpr std::uint16_t last_message = static_cast<std::uint16_t>(message::bye);

std::string to_string(message m);

// A malformed or unexpected frame; the connection cannot go on.
struct protocol_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct frame_header {
  std::uint32_t magic = frame_magic;
  std::uint16_t version = protocol_version;
  std::uint16_t type = 0;
  std::uint32_t length = 0;
};

std::array<std::byte, frame_header_bytes> encode_header(const frame_header& h);
frame_header decode_header(std::span<const std::byte, frame_header_bytes> bytes);

// Throws protocol_error when the header is not one this side can read: wrong magic
// ("garbage"), a payload over `max_payload`, or an unknown type (of our own version).
// A different version is not an error here: the caller answers it in words.
void check_header(const frame_header& h, std::uint32_t max_payload = max_frame_payload);

struct frame {
  message type = message::error;
  std::uint16_t version = protocol_version;
  std::vector<std::byte> payload;
};

// The whole frame, header and payload, ready to write.
std::vector<std::byte> encode_frame(message type, std::span<const std::byte> payload,
                                    std::uint16_t version = protocol_version);

std::span<const std::byte> as_bytes(const std::string& s);
std::string as_string(std::span<const std::byte> bytes);

}  // namespace gpubench::transports::control
