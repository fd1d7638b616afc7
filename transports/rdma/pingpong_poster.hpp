// Posts of a ping-pong (send and write latency), one signalled in every
// latency_signal_interval() as perftest's latency tests do: the reply times the round trip,
// so neither side waits for the completion of its own post, which on RoCE comes with the
// peer's ACK whenever the device sends it.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "transports/rdma/endpoint.hpp"

namespace gpubench::transports::rdma {

class pingpong_poster {
 public:
  pingpong_poster(endpoint& ep, std::string what, std::chrono::milliseconds timeout);

  // Posts one message; before a signalled post, reaps the previous signalled one (long
  // complete by then), which also surfaces the error completion of any failed post before it.
  void post(rdma_op op, std::uint64_t bytes);

 private:
  endpoint& m_ep;
  std::string m_what;
  std::chrono::milliseconds m_timeout;
  std::uint32_t m_every;
  std::uint64_t m_posted = 0;
  bool m_unreaped = false;
};

}  // namespace gpubench::transports::rdma
