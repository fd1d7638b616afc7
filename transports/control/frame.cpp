#include "transports/control/frame.hpp"

#include <cstring>

namespace gpubench::transports::control {

namespace {

void put_u16(std::byte* p, std::uint16_t v) {
  p[0] = static_cast<std::byte>(v >> 8);
  p[1] = static_cast<std::byte>(v & 0xff);
}

void put_u32(std::byte* p, std::uint32_t v) {
  put_u16(p, static_cast<std::uint16_t>(v >> 16));
  put_u16(p + 2, static_cast<std::uint16_t>(v & 0xffff));
}

std::uint16_t get_u16(const std::byte* p) {
  return static_cast<std::uint16_t>((std::to_integer<unsigned>(p[0]) << 8) |
                                    std::to_integer<unsigned>(p[1]));
}

std::uint32_t get_u32(const std::byte* p) {
  return (static_cast<std::uint32_t>(get_u16(p)) << 16) | get_u16(p + 2);
}

}  // namespace

std::string to_string(message m) {
  switch (m) {
    case message::hello:
      return "hello";
    case message::challenge:
      return "challenge";
    case message::auth:
      return "auth";
    case message::welcome:
      return "welcome";
    case message::busy:
      return "busy";
    case message::error:
      return "error";
    case message::case_open:
      return "case_open";
    case message::case_ready:
      return "case_ready";
    case message::blob:
      return "blob";
    case message::point_begin:
      return "point_begin";
    case message::point_ready:
      return "point_ready";
    case message::point_end:
      return "point_end";
    case message::point_done:
      return "point_done";
    case message::case_close:
      return "case_close";
    case message::bye:
      return "bye";
  }
  return "message " + std::to_string(static_cast<unsigned>(m));
}

std::array<std::byte, frame_header_bytes> encode_header(const frame_header& h) {
  std::array<std::byte, frame_header_bytes> out{};
  put_u32(out.data(), h.magic);
  put_u16(out.data() + 4, h.version);
  put_u16(out.data() + 6, h.type);
  put_u32(out.data() + 8, h.length);
  return out;
}

frame_header decode_header(std::span<const std::byte, frame_header_bytes> bytes) {
  frame_header h;
  h.magic = get_u32(bytes.data());
  h.version = get_u16(bytes.data() + 4);
  h.type = get_u16(bytes.data() + 6);
  h.length = get_u32(bytes.data() + 8);
  return h;
}

void check_header(const frame_header& h, std::uint32_t max_payload) {
  if (h.magic != frame_magic)
    throw protocol_error("not a gpubench control frame (garbage on the control connection)");
  if (h.length > max_payload)
    throw protocol_error("frame of " + std::to_string(h.length) + " bytes is over the limit of " +
                         std::to_string(max_payload) + " bytes");
  if (h.version == protocol_version && (h.type == 0 || h.type > last_message))
    throw protocol_error("unknown message type " + std::to_string(h.type));
}

std::vector<std::byte> encode_frame(message type, std::span<const std::byte> payload,
                                    std::uint16_t version) {
  if (payload.size() > max_frame_payload)
    throw protocol_error("refusing to send a frame of " + std::to_string(payload.size()) +
                         " bytes (limit " + std::to_string(max_frame_payload) + ")");
  const auto header = encode_header({frame_magic, version, static_cast<std::uint16_t>(type),
                                     static_cast<std::uint32_t>(payload.size())});
  std::vector<std::byte> out(frame_header_bytes + payload.size());
  std::memcpy(out.data(), header.data(), frame_header_bytes);
  if (!payload.empty())
    std::memcpy(out.data() + frame_header_bytes, payload.data(), payload.size());
  return out;
}

std::span<const std::byte> as_bytes(const std::string& s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

std::string as_string(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace gpubench::transports::control
