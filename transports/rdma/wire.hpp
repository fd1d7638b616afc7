// Fixed big-endian byte encoding for RDMA out-of-band messages, with bounds-checked reads.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpubench::transports::rdma {

// A message that cannot be decoded: truncated, oversized, wrong magic or version, or a
// field out of its range. Thrown before any value of the message is used.
struct wire_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class wire_writer {
 public:
  void u8(std::uint8_t v) { m_bytes.push_back(static_cast<std::byte>(v)); }
  void u16(std::uint16_t v) { put(v, 2); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void bytes(std::span<const std::uint8_t> b);
  std::vector<std::byte> take() { return std::move(m_bytes); }

 private:
  void put(std::uint64_t v, int n);
  std::vector<std::byte> m_bytes;
};

class wire_reader {
 public:
  // `what` names the message in errors ("RDMA endpoint message").
  wire_reader(std::span<const std::byte> in, std::string what)
      : m_in(in), m_what(std::move(what)) {}
  std::uint8_t u8() { return static_cast<std::uint8_t>(get(1)); }
  std::uint16_t u16() { return static_cast<std::uint16_t>(get(2)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(get(4)); }
  std::uint64_t u64() { return get(8); }
  template <std::size_t N>
  std::array<std::uint8_t, N> bytes() {
    std::array<std::uint8_t, N> out{};
    need(N);
    for (auto& b : out)
      b = static_cast<std::uint8_t>(m_in[m_pos++]);
    return out;
  }
  // Throws unless every byte was consumed: trailing bytes mean a different layout.
  void finish() const;
  [[noreturn]] void fail(const std::string& why) const;

 private:
  std::uint64_t get(int n);
  void need(std::size_t n) const;
  std::span<const std::byte> m_in;
  std::size_t m_pos = 0;
  std::string m_what;
};

}  // namespace gpubench::transports::rdma
