// The RDMA verbs transport ("rdma") for the shared point-to-point driver, the availability
// check of the net.rdma.* benchmarks, and the family's system description. Free of
// libibverbs types: built from the verbs code when GPUBENCH_HAVE_VERBS, else from
// rdma_none.cpp, which answers with the reason.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "transports/transport.hpp"

namespace gpubench::transports::rdma {

// Endpoints built from rdma_settings params (see rdma_settings.hpp); `unavailable` is set on
// builds without libibverbs.
transport_entry rdma_transport();

// Nothing when RDMA can run here; else why ("no RDMA device: ibv_get_device_list returned
// none", "built without RDMA verbs: ...").
std::optional<std::string> rdma_unavailable_reason();

// Fills the system block's rdma_devices (from sysfs) and software.rdma_core, merging.
void add_rdma_system_info(nlohmann::json& system);

}  // namespace gpubench::transports::rdma
