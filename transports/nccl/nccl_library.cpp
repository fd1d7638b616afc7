#include "transports/nccl/nccl_library.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "transports/nccl/nccl_logic.hpp"

namespace gpubench::transports::nccl {

namespace {

template <typename F>
void bind_symbol(void* handle, F& slot, const char* name, const std::string& path) {
  void* sym = ::dlsym(handle, name);
  if (!sym)
    throw std::runtime_error("NCCL not found: " + path + " has no " + name +
                             " (not an NCCL 2 library?)");
  slot = reinterpret_cast<F>(sym);
}

}  // namespace

library::library() {
  const char* explicit_path = std::getenv("GPUBENCH_NCCL_LIBRARY");
  const auto candidates = nccl_library_candidates(
      explicit_path ? std::optional<std::string>(explicit_path) : std::nullopt);
  std::string first_error;
  for (const auto& name : candidates) {
    m_handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (m_handle) {
      m_path = name;
      break;
    }
    if (first_error.empty()) {
      const char* e = ::dlerror();
      first_error = e ? e : name + ": cannot be loaded";
    }
  }
  if (!m_handle)
    throw std::runtime_error("NCCL not found: " + first_error +
                             " (add NCCL's lib directory to LD_LIBRARY_PATH or set "
                             "GPUBENCH_NCCL_LIBRARY)");
  try {
    link_map* map = nullptr;
    if (::dlinfo(m_handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
      m_path = map->l_name;
    bind_symbol(m_handle, m_api.get_version, "ncclGetVersion", m_path);
    bind_symbol(m_handle, m_api.get_unique_id, "ncclGetUniqueId", m_path);
    bind_symbol(m_handle, m_api.comm_init_rank, "ncclCommInitRank", m_path);
    bind_symbol(m_handle, m_api.comm_destroy, "ncclCommDestroy", m_path);
    bind_symbol(m_handle, m_api.comm_abort, "ncclCommAbort", m_path);
    bind_symbol(m_handle, m_api.comm_get_async_error, "ncclCommGetAsyncError", m_path);
    bind_symbol(m_handle, m_api.all_reduce, "ncclAllReduce", m_path);
    bind_symbol(m_handle, m_api.all_gather, "ncclAllGather", m_path);
    bind_symbol(m_handle, m_api.reduce_scatter, "ncclReduceScatter", m_path);
    bind_symbol(m_handle, m_api.broadcast, "ncclBroadcast", m_path);
    bind_symbol(m_handle, m_api.send, "ncclSend", m_path);
    bind_symbol(m_handle, m_api.recv, "ncclRecv", m_path);
    bind_symbol(m_handle, m_api.group_start, "ncclGroupStart", m_path);
    bind_symbol(m_handle, m_api.group_end, "ncclGroupEnd", m_path);
    bind_symbol(m_handle, m_api.get_error_string, "ncclGetErrorString", m_path);
    check(m_api.get_version(&m_version), "ncclGetVersion");
  } catch (...) {
    m_handle = nullptr;  // left loaded: see ~library
    throw;
  }
}

// Never dlclose NCCL: it leaves threads (bootstrap, proxy) and atexit handlers behind whose
// code would be unmapped under them; the process exit unloads it.
library::~library() = default;

void library::check(ncclResult_t r, const std::string& what) const {
  if (r == ncclSuccess) return;
  const char* text = m_api.get_error_string ? m_api.get_error_string(r) : nullptr;
  throw std::runtime_error(what + ": " + (text ? text : "NCCL error " + std::to_string(r)));
}

}  // namespace gpubench::transports::nccl
