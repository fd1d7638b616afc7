#include "benchmarks/gpu/cuda/nvml.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <utility>
#include <vector>

#include "benchmarks/gpu/nvlink_count.hpp"
#include "benchmarks/gpu/pci_gpus.hpp"

namespace gpubench::benchmarks::gpu::cuda {

namespace {

// The subset of nvml.h's ABI used here (the header is not part of the CUDA toolkit).
using nvml_return = int;
constexpr nvml_return nvml_success = 0;
struct nvml_device_st;
using nvml_device = nvml_device_st*;
struct nvml_pci_info {
  char bus_id_legacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pci_device_id;
  unsigned pci_subsystem_id;
  char bus_id[32];
};
constexpr nvml_return nvml_error_invalid_argument = 2;  // past the last link of the device
// nvmlIntNvLinkDeviceType_t
constexpr int nvml_nvlink_device_type_gpu = 0;
constexpr int nvml_nvlink_device_type_ibmnpu = 1;
constexpr int nvml_nvlink_device_type_switch = 2;

template <typename F>
F resolve(void* handle, const char* name) {
  return reinterpret_cast<F>(dlsym(handle, name));
}

}  // namespace

struct nvml_library::table {
  nvml_return (*init)();
  nvml_return (*shutdown)();
  const char* (*error_string)(nvml_return);
  nvml_return (*driver_version)(char*, unsigned);
  nvml_return (*by_bus_id)(const char*, nvml_device*);
  nvml_return (*mig_mode)(nvml_device, unsigned*, unsigned*);
  nvml_return (*virt_mode)(nvml_device, int*);
  nvml_return (*link_state)(nvml_device, unsigned, int*);
  nvml_return (*link_remote_pci)(nvml_device, unsigned, nvml_pci_info*);
  nvml_return (*link_remote_type)(nvml_device, unsigned, int*);  // may be absent (old drivers)
};

std::unique_ptr<nvml_library> nvml_library::open(std::string& why_not) {
  void* h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    why_not = std::string("NVML not found: ") + (e ? e : "dlopen failed");
    return nullptr;
  }
  auto t = std::make_unique<table>();
  t->init = resolve<decltype(t->init)>(h, "nvmlInit_v2");
  t->shutdown = resolve<decltype(t->shutdown)>(h, "nvmlShutdown");
  t->error_string = resolve<decltype(t->error_string)>(h, "nvmlErrorString");
  t->driver_version = resolve<decltype(t->driver_version)>(h, "nvmlSystemGetDriverVersion");
  t->by_bus_id = resolve<decltype(t->by_bus_id)>(h, "nvmlDeviceGetHandleByPciBusId_v2");
  t->mig_mode = resolve<decltype(t->mig_mode)>(h, "nvmlDeviceGetMigMode");
  t->virt_mode = resolve<decltype(t->virt_mode)>(h, "nvmlDeviceGetVirtualizationMode");
  t->link_state = resolve<decltype(t->link_state)>(h, "nvmlDeviceGetNvLinkState");
  t->link_remote_pci =
      resolve<decltype(t->link_remote_pci)>(h, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
  t->link_remote_type =
      resolve<decltype(t->link_remote_type)>(h, "nvmlDeviceGetNvLinkRemoteDeviceType");
  if (!t->init || !t->shutdown || !t->error_string || !t->by_bus_id) {
    why_not = "NVML is too old: nvmlInit_v2 or nvmlDeviceGetHandleByPciBusId_v2 is missing";
    dlclose(h);
    return nullptr;
  }
  if (const nvml_return r = t->init(); r != nvml_success) {
    why_not = std::string("NVML did not initialise: ") + t->error_string(r);
    dlclose(h);
    return nullptr;
  }
  return std::unique_ptr<nvml_library>(new nvml_library(h, std::move(t)));
}

nvml_library::nvml_library(void* handle, std::unique_ptr<table> fns)
    : m_handle(handle), m_fns(std::move(fns)) {}

nvml_library::~nvml_library() {
  m_fns->shutdown();
  dlclose(m_handle);
}

std::optional<std::string> nvml_library::driver_version() const {
  std::array<char, 96> buf{};
  if (!m_fns->driver_version ||
      m_fns->driver_version(buf.data(), static_cast<unsigned>(buf.size())) != nvml_success)
    return std::nullopt;
  return std::string(buf.data());
}

namespace {

std::optional<nvml_device> device_by_bus(const nvml_library::table& t, const std::string& id) {
  nvml_device d = nullptr;
  if (t.by_bus_id(id.c_str(), &d) != nvml_success) return std::nullopt;
  return d;
}

}  // namespace

std::optional<std::string> nvml_library::mig_mode(const std::string& bus_id) const {
  const auto d = device_by_bus(*m_fns, bus_id);
  unsigned current = 0, pending = 0;
  if (!d || !m_fns->mig_mode || m_fns->mig_mode(*d, &current, &pending) != nvml_success)
    return std::nullopt;
  return current ? "enabled" : "disabled";
}

std::optional<std::string> nvml_library::virtualization_mode(const std::string& bus_id) const {
  const auto d = device_by_bus(*m_fns, bus_id);
  int mode = 0;
  if (!d || !m_fns->virt_mode || m_fns->virt_mode(*d, &mode) != nvml_success) return std::nullopt;
  switch (mode) {
    case 0:
      return "none";
    case 1:
      return "passthrough";
    case 2:
      return "vgpu";
    case 3:
      return "host_vgpu";
    case 4:
      return "host_vsga";
    default:
      return "unknown";
  }
}

std::optional<int> nvml_library::nvlink_links(const std::string& bus_a, const std::string& bus_b,
                                              const std::vector<std::string>& gpus) const {
  if (!m_fns->link_state || !m_fns->link_remote_pci) return std::nullopt;
  const auto a = device_by_bus(*m_fns, bus_a);
  const auto b = device_by_bus(*m_fns, bus_b);
  if (!a || !b) return std::nullopt;
  // Every link NVML knows of, until it says the index is invalid (18 links before r535, up
  // to 36 since).
  auto links_of = [&](nvml_device d) {
    std::vector<nvlink_end> out;
    for (unsigned l = 0; l < nvlink_max_links; ++l) {
      int active = 0;
      const nvml_return r = m_fns->link_state(d, l, &active);
      if (r == nvml_error_invalid_argument) break;
      nvlink_end e;
      e.active = r == nvml_success && active;
      if (e.active) {
        int type = -1;
        if (m_fns->link_remote_type && m_fns->link_remote_type(d, l, &type) == nvml_success)
          e.type = type == nvml_nvlink_device_type_switch   ? nvlink_remote::nvswitch
                   : type == nvml_nvlink_device_type_gpu    ? nvlink_remote::gpu
                   : type == nvml_nvlink_device_type_ibmnpu ? nvlink_remote::other
                                                            : nvlink_remote::unknown;
        nvml_pci_info pci{};
        if (m_fns->link_remote_pci(d, l, &pci) == nvml_success) {
          std::array<char, 32> id{};
          std::snprintf(id.data(), id.size(), "%04x:%02x:%02x.0", pci.domain, pci.bus, pci.device);
          e.remote_bus = normalize_bus_id(id.data());
        }
      }
      out.push_back(std::move(e));
    }
    return out;
  };
  std::vector<std::string> normalized;
  for (const auto& g : gpus)
    normalized.push_back(normalize_bus_id(g));
  return nvlink_links_between(links_of(*a), normalize_bus_id(bus_a), links_of(*b),
                              normalize_bus_id(bus_b), normalized);
}

}  // namespace gpubench::benchmarks::gpu::cuda
