// The out-of-band path between the two sides of an RDMA case: whole messages, every wait
// bounded. A peer's control channel carries it; loopback uses an in-process pair.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace gpubench::transports::rdma {

class message_link {
 public:
  virtual ~message_link() = default;
  virtual void send(std::span<const std::byte> message) = 0;
  // The next message; throws std::runtime_error naming the wait when none came in time or
  // the other side is gone.
  virtual std::vector<std::byte> receive(std::chrono::milliseconds timeout) = 0;
  // A message if one is already there; never blocks (spinning responders call it).
  virtual std::optional<std::vector<std::byte>> try_receive() = 0;
  // Wakes the other side's waits with "peer closed"; also done by the destructor.
  virtual void close() = 0;
};

// Two connected ends living in one process (the RDMA loopback's server runs in a thread).
std::pair<std::unique_ptr<message_link>, std::unique_ptr<message_link>> make_local_link_pair();

}  // namespace gpubench::transports::rdma
