// Incremental decoding of control frames from bytes as they arrive (any split, any speed):
// the pure half of reading a frame, so a poll loop can read without blocking and a fuzzer
// can drive the decoder with no socket at all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "transports/control/frame.hpp"

namespace gpubench::transports::control {

class frame_reader {
 public:
  // Frames whose declared payload is over `max_payload` are refused from their header,
  // before any of the payload is buffered.
  explicit frame_reader(std::uint32_t max_payload = max_frame_payload)
      : m_max_payload(max_payload) {}

  // Appends bytes received. Never throws; errors show when next() decodes.
  void feed(std::span<const std::byte> bytes);
  // The next complete frame, or nothing when more bytes are needed. Throws protocol_error
  // (as check_header does) on a bad header; the reader is then unusable.
  std::optional<frame> next();
  // Bytes received but not yet returned as a frame.
  std::size_t buffered() const { return m_buffer.size() - m_start; }

 private:
  std::uint32_t m_max_payload;
  std::vector<std::byte> m_buffer;
  std::size_t m_start = 0;
};

}  // namespace gpubench::transports::control
