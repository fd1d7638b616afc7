// Device availability and the system block, for a build with libibverbs.
#include <dlfcn.h>

#include <filesystem>

#include "transports/rdma/device_info.hpp"
#include "transports/rdma/rdma_transport.hpp"
#include "transports/rdma/system_info.hpp"
#include "transports/rdma/verbs.hpp"

namespace gpubench::transports::rdma {

std::optional<std::string> rdma_unavailable_reason() {
  return verbs_unavailable_reason();
}

void add_rdma_system_info(nlohmann::json& system) {
  add_rdma_devices(system);
  auto& software = system["software"];
  if (!software.is_object()) software = nlohmann::json::object();
  // The loaded libibverbs' real file name carries the rdma-core release.
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&ibv_get_device_list), &info) != 0 && info.dli_fname) {
    std::error_code ec;
    const auto real = std::filesystem::canonical(info.dli_fname, ec);
    if (auto v = rdma_core_version_from_path(ec ? info.dli_fname : real.string()))
      software["rdma_core"] = *v;
  }
}

}  // namespace gpubench::transports::rdma
