// Shared pieces of both sides of an RDMA session: bounded waits for completions and
// commands, the write-latency counter and per-thread CPU time.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "transports/rdma/endpoint.hpp"
#include "transports/rdma/message_link.hpp"

namespace gpubench::transports::rdma {

inline constexpr std::chrono::milliseconds control_timeout{10'000};
// The passive side waits this long for the next command: a point may run a while.
inline constexpr std::chrono::milliseconds command_timeout{120'000};
// No completion for this long means the peer or the queue pair is gone.
inline constexpr double data_timeout_seconds = 10.0;
// Empty polls before a spinning responder looks at the control link: only an idle responder
// does, so the check never delays a reply in the middle of a ping-pong.
inline constexpr std::uint32_t idle_polls_before_check = 1u << 14;

// CPU time (user + system) of the calling thread.
double thread_cpu_seconds();

// Checks the clock only every 256 calls, so spinning loops stay cheap.
class spin_deadline {
 public:
  explicit spin_deadline(double seconds);
  bool expired();

 private:
  std::chrono::steady_clock::time_point m_end;
  std::uint32_t m_calls = 0;
};

// One completion from the send or receive queue, within data_timeout_seconds.
ibv_wc wait_send(endpoint& ep, const std::string& what);
ibv_wc wait_recv(endpoint& ep, const std::string& what);

// The next command, which must be `type`; a `failed` answer throws with the peer's text.
command expect_command(message_link& link, command_type type, std::chrono::milliseconds timeout,
                       const std::string& what);

// Write latency marks each message by its last byte: 1..255, never 0 (the zeroed buffer).
inline std::uint8_t next_mark(std::uint8_t m) {
  return m == 255 ? std::uint8_t{1} : static_cast<std::uint8_t>(m + 1);
}

}  // namespace gpubench::transports::rdma
