// The bandwidth data path of an RDMA case, used by both sides: perftest's window of work
// requests with selective signalling, and the zero-byte sync messages that start and end the
// peer's half of a bidirectional sample.
#pragma once

#include <chrono>
#include <cstdint>

#include "transports/rdma/endpoint.hpp"
#include "transports/rdma/point_receive.hpp"

namespace gpubench::transports::rdma {

// Immediate values of the sync messages ("gb" + 1 / 2).
enum class sync_tag : std::uint32_t { go = 0x67620001u, done = 0x67620002u };

// What the receive queue has delivered: data messages (send bandwidth) and sync marks not yet
// consumed.
struct recv_tally {
  std::uint64_t messages = 0;
  std::uint64_t go = 0;
  std::uint64_t done = 0;
};

class bandwidth_flow {
 public:
  // `signal_every`: one signalled work request in this many (and always the last). Every
  // wait fails after `timeout` without progress.
  bandwidth_flow(endpoint& ep, rdma_op op, std::uint32_t signal_every,
                 std::chrono::milliseconds timeout);

  // perftest's run_iter_bw: posts `iterations` work requests of `bytes`, keeping at most the
  // send window outstanding, and returns once the last one has completed. With
  // `service_receives`, the receive queue is kept full meanwhile (bidirectional samples).
  // With `watch` (the passive side's half of a bidirectional sample), the control connection
  // is watched while it waits: the client ending the point or leaving ends the burst at once.
  // Sizes up to half a page take each work request's buffers a cache line further on
  // (cycle_offset), as perftest does.
  void burst(std::uint64_t bytes, std::uint64_t iterations, bool service_receives,
             responder_watch* watch = nullptr);

  // Polls the receive queue once: every consumed receive is posted again and tallied.
  // Returns how many completions it saw.
  int service_receives();

  // Posts a sync mark. Its completion is collected by the next burst.
  void send_mark(sync_tag tag);
  // Services the receive queue until a `tag` mark has arrived, and consumes it.
  void wait_mark(sync_tag tag, const char* what);

  recv_tally& tally() { return m_tally; }

 private:
  endpoint& m_ep;
  rdma_op m_op;
  std::uint32_t m_signal_every;
  std::chrono::milliseconds m_timeout;
  std::uint64_t m_wr = 0;  // data work requests posted so far: their ids count up
  std::uint64_t m_marks = 0;
  recv_tally m_tally;
};

}  // namespace gpubench::transports::rdma
