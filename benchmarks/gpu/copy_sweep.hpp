// The part every GPU benchmark body shares: run a prepared job over the case's sizes
// through case_state::measure, and describe the GPUs a case crossed.
#pragma once

#include <vector>

#include "benchmarks/gpu/gpu_backend.hpp"
#include "benchmarks/gpu/gpu_topology.hpp"
#include "core/case_state.hpp"

namespace gpubench::benchmarks::gpu {

// Per size: fresh patterns, the runner's samples timed by the job's timer, then the data
// check (outside the timed samples). A failed check fails the case.
// `per_sample_key` names the point extra that records the operations of one sample.
void measure_sweep(core::case_state& state, copy_job& job,
                   const char* per_sample_key = "copies_per_sample");

// The backend, or skip_case with its reason; `min_devices` for pair benchmarks.
std::unique_ptr<backend> require_backend(int min_devices);
core::requirement_status backend_requirement(int min_devices);

// {index, name, pci_bus_id, numa_node, pcie} of each GPU, for a case's context.
nlohmann::json gpus_context(const gpu_topology& t, const std::vector<int>& gpus);

}  // namespace gpubench::benchmarks::gpu
