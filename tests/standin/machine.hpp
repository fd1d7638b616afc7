// What a test holds to run code against the CPU stand-in of the CUDA runtime: while a
// `machine` lives, the CUDA calls of this process answer as its GPUs would. One at a time.
// It also answers what a test asks afterwards: which device was current for each allocation,
// which contexts were opened, what faulted, what was left behind, and what a stream had
// done when it reached an event.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cuda_runtime_api.h"
#include "machine_config.hpp"
#include "memory_table.hpp"
#include "stream_worker.hpp"

namespace gpubench::tests::standin {

class runtime;

class machine {
 public:
  explicit machine(machine_config config = machine_config::four_gpus());
  // Uninstalls the runtime: streams still alive run what they have queued, memory left
  // behind is freed (leaks() names it first).
  ~machine();
  machine(const machine&) = delete;
  machine& operator=(const machine&) = delete;

  // Every allocation and pinning made, in order, with the device current at the time.
  std::vector<allocation_record> allocations() const;
  // Devices whose context a call opened (made current, or used while current).
  std::set<int> contexts() const;
  // Kernel faults (illegal addresses, __trap), one line each.
  std::vector<std::string> faults() const;
  // Memory, streams and events not released, peer access left enabled.
  std::vector<std::string> leaks() const;
  bool peer_enabled(int from, int to) const;
  // What the event's stream had completed when it reached the event's latest recording
  // (throws when it was not reached yet).
  stream_counts counts_at(cudaEvent_t event) const;
  // Every event recording reached since the last clear, in the order the streams reached them.
  std::vector<reached_event> reached_events() const;
  void clear_reached_events();

 private:
  std::unique_ptr<runtime> m_runtime;
};

}  // namespace gpubench::tests::standin
