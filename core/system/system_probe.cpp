#include "core/system/system_probe.hpp"

namespace gpubench::core {

nlohmann::json probe_system(const probe_roots& roots) {
  nlohmann::json j = probe_host(roots);
  j.update(probe_numa());
  return j;
}

}  // namespace gpubench::core
