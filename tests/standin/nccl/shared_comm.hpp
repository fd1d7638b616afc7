// The memory the ranks of one stand-in NCCL communicator share across processes: a POSIX
// shared memory segment named from the unique id, with each rank's state (joined, the
// operation it posted and the latest it finished reading, aborted, its process) and a data
// slot per rank holding its part of the current operation.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpubench::tests::standin::nccl {

constexpr int max_ranks = 64;

struct rank_state {
  std::atomic<std::int32_t> joined;
  std::atomic<std::int32_t> aborted;
  std::atomic<std::int32_t> pid;
  std::atomic<std::int32_t> op;  // what the posted operation is (every rank must agree)
  std::atomic<std::uint64_t> posted;
  std::atomic<std::uint64_t> consumed;
  std::atomic<std::uint64_t> count;
  std::atomic<std::uint64_t> bytes;
};

// Why a wait ended without what it waited for.
struct wait_failure {
  std::string what;  // empty: the wait succeeded
  bool remote = false;
  explicit operator bool() const { return !what.empty(); }
};

class shared_comm {
 public:
  // Opens (creating when first) the segment of `token` for `nranks` ranks, each slot
  // `capacity` bytes. Throws std::runtime_error with the reason.
  shared_comm(const std::string& token, int nranks, int rank, std::size_t capacity);
  ~shared_comm();
  shared_comm(const shared_comm&) = delete;
  shared_comm& operator=(const shared_comm&) = delete;

  int rank() const { return m_rank; }
  int nranks() const { return m_nranks; }
  std::size_t capacity() const { return m_capacity; }
  rank_state& state(int r) const;
  std::byte* slot(int r) const;

  void join();
  // Marks this rank aborted: every other rank's wait ends with a remote error.
  void mark_aborted();
  // The name goes once every rank has it mapped (or a rank gives up): nothing is left in
  // /dev/shm by a communicator that ended, however it ended.
  void unlink();

  // Waits until `done()` holds, polling. Ends early when `local_abort` is raised, another
  // rank aborted or its process exited, or after `timeout` (zero: none).
  wait_failure wait(const std::function<bool()>& done, const std::atomic<bool>& local_abort,
                    std::chrono::milliseconds timeout, const std::string& what) const;

 private:
  std::string m_name;
  int m_nranks;
  int m_rank;
  std::size_t m_capacity;
  std::size_t m_size = 0;
  void* m_base = nullptr;
};

}  // namespace gpubench::tests::standin::nccl
