// The hot paths of the TCP transport: exact-length blocking I/O for ping-pong (optionally
// spinning, for busy-poll), and a pump that sends and receives on one non-blocking socket at
// once for streaming. Every wait is bounded; errors name the operation and the peer.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "transports/tcp/tally.hpp"

namespace gpubench::transports::tcp {

// How the latency path waits for data: in poll/recv (the kernel wakes the thread) or by
// spinning on non-blocking reads (lower latency, one core busy).
enum class wait_mode { block, spin };

// Sets SO_RCVTIMEO/SO_SNDTIMEO so blocking I/O on `fd` ends after `timeout` without progress.
void set_io_timeout(int fd, std::chrono::milliseconds timeout);

// Sends all of `data`, blocking or not; a wait longer than `timeout` fails.
void send_exact(int fd, std::span<const std::byte> data, std::chrono::milliseconds timeout,
                const std::string& what);
// Receives exactly data.size() bytes. `block`: a blocking socket, SO_RCVTIMEO bounds each wait;
// `spin`: non-blocking reads in a loop, `timeout` bounds the silence.
void recv_exact(int fd, std::span<std::byte> data, wait_mode mode,
                std::chrono::milliseconds timeout, const std::string& what);

// On a non-blocking socket: sends `send_total` bytes from `send_buf` (reused cyclically) in
// messages of at most `message` bytes per call, while receiving `recv_total` bytes into
// `recv_buf` (overwritten). Returns when both are done; fails after `idle_timeout` without
// progress, or when the peer closes.
void pump(int fd, std::span<const std::byte> send_buf, std::uint64_t message,
          std::uint64_t send_total, std::span<std::byte> recv_buf, std::uint64_t recv_total,
          std::chrono::milliseconds idle_timeout, const std::string& what);

// On a non-blocking socket, until `stop` is set: sends messages of at most `message` bytes per
// call from `send_buf` when `send` (a call never crosses a message boundary), receives into
// `recv_buf` when `receive`, and adds what moved to `counters` as it moves. Looks at `stop` at
// least every 50 ms; fails after `idle_timeout` without progress, or when the peer closes.
void stream_until(const std::atomic<bool>& stop, int fd, std::span<const std::byte> send_buf,
                  std::uint64_t message, bool send, std::span<std::byte> recv_buf, bool receive,
                  stream_counters& counters, std::chrono::milliseconds idle_timeout,
                  const std::string& what);

}  // namespace gpubench::transports::tcp
