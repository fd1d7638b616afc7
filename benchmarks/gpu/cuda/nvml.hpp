// NVML loaded at run time with dlopen("libnvidia-ml.so.1"): the driver ships it, the
// toolkit does not, so the binary must start without it. A typed table of the few calls used.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpubench::benchmarks::gpu::cuda {

class nvml_library {
 public:
  // The library, initialised; or nullptr with `why_not` saying what failed.
  static std::unique_ptr<nvml_library> open(std::string& why_not);
  ~nvml_library();
  nvml_library(const nvml_library&) = delete;
  nvml_library& operator=(const nvml_library&) = delete;

  std::optional<std::string> driver_version() const;
  // By PCI bus id ("0000:3b:00.0"); unset when NVML does not know or support it.
  std::optional<std::string> mig_mode(const std::string& bus_id) const;
  std::optional<std::string> virtualization_mode(const std::string& bus_id) const;
  // Active NVLinks between two GPUs: direct links, plus links through NVSwitches (the
  // fewer of the two GPUs' switch links; nvlink_count.hpp). `gpus` are the bus ids of all
  // GPUs, to tell a link to a switch from one to a third GPU. Unset when NVML cannot answer.
  std::optional<int> nvlink_links(const std::string& bus_a, const std::string& bus_b,
                                  const std::vector<std::string>& gpus) const;

  struct table;  // the resolved functions, defined in nvml.cpp

 private:
  nvml_library(void* handle, std::unique_ptr<table> fns);
  void* m_handle;
  std::unique_ptr<table> m_fns;
};

}  // namespace gpubench::benchmarks::gpu::cuda
