// What a collective backend (MPI on host buffers, NCCL on GPU buffers) provides to the
// driver: its communicator size, buffers, the data check, and timed runs of the collective.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace gpubench::coll {

class allreduce_backend {
 public:
  virtual ~allreduce_backend() = default;
  // Ranks of the communicator under test (the n of the bus factor), over all processes.
  virtual int ranks() const = 0;
  // Allocates send and receive buffers of `max_count` elements.
  virtual void prepare(std::uint64_t max_count) = 0;
  // Writes this process's ranks' check values into send and receive buffers.
  virtual void fill_check(std::uint64_t count, std::uint32_t seed) = 0;
  // Elements of the receive buffer(s) that differ from the expected sum, after run().
  virtual std::uint64_t count_wrong(std::uint64_t count, std::uint32_t seed) = 0;
  // Runs `iters` allreduces of `count` elements back to back (no synchronisation between
  // them) and returns the seconds from the first call to the completion of the last, on
  // this process. in_place: the receive buffer is also the send buffer.
  virtual double run(std::uint64_t count, int iters, bool in_place) = 0;
  // Devices, library version, ... for the case's context.
  virtual nlohmann::json describe() const = 0;
};

}  // namespace gpubench::coll
