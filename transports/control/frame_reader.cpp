#include "transports/control/frame_reader.hpp"

#include <algorithm>

namespace gpubench::transports::control {

void frame_reader::feed(std::span<const std::byte> bytes) {
  if (m_start > 0 && m_start == m_buffer.size()) {
    m_buffer.clear();
    m_start = 0;
  }
  m_buffer.insert(m_buffer.end(), bytes.begin(), bytes.end());
}

std::optional<frame> frame_reader::next() {
  if (buffered() < frame_header_bytes) return std::nullopt;
  const std::span<const std::byte, frame_header_bytes> head(m_buffer.data() + m_start,
                                                            frame_header_bytes);
  const frame_header h = decode_header(head);
  check_header(h, m_max_payload);
  if (buffered() - frame_header_bytes < h.length) return std::nullopt;
  frame f;
  f.version = h.version;
  f.type = static_cast<message>(h.type);
  const auto body = m_buffer.begin() + static_cast<std::ptrdiff_t>(m_start + frame_header_bytes);
  f.payload.assign(body, body + h.length);
  m_start += frame_header_bytes + h.length;
  if (m_start == m_buffer.size()) {
    m_buffer.clear();
    m_start = 0;
  }
  return f;
}

}  // namespace gpubench::transports::control
