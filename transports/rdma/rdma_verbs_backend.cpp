// The backend answers of a build with libibverbs: device availability and the system block.
#include <dlfcn.h>

#include <filesystem>

#include "transports/rdma/device_info.hpp"
#include "transports/rdma/rdma_backend.hpp"
#include "transports/rdma/system_info.hpp"
#include "transports/rdma/verbs.hpp"

namespace gpubench::transports::rdma {

std::optional<std::string> rdma_unavailable_reason() {
  return verbs_unavailable_reason();
}

void add_rdma_system_info(nlohmann::json& system) {
  auto& devices = system["rdma_devices"];
  devices = nlohmann::json::array();
  for (const auto& d : describe_devices())
    devices.push_back(to_json(d));
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
