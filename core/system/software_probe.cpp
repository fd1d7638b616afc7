// Software versions the core can know without optional libraries; CUDA, NCCL, MPI and
// rdma-core versions are added by their families' probes.
#include <hwloc.h>

#include <sstream>

#include "core/system/sysfs.hpp"
#include "core/system/system_probe.hpp"

namespace gpubench::core {

namespace {

std::string compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#else
  return "unknown";
#endif
}

// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 ..." (or the
// "Open Kernel Module" variant): the version is the first word that starts with a digit
// and contains a dot.
std::optional<std::string> nvidia_driver(const probe_roots& roots) {
  if (auto v = read_line(roots.sys / "module" / "nvidia" / "version"); v && !v->empty()) return v;
  auto line = read_line(roots.proc / "driver" / "nvidia" / "version");
  if (!line) return std::nullopt;
  std::istringstream words(*line);
  std::string w;
  while (words >> w)
    if (std::isdigit(static_cast<unsigned char>(w.front())) && w.find('.') != std::string::npos)
      return w;
  return std::nullopt;
}

}  // namespace

nlohmann::json probe_software(const probe_roots& roots) {
  nlohmann::json j = nlohmann::json::object();
  j["compiler"] = compiler();
#ifdef HWLOC_VERSION
  j["hwloc"] = HWLOC_VERSION;
#endif
  if (auto v = nvidia_driver(roots)) j["nvidia_driver"] = *v;
  return j;
}

}  // namespace gpubench::core
