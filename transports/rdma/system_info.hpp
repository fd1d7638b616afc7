// Pure helpers of the RDMA system description: the rdma-core version from libibverbs' file name.
#pragma once

#include <optional>
#include <string>

namespace gpubench::transports::rdma {

// "libibverbs.so.1.14.44.0" -> "44.0" (rdma-core names the library ABI.MAJOR.MINOR).
std::optional<std::string> rdma_core_version_from_path(const std::string& path);

}  // namespace gpubench::transports::rdma
