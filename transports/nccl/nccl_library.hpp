// NCCL loaded at run time (dlopen), reached through a table of typed function pointers, so
// gpubench starts on hosts without libnccl and says "NCCL not found: <why>" instead.
#pragma once

#include <nccl.h>

#include <string>

namespace gpubench::transports::nccl {

// The entry points gpubench calls, typed from nccl.h.
struct api {
  decltype(&::ncclGetVersion) get_version = nullptr;
  decltype(&::ncclGetUniqueId) get_unique_id = nullptr;
  decltype(&::ncclCommInitRank) comm_init_rank = nullptr;
  decltype(&::ncclCommDestroy) comm_destroy = nullptr;
  decltype(&::ncclCommAbort) comm_abort = nullptr;
  decltype(&::ncclCommGetAsyncError) comm_get_async_error = nullptr;
  decltype(&::ncclAllReduce) all_reduce = nullptr;
  decltype(&::ncclAllGather) all_gather = nullptr;
  decltype(&::ncclReduceScatter) reduce_scatter = nullptr;
  decltype(&::ncclBroadcast) broadcast = nullptr;
  decltype(&::ncclSend) send = nullptr;
  decltype(&::ncclRecv) recv = nullptr;
  decltype(&::ncclGroupStart) group_start = nullptr;
  decltype(&::ncclGroupEnd) group_end = nullptr;
  decltype(&::ncclGetErrorString) get_error_string = nullptr;
};

class library {
 public:
  // Tries GPUBENCH_NCCL_LIBRARY, else libnccl.so.2 / libnccl.so through the loader. Throws
  // std::runtime_error("NCCL not found: <dlerror>") when none loads or a symbol is missing.
  library();
  ~library();  // leaves the library loaded (never dlclose NCCL)
  library(const library&) = delete;
  library& operator=(const library&) = delete;

  const api& fn() const { return m_api; }
  const std::string& path() const { return m_path; }
  int version_code() const { return m_version; }

  // Throws std::runtime_error("<what>: <NCCL's error string>") unless r is ncclSuccess.
  void check(ncclResult_t r, const std::string& what) const;

 private:
  void* m_handle = nullptr;
  api m_api;
  std::string m_path;
  int m_version = 0;
};

}  // namespace gpubench::transports::nccl
