// What makes points of different runs comparable (docs/history.md "Series"): a point's series
// key (benchmark, params, size, host) and the fingerprint of what must not change under it
// (kernel, CPU, GPU models, drivers, CUDA, NCCL, MPI, NICs with their MTU, RDMA firmware).
// Points of one series with different fingerprints are segments apart, never a regression.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/kind.hpp"

namespace gpubench::history {

// The series key as text: "net.tcp.bandwidth {\"peer\":\"198.18.0.2\"} @65536 on node-a".
// params are written with sorted keys, so the same parameters give the same key. A pair's
// link is its host and the peer its params name.
std::string series_key(const std::string& benchmark, const nlohmann::json& params,
                       std::uint64_t bytes, const std::string& host);

// The parts of a system block (result file "system") that a point of this kind depends on:
// always the kernel, virtualization and CPU model; GPU models and GPU software for cases on
// GPUs; physical NICs (name, driver, MTU), RDMA devices (firmware) and rdma-core for network
// and collective cases; NCCL and MPI for collectives. Absent fields are left out.
nlohmann::json fingerprint_detail(const nlohmann::json& system, const core::measure_kind& kind);

// A short, stable name of a detail: 16 hex digits of its FNV-1a hash.
std::string fingerprint_id(const nlohmann::json& detail);

// What differs between two details, one line per field: "kernel: 6.1.0 -> 6.5.0".
std::vector<std::string> fingerprint_changes(const nlohmann::json& before,
                                             const nlohmann::json& after);

}  // namespace gpubench::history
