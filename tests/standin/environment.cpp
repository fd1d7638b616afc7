#include "environment.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>

#include "runtime.hpp"

namespace gpubench::tests::standin {

std::optional<machine_config> config_from_environment() {
  const char* gpus = std::getenv("GPUBENCH_STANDIN_GPUS");
  if (!gpus) return std::nullopt;
  machine_config c;
  int physical = 0;
  try {
    physical = std::stoi(gpus);
  } catch (const std::exception&) {
    physical = 0;
  }
  if (physical < 1 || physical > 64)
    throw std::invalid_argument(std::string("GPUBENCH_STANDIN_GPUS '") + gpus +
                                "': expected 1 to 64");
  c.physical.clear();
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
    // As CUDA: the list ends at the first entry that names no device.
    std::istringstream in(visible);
    std::string item;
    while (std::getline(in, item, ',')) {
      char* end = nullptr;
      const long d = std::strtol(item.c_str(), &end, 10);
      if (item.empty() || *end != '\0' || d < 0 || d >= physical) break;
      c.physical.push_back(static_cast<int>(d));
    }
  } else {
    for (int d = 0; d < physical; ++d)
      c.physical.push_back(d);
  }
  c.devices = static_cast<int>(c.physical.size());
  // The physical peer pairs 0-1, 2-3, ..., as the visible devices number them.
  c.peer_pairs.clear();
  for (int a = 0; a < c.devices; ++a)
    for (int b = a + 1; b < c.devices; ++b)
      if (c.physical_of(a) / 2 == c.physical_of(b) / 2) c.peer_pairs.emplace_back(a, b);
  const char* mode = std::getenv("GPUBENCH_STANDIN_COMPUTE_MODE");
  const std::string m = mode ? mode : "default";
  if (m == "exclusive_process") {
    c.mode = compute_mode::exclusive_process;
    const char* dir = std::getenv("GPUBENCH_STANDIN_NODE_DIR");
    if (!dir || !*dir)
      throw std::invalid_argument(
          "GPUBENCH_STANDIN_COMPUTE_MODE=exclusive_process needs GPUBENCH_STANDIN_NODE_DIR");
    c.node_dir = dir;
  } else if (m != "default") {
    throw std::invalid_argument("GPUBENCH_STANDIN_COMPUTE_MODE '" + m +
                                "': expected default or exclusive_process");
  }
  return c;
}

runtime* environment_runtime() {
  static std::once_flag once;
  static runtime* made = nullptr;
  std::call_once(once, [] {
    try {
      if (auto c = config_from_environment()) {
        if (c->devices == 0) return;        // CUDA_VISIBLE_DEVICES hides every GPU
        made = new runtime(std::move(*c));  // never deleted: see the header
        install_runtime(made);
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpubench CUDA stand-in: %s\n", e.what());
    }
  });
  return made;
}

}  // namespace gpubench::tests::standin
