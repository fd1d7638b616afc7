#include "transports/tcp/tally.hpp"

#include <stdexcept>

#include "transports/net/socket.hpp"

namespace gpubench::transports::tcp {

std::vector<std::byte> encode_words(std::span<const std::uint64_t> words) {
  std::vector<std::byte> out;
  out.reserve(words.size() * 8);
  for (const std::uint64_t w : words)
    for (int shift = 56; shift >= 0; shift -= 8)
      out.push_back(static_cast<std::byte>((w >> shift) & 0xff));
  return out;
}

std::vector<std::uint64_t> decode_words(std::span<const std::byte> bytes) {
  if (bytes.size() % 8 != 0)
    throw std::invalid_argument("tally message of " + std::to_string(bytes.size()) +
                                " bytes: not a whole number of 8-byte words");
  std::vector<std::uint64_t> out(bytes.size() / 8);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    out[i / 8] = (out[i / 8] << 8) | static_cast<std::uint64_t>(bytes[i]);
  return out;
}

std::uint64_t steady_nanoseconds() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

tally_mark local_mark(std::span<const stream_counters> counters) {
  tally_mark m;
  m.nanoseconds = steady_nanoseconds();
  m.received.reserve(counters.size());
  for (const auto& c : counters)
    m.received.push_back(c.received.load(std::memory_order_relaxed));
  return m;
}

window_delta delta(const tally_mark& from, const tally_mark& to) {
  if (from.received.size() != to.received.size())
    throw std::runtime_error("tally marks of " + std::to_string(from.received.size()) + " and " +
                             std::to_string(to.received.size()) + " streams");
  if (to.nanoseconds <= from.nanoseconds)
    throw std::runtime_error("tally marks whose clock did not move forward");
  window_delta d;
  d.seconds = static_cast<double>(to.nanoseconds - from.nanoseconds) / 1e9;
  d.bytes.reserve(to.received.size());
  for (std::size_t i = 0; i < to.received.size(); ++i) {
    if (to.received[i] < from.received[i])
      throw std::runtime_error("tally marks whose byte count of stream " + std::to_string(i) +
                               " went back");
    d.bytes.push_back(to.received[i] - from.received[i]);
  }
  return d;
}

namespace {

void send_code(int fd, tally_request r, std::chrono::milliseconds timeout,
               const std::string& what) {
  const std::byte code{static_cast<std::uint8_t>(r)};
  net::send_all(fd, std::span(&code, 1), timeout, what);
}

}  // namespace

std::vector<std::uint64_t> read_words(int fd, std::size_t count, std::chrono::milliseconds timeout,
                                      const std::string& what) {
  std::vector<std::byte> bytes(count * 8);
  net::recv_all(fd, bytes, timeout, what);
  return decode_words(bytes);
}

void send_words(int fd, std::span<const std::uint64_t> words, std::chrono::milliseconds timeout,
                const std::string& what) {
  net::send_all(fd, encode_words(words), timeout, what);
}

tally_mark request_mark(int fd, std::size_t streams, std::chrono::milliseconds timeout,
                        const std::string& what) {
  send_code(fd, tally_request::mark, timeout, what);
  auto words = read_words(fd, streams + 1, timeout, what);
  tally_mark m;
  m.nanoseconds = words.front();
  m.received.assign(words.begin() + 1, words.end());
  return m;
}

std::vector<std::uint64_t> request_end(int fd, std::span<const std::uint64_t> sent,
                                       std::chrono::milliseconds timeout, const std::string& what) {
  send_code(fd, tally_request::end, timeout, what);
  send_words(fd, sent, timeout, what);
  return read_words(fd, sent.size(), timeout, what);
}

tally_request read_request(int fd, std::chrono::milliseconds timeout, const std::string& what) {
  std::byte code{};
  net::recv_all(fd, std::span(&code, 1), timeout, what);
  const auto value = static_cast<std::uint8_t>(code);
  if (value == static_cast<std::uint8_t>(tally_request::mark)) return tally_request::mark;
  if (value == static_cast<std::uint8_t>(tally_request::end)) return tally_request::end;
  throw net::socket_error(what + ": unknown tally request " + std::to_string(value));
}

}  // namespace gpubench::transports::tcp
