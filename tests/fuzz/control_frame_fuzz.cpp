// Fuzzes the control channel's frame header decoder (transports/control/frame.*): the first
// 12 bytes of the input are a header, the rest its payload. decode_header + check_header must
// refuse anything malformed with protocol_error only; what they accept must be within the
// limits and re-encode to the same bytes.
#include <algorithm>
#include <cstring>

#include "tests/fuzz/fuzz_support.hpp"
#include "transports/control/frame.hpp"

namespace control = gpubench::transports::control;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using gpubench::fuzz::require;
  const auto in = gpubench::fuzz::bytes_of(data, size);
  if (in.size() < control::frame_header_bytes) return 0;
  const auto head = in.first<control::frame_header_bytes>();
  const control::frame_header h = control::decode_header(head);
  const auto again = control::encode_header(h);
  require(std::equal(again.begin(), again.end(), head.begin()),
          "encode_header(decode_header(bytes)) != bytes");
  // Messages name frames of other versions too: any 16-bit type must have a name.
  require(!control::to_string(static_cast<control::message>(h.type)).empty(), "unnamed type");
  try {
    control::check_header(h);
  } catch (const control::protocol_error&) {
    return 0;
  }
  require(h.magic == control::frame_magic, "check_header accepted a wrong magic");
  require(h.length <= control::max_frame_payload, "check_header accepted an oversized frame");
  require(
      h.version != control::protocol_version || (h.type >= 1 && h.type <= control::last_message),
      "check_header accepted an unknown type");
  // A whole frame in the input: encode_frame must give back exactly these bytes.
  const auto rest = in.subspan(control::frame_header_bytes);
  if (rest.size() < h.length) return 0;
  const auto frame =
      control::encode_frame(static_cast<control::message>(h.type), rest.first(h.length), h.version);
  require(frame.size() == control::frame_header_bytes + h.length &&
              std::memcmp(frame.data(), in.data(), frame.size()) == 0,
          "encode_frame does not reproduce a frame check_header accepted");
  return 0;
}
