// The processes that measure one allreduce case together: an MPI sub-communicator, or this
// process alone (NCCL over the local GPUs). The driver synchronises and reduces through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "transports/collective/allreduce_math.hpp"

namespace gpubench::coll {

class process_group {
 public:
  virtual ~process_group() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual void barrier() = 0;
  // Average, min and max of every member's `seconds`.
  virtual rank_times reduce_time(double seconds) = 0;
  virtual std::uint64_t sum(std::uint64_t value) = 0;
  // True on every member when it is true on any.
  virtual bool any(bool value) = 0;
  virtual void broadcast(std::span<std::byte> data, int root) = 0;
  // Every member's `mine` (all of the same size), in rank order.
  virtual std::vector<std::byte> allgather(std::span<const std::byte> mine) = 0;
};

class solo_group final : public process_group {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void barrier() override {}
  rank_times reduce_time(double seconds) override { return {seconds, seconds, seconds}; }
  std::uint64_t sum(std::uint64_t value) override { return value; }
  bool any(bool value) override { return value; }
  void broadcast(std::span<std::byte>, int) override {}
  std::vector<std::byte> allgather(std::span<const std::byte> mine) override {
    return {mine.begin(), mine.end()};
  }
};

}  // namespace gpubench::coll
