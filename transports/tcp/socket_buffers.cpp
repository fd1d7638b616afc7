#include "transports/tcp/socket_buffers.hpp"

#include <charconv>
#include <fstream>
#include <iterator>
#include <string>

namespace gpubench::transports::tcp {

namespace {

std::optional<std::uint64_t> read_max(const char* path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return sysctl_buffer_max(text);
}

}  // namespace

std::optional<std::uint64_t> sysctl_buffer_max(std::string_view text) {
  std::uint64_t values[3] = {};
  const char* p = text.data();
  const char* end = text.data() + text.size();
  for (auto& v : values) {
    while (p < end && (*p == ' ' || *p == '\t'))
      ++p;
    auto [next, ec] = std::from_chars(p, end, v);
    if (ec != std::errc{} || next == p) return std::nullopt;
    p = next;
  }
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
    ++p;
  if (p != end) return std::nullopt;
  return values[2];
}

std::uint64_t socket_buffer_bytes() {
  const auto w = read_max("/proc/sys/net/ipv4/tcp_wmem");
  const auto r = read_max("/proc/sys/net/ipv4/tcp_rmem");
  if (!w || !r) return default_socket_buffer_bytes;
  return *w + *r;
}

}  // namespace gpubench::transports::tcp
