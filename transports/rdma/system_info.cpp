#include "transports/rdma/system_info.hpp"

#include <regex>

namespace gpubench::transports::rdma {

std::optional<std::string> rdma_core_version_from_path(const std::string& path) {
  static const std::regex re(R"(libibverbs\.so\.1\.[0-9]+\.([0-9]+\.[0-9]+)$)");
  std::smatch m;
  if (!std::regex_search(path, m, re)) return std::nullopt;
  return m[1].str();
}

}  // namespace gpubench::transports::rdma
