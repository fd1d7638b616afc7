// Bounded waits for completions, shared by both sides of an RDMA case, and the mark that
// write latency polls for.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "transports/rdma/endpoint.hpp"
#include "transports/rdma/point_receive.hpp"

namespace gpubench::transports::rdma {

// Checks the clock only every 256 calls, so spinning loops stay cheap.
class spin_deadline {
 public:
  explicit spin_deadline(std::chrono::milliseconds timeout);
  bool expired();
  // Reads the clock now: after a wait that slept.
  bool expired_now() const;

 private:
  std::chrono::steady_clock::time_point m_end;
  std::uint32_t m_calls = 0;
};

// After a poll that found nothing: lets the endpoint sleep on its completion channel (event
// mode) or returns at once (polling), then says whether `deadline` has passed.
bool idle_expired(endpoint& ep, spin_deadline& deadline);

// One completion from the send or receive queue within `timeout`; throws naming `what`.
ibv_wc wait_send(endpoint& ep, const std::string& what, std::chrono::milliseconds timeout);
ibv_wc wait_recv(endpoint& ep, const std::string& what, std::chrono::milliseconds timeout);

// Write latency marks each message by its last byte: 1..255, never 0 (the zeroed buffer).
inline std::uint8_t next_mark(std::uint8_t m) {
  return m == 255 ? std::uint8_t{1} : static_cast<std::uint8_t>(m + 1);
}

}  // namespace gpubench::transports::rdma
