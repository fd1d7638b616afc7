// The processes that run one collective case together: an MPI sub-communicator, or this
// process alone (NCCL over the local GPUs). The driver synchronises and reduces through it,
// and a backend's set-up (NCCL's unique id) broadcasts through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace gpubench::transports {

// One sample's time as seen by the ranks of the communicator: the average is what the
// bandwidth is computed from (the max for a rooted operation, whose root returns early); min
// and max show the spread between ranks.
struct rank_times {
  double avg = 0;
  double min = 0;
  double max = 0;
};

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
  // The bitwise OR of every member's `bits` (several yes/no questions in one call).
  virtual std::uint32_t any_bits(std::uint32_t bits) = 0;
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
  std::uint32_t any_bits(std::uint32_t bits) override { return bits; }
  void broadcast(std::span<std::byte>, int) override {}
  std::vector<std::byte> allgather(std::span<const std::byte> mine) override {
    return {mine.begin(), mine.end()};
  }
};

// Runs `make` (which fills `data`) on rank `root` alone, then broadcasts `data` from it.
// When `make` throws, every member throws std::runtime_error (root with make's message, the
// others naming root) and no broadcast starts: a root that failed alone would leave the
// others waiting in the broadcast until the watchdog aborts the whole job.
void make_and_broadcast(process_group& group, std::span<std::byte> data, int root,
                        const std::function<void()>& make);

}  // namespace gpubench::transports
