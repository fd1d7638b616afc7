// Builds without libibverbs: the transport is listed as unavailable with the reason, every
// RDMA case is skipped with it, and the system block still lists what sysfs shows.
#include "core/errors.hpp"
#include "transports/rdma/device_info.hpp"
#include "transports/rdma/rdma_transport.hpp"

namespace gpubench::transports::rdma {

namespace {
constexpr const char* reason =
    "built without RDMA verbs: libibverbs not found at configure time (Debian: libibverbs-dev)";
}

std::optional<std::string> rdma_unavailable_reason() {
  return std::string(reason);
}

transport_entry rdma_transport() {
  transport_entry e;
  e.name = "rdma";
  e.make_active = [](const endpoint_setup&) -> std::unique_ptr<active_endpoint> {
    throw core::skip_case(reason);
  };
  e.make_passive = [](const endpoint_setup&) -> std::unique_ptr<passive_endpoint> {
    throw core::skip_case(reason);
  };
  e.unavailable = reason;
  return e;
}

void add_rdma_system_info(nlohmann::json& system) {
  add_rdma_devices(system);
}

}  // namespace gpubench::transports::rdma
