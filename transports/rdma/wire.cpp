#include "transports/rdma/wire.hpp"

namespace gpubench::transports::rdma {

void wire_writer::bytes(std::span<const std::uint8_t> b) {
  for (auto v : b)
    u8(v);
}

void wire_writer::put(std::uint64_t v, int n) {
  for (int i = n - 1; i >= 0; --i)
    m_bytes.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xff));
}

void wire_reader::need(std::size_t n) const {
  if (m_in.size() - m_pos < n)
    fail("truncated: " + std::to_string(m_in.size()) + " bytes, needs more than " +
         std::to_string(m_pos));
}

std::uint64_t wire_reader::get(int n) {
  need(static_cast<std::size_t>(n));
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i)
    v = (v << 8) | static_cast<std::uint64_t>(m_in[m_pos++]);
  return v;
}

void wire_reader::finish() const {
  if (m_pos != m_in.size())
    fail(std::to_string(m_in.size() - m_pos) + " unexpected trailing bytes");
}

void wire_reader::fail(const std::string& why) const {
  throw wire_error(m_what + ": " + why);
}

}  // namespace gpubench::transports::rdma
