#include "benchmarks/gpu/gpu_cases.hpp"

#include <algorithm>
#include <numeric>
#include <string>

namespace gpubench::benchmarks::gpu {

namespace {

std::string link_param(const gpu_topology& t, int a, int b) {
  return t.link(a, b).kind;  // "nvlink" | "pcie" | "unknown" (NVML absent)
}

}  // namespace

std::vector<nlohmann::json> host_copy_cases(int gpu_count, const std::vector<unsigned>& nodes,
                                            host_direction direction) {
  std::vector<nlohmann::json> gpus;
  for (int g = 0; g < gpu_count; ++g)
    gpus.emplace_back(g);
  if (gpu_count > 1) gpus.emplace_back("all");
  std::vector<nlohmann::json> out;
  for (const auto& gpu : gpus)
    for (const char* memory : {"pinned", "pageable"})
      for (const char* engine : {"ce", "sm"}) {
        const bool pageable = std::string(memory) == "pageable";
        if (pageable &&
            (std::string(engine) == "sm" || gpu.is_string() || direction == host_direction::bidir))
          continue;
        for (const unsigned node : nodes)
          out.push_back({{"gpu", gpu}, {"memory", memory}, {"engine", engine}, {"numa", node}});
      }
  return out;
}

host_copy_request host_copy_request_of(const nlohmann::json& params, int gpu_count,
                                       host_direction direction, std::uint64_t max_bytes) {
  host_copy_request r;
  const auto& gpu = params.at("gpu");
  if (gpu.is_string()) {
    r.gpus.resize(static_cast<std::size_t>(gpu_count));
    std::iota(r.gpus.begin(), r.gpus.end(), 0);
  } else {
    r.gpus = {gpu.get<int>()};
  }
  r.direction = direction;
  r.memory = params.at("memory") == "pageable" ? host_memory::pageable : host_memory::pinned;
  r.engine = params.at("engine") == "sm" ? copy_engine::sm : copy_engine::ce;
  r.numa = params.at("numa").get<unsigned>();
  r.max_bytes = max_bytes;
  return r;
}

std::vector<nlohmann::json> p2p_bandwidth_cases(const gpu_topology& t) {
  const int n = static_cast<int>(t.devices.size());
  std::vector<nlohmann::json> out;
  struct variant {
    const char* engine;
    const char* op;
    const char* direction;
    const char* access;
  };
  std::vector<variant> variants;
  for (const char* engine : {"ce", "sm"})
    for (const char* op : {"write", "read"})
      for (const char* direction : {"uni", "bidir"})
        variants.push_back({engine, op, direction, "p2p"});
  variants.push_back({"ce", "write", "uni", "staged"});
  variants.push_back({"ce", "write", "bidir", "staged"});
  // Variant outermost: each src x dst matrix is measured in one stretch.
  for (const auto& v : variants)
    for (int src = 0; src < n; ++src)
      for (int dst = 0; dst < n; ++dst) {
        if (src == dst) continue;
        out.push_back({{"src", src},
                       {"dst", dst},
                       {"engine", v.engine},
                       {"op", v.op},
                       {"direction", v.direction},
                       {"access", v.access},
                       {"link", link_param(t, src, dst)}});
      }
  return out;
}

p2p_copy_request p2p_request_of(const nlohmann::json& params, std::uint64_t max_bytes) {
  p2p_copy_request r;
  r.src = params.at("src").get<int>();
  r.dst = params.at("dst").get<int>();
  r.engine = params.at("engine") == "sm" ? copy_engine::sm : copy_engine::ce;
  r.read = params.at("op") == "read";
  r.bidir = params.at("direction") == "bidir";
  r.peer_access = params.at("access") == "p2p";
  r.max_bytes = max_bytes;
  return r;
}

std::vector<nlohmann::json> host_latency_cases(int gpu_count, const std::vector<unsigned>& nodes) {
  std::vector<nlohmann::json> out;
  for (int g = 0; g < gpu_count; ++g)
    for (const unsigned node : nodes)
      out.push_back({{"gpu", g}, {"numa", node}});
  return out;
}

std::vector<nlohmann::json> p2p_latency_cases(const gpu_topology& t) {
  const int n = static_cast<int>(t.devices.size());
  std::vector<nlohmann::json> out;
  for (int g = 0; g < n; ++g)
    for (int peer = 0; peer < n; ++peer)
      if (g != peer) out.push_back({{"gpu", g}, {"peer", peer}, {"link", link_param(t, g, peer)}});
  return out;
}

}  // namespace gpubench::benchmarks::gpu
