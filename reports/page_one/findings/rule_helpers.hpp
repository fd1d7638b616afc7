// What the finding rules read from a result file: case parameters, the figure at a case's
// largest size, the GPUs and pairs of the system block, and how figures are written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace gpubench::reports::page_one::findings {

// An integer parameter (gpu, src, dst, numa, streams, nodes), or nothing when absent or not one.
std::optional<long long> int_param(const core::case_result& c, const std::string& key);
// A string parameter ("pinned", "ce", "p2p"), or `fallback` when absent or not a string.
std::string text_param(const core::case_result& c, const std::string& key,
                       const std::string& fallback = "");

// The median at the case's largest measured size, or nothing (not ok, or no points).
std::optional<double> largest_median(const core::case_result& c);
// The largest measured size of a case (0 without points).
std::uint64_t largest_bytes(const core::case_result& c);

// Where a collective's library says which path it took (NCCL_DEBUG=INFO for NCCL, Open MPI's
// verbose MCA parameters for MPI): a "what to check" that fits the case's backend.
std::string collective_path_check(const core::case_result& c);

// Measured (status ok, with points) cases of one kind, in file order.
std::vector<const core::case_result*> measured_cases(const core::result_file& f,
                                                     const core::kind_query& kind);

// The directions of host-GPU copies, in the order the rules list them.
inline constexpr std::string_view host_copy_directions[] = {
    core::directions::both, core::directions::to_host, core::directions::to_gpu};
// "host->GPU", "GPU->host", "both ways".
std::string direction_text(std::string_view direction);
// Bandwidth of host-GPU copies in one direction.
core::kind_query host_copies(std::string_view direction);

// The system block's entry for the GPU with this CUDA index, or nullptr.
const nlohmann::json* gpu_entry(const core::result_file& f, long long index);
// The GPU's NUMA node from the system block, else from a case context naming it.
std::optional<long long> gpu_numa_node(const core::result_file& f, long long index);

// A PCIe link state as recorded ({"generation": 5, "width": 16}) or as text ("gen5 x16").
struct pcie_link {
  std::optional<int> generation;
  std::optional<int> width;
};
pcie_link pcie_link_of(const nlohmann::json& j);
// "PCIe 5.0 x16", with "?" for what is unknown.
std::string pcie_text(const pcie_link& l);

// Median of values (NaN for none).
double median_of(std::vector<double> values);

// "12.3 GB/s", "0.92 us": a figure with its unit.
std::string figure(double value, const std::string& unit);
// "38 %": a fraction as a whole percentage.
std::string percent(double fraction);

// " at 64M"; nothing for 0 bytes, a size the result does not state (an imported nvbandwidth
// figure).
std::string at_size(std::uint64_t bytes);

}  // namespace gpubench::reports::page_one::findings
