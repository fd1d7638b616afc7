#include "benchmarks/gpu/pci_gpus.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "benchmarks/gpu/link_peak.hpp"
#include "core/system/sysfs.hpp"

namespace gpubench::benchmarks::gpu {

namespace fs = std::filesystem;

namespace {

pcie_link_state read_link(const fs::path& dev, const char* speed_file, const char* width_file) {
  pcie_link_state l;
  if (auto s = core::read_line(dev / speed_file)) {
    l.speed = *s;
    l.generation = pcie_generation(*s);
  }
  // A width of 0 or 255 means the link is down or the attribute is a placeholder.
  if (auto w = core::read_int(dev / width_file); w && *w > 0 && *w <= 32)
    l.width = static_cast<int>(*w);
  return l;
}

bool is_nvidia_display(const fs::path& dev) {
  const auto vendor = core::read_int(dev / "vendor");
  const auto cls = core::read_int(dev / "class");
  return vendor && *vendor == 0x10de && cls && (*cls >> 16) == 0x03;
}

}  // namespace

std::string normalize_bus_id(std::string_view id) {
  std::string s(id);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // NVML pads the domain to 8 digits; sysfs uses 4.
  const auto colon = s.find(':');
  if (colon != std::string::npos && colon > 4 && s.find(':', colon + 1) != std::string::npos)
    s = s.substr(colon - 4);
  return s;
}

std::vector<pci_gpu> scan_pci_gpus(const fs::path& sys_root) {
  std::vector<pci_gpu> out;
  std::error_code ec;
  const fs::path bus = sys_root / "bus" / "pci" / "devices";
  const fs::path devices_root = fs::weakly_canonical(sys_root / "devices", ec);
  for (const auto& entry : fs::directory_iterator(bus, ec)) {
    const fs::path link = entry.path();
    if (!is_nvidia_display(link)) continue;
    pci_gpu g;
    g.bus_id = normalize_bus_id(link.filename().string());
    g.device_id = core::read_line(link / "device").value_or("");
    if (auto n = core::read_int(link / "numa_node"); n && *n >= 0)
      g.numa_node = static_cast<int>(*n);
    g.current = read_link(link, "current_link_speed", "current_link_width");
    g.max = read_link(link, "max_link_speed", "max_link_width");
    std::error_code cec;
    const fs::path real = fs::canonical(link, cec);
    if (!cec) {
      const fs::path rel = real.lexically_relative(devices_root);
      for (const auto& part : rel)
        if (!part.empty() && part != "." && part != "..") g.path.push_back(part.string());
      if (g.path.size() >= 2 && g.path[g.path.size() - 2].rfind("pci", 0) != 0)
        g.upstream_max = read_link(real.parent_path(), "max_link_speed", "max_link_width");
    }
    out.push_back(std::move(g));
  }
  std::sort(out.begin(), out.end(),
            [](const pci_gpu& a, const pci_gpu& b) { return a.bus_id < b.bus_id; });
  return out;
}

pcie_link_state usable_link(const pci_gpu& g) {
  pcie_link_state l = g.max;
  const auto& up = g.upstream_max;
  if (up.generation && (!l.generation || *up.generation < *l.generation)) {
    l.generation = up.generation;
    l.speed = up.speed;
  }
  if (up.width && (!l.width || *up.width < *l.width)) l.width = up.width;
  return l;
}

nlohmann::json to_json(const pcie_link_state& l) {
  nlohmann::json j = nlohmann::json::object();
  j["generation"] = l.generation ? nlohmann::json(*l.generation) : nlohmann::json(nullptr);
  j["width"] = l.width ? nlohmann::json(*l.width) : nlohmann::json(nullptr);
  j["speed"] = l.speed;
  return j;
}

}  // namespace gpubench::benchmarks::gpu
