#include "cli/version.hpp"

#include "core/version.hpp"

namespace gpubench::cli {

std::string version_text() {
  std::string s = std::string("gpubench ") + core::tool_version + " (" + core::tool_git + ")\n";
  s += "built with:";
  s += GPUBENCH_WITH_CUDA ? " CUDA" : " no-CUDA";
  s += GPUBENCH_WITH_NCCL ? " NCCL" : " no-NCCL";
  s += GPUBENCH_WITH_MPI ? " MPI" : " no-MPI";
  s += GPUBENCH_WITH_VERBS ? " verbs" : " no-verbs";
  s += GPUBENCH_WITH_CAIRO ? " cairo" : " no-cairo";
  return s;
}

}  // namespace gpubench::cli
