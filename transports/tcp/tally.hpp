// The tally connection of a TCP case, beside its data streams: the client asks the receiver
// side for its byte counters (a mark) and ends a point's streams (an end), so bandwidth samples
// of fixed duration count every stream's bytes where they arrived, as iperf3 -P sums them.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gpubench::transports::tcp {

// The version of the data-path protocol (the setup blob says it; a peer of another is refused):
// 2 added the tally connection and fixed-duration bandwidth samples.
inline constexpr int data_protocol = 2;

// Bytes one stream moved since the point began, written by its worker, read by marks.
struct stream_counters {
  std::atomic<std::uint64_t> sent{0};
  std::atomic<std::uint64_t> received{0};
};

enum class tally_request : std::uint8_t { mark = 1, end = 2 };

// A mark: the receiver's steady clock and each stream's received bytes at one instant.
struct tally_mark {
  std::uint64_t nanoseconds = 0;
  std::vector<std::uint64_t> received;
};

// This side's mark: now and the received bytes of `counters`.
tally_mark local_mark(std::span<const stream_counters> counters);

// What arrived between two marks of the same streams: the window on the receiver's clock and
// the bytes of each stream. Throws std::runtime_error when the streams differ, the clock did not
// move forward, or a counter went back (a peer's marks are bytes from the wire).
struct window_delta {
  double seconds = 0;
  std::vector<std::uint64_t> bytes;
};
window_delta delta(const tally_mark& from, const tally_mark& to);

// Big-endian 64-bit words, the only encoding on the tally connection.
std::vector<std::byte> encode_words(std::span<const std::uint64_t> words);
// Throws std::invalid_argument when `bytes` is not a whole number of words.
std::vector<std::uint64_t> decode_words(std::span<const std::byte> bytes);

// Client side. Every call blocks at most `timeout` without progress and throws with `what`.
tally_mark request_mark(int fd, std::size_t streams, std::chrono::milliseconds timeout,
                        const std::string& what);
// Tells the server what this side sent on each stream; returns what the server sent on each,
// once the server has received all of it.
std::vector<std::uint64_t> request_end(int fd, std::span<const std::uint64_t> sent,
                                       std::chrono::milliseconds timeout, const std::string& what);

// Server side: the next request (throws on an unknown code), then its words.
tally_request read_request(int fd, std::chrono::milliseconds timeout, const std::string& what);
std::vector<std::uint64_t> read_words(int fd, std::size_t count, std::chrono::milliseconds timeout,
                                      const std::string& what);
void send_words(int fd, std::span<const std::uint64_t> words, std::chrono::milliseconds timeout,
                const std::string& what);

// Now on the steady clock, in nanoseconds.
std::uint64_t steady_nanoseconds();

}  // namespace gpubench::transports::tcp
