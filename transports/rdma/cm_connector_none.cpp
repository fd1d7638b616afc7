// Builds without librdmacm: --rdma-cm on skips the case with the reason.
#include "core/errors.hpp"
#include "transports/rdma/cm_connector.hpp"

namespace gpubench::transports::rdma {

std::unique_ptr<qp_connector> make_cm_connector(cm_role, const endpoint_setup&) {
  throw core::skip_case(
      "--rdma-cm on: built without librdmacm: not found at configure time (Debian: "
      "librdmacm-dev)");
}

}  // namespace gpubench::transports::rdma
