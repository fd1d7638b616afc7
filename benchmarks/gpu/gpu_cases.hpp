// The cases of the GPU benchmarks (parameter objects) and their translation into backend
// requests: pure functions of the topology, so the matrices are tested without a GPU.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchmarks/gpu/gpu_backend.hpp"
#include "benchmarks/gpu/gpu_topology.hpp"

namespace gpubench::benchmarks::gpu {

// gpu.h2d / gpu.d2h / gpu.bidir: every GPU, then all GPUs at once ("gpu": "all") when
// there are several; pinned memory with both engines on every NUMA node; pageable memory
// with the copy engine, one GPU one way only (pageable copies are synchronous to the host,
// so "all at once" and "both ways" would only measure them in turn).
std::vector<nlohmann::json> host_copy_cases(int gpu_count, const std::vector<unsigned>& nodes,
                                            host_direction direction);
host_copy_request host_copy_request_of(const nlohmann::json& params, int gpu_count,
                                       host_direction direction, std::uint64_t max_bytes);

// gpu.p2p.bandwidth: every ordered pair x engine x op (write/read) x direction (uni/bidir)
// with peer access; plus the copy engine with peer access off (staged through the host),
// so each variant is one src x dst matrix.
std::vector<nlohmann::json> p2p_bandwidth_cases(const gpu_topology& t);
p2p_copy_request p2p_request_of(const nlohmann::json& params, std::uint64_t max_bytes);

// gpu.host.latency: every GPU x NUMA node; gpu.p2p.latency: every ordered pair.
std::vector<nlohmann::json> host_latency_cases(int gpu_count, const std::vector<unsigned>& nodes);
std::vector<nlohmann::json> p2p_latency_cases(const gpu_topology& t);

}  // namespace gpubench::benchmarks::gpu
