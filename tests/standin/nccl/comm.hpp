// A stand-in NCCL communicator (the ncclComm_t handle): its rank, device, shared segment,
// asynchronous error, abort flag, and the operations still on its stream.
#pragma once

#include <nccl.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "faults.hpp"
#include "shared_comm.hpp"

struct ncclComm {
  std::string token;
  int rank = 0;
  int nranks = 0;
  int device = 0;
  std::optional<gpubench::tests::standin::nccl::fault> fault;  // when it concerns this rank
  std::unique_ptr<gpubench::tests::standin::nccl::shared_comm> shared;
  bool ready = false;  // joined and met every rank
  std::uint64_t seq = 0;
  std::atomic<bool> aborting{false};
  std::atomic<int> async{ncclSuccess};
  std::mutex mutex;
  std::condition_variable idle;
  int in_flight = 0;

  bool fault_at(gpubench::tests::standin::nccl::fault_kind k, std::uint64_t op) const {
    return fault && fault->kind == k && fault->op == op;
  }
  void set_async(ncclResult_t r) {
    int expected = ncclSuccess;
    async.compare_exchange_strong(expected, r);
  }
};
