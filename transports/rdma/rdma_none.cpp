// Builds without libibverbs: every RDMA case is skipped with this reason; the system block
// still lists the devices sysfs shows.
#include "core/errors.hpp"
#include "transports/rdma/device_info.hpp"
#include "transports/rdma/rdma_backend.hpp"

namespace gpubench::transports::rdma {

namespace {
constexpr const char* reason =
    "built without RDMA verbs: libibverbs not found at configure time (Debian: libibverbs-dev)";
}

std::optional<std::string> rdma_unavailable_reason() {
  return std::string(reason);
}

std::unique_ptr<rdma_client> open_loopback_client(const client_request&) {
  throw core::skip_case(reason);
}

std::unique_ptr<rdma_client> open_remote_client(const client_request&,
                                                std::unique_ptr<message_link>) {
  throw core::skip_case(reason);
}

void serve_rdma_session(message_link& link, const rdma_options&) {
  link.send(encode(command{command_type::failed, 1, 0, std::string("RDMA server: ") + reason}));
}

void add_rdma_system_info(nlohmann::json& system) {
  auto& devices = system["rdma_devices"];
  devices = nlohmann::json::array();
  for (const auto& d : describe_devices())
    devices.push_back(to_json(d));
}

}  // namespace gpubench::transports::rdma
