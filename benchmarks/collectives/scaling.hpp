// The scaling table of one launch: bus bandwidth at each node count relative to the
// smallest one and to the smallest of two or more nodes, for the largest (bandwidth-bound) and
// smallest (latency-bound) messages.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpubench::benchmarks::collectives {

// One node count's summary, from the medians of its points.
struct scaling_row {
  int nodes = 0;
  int ranks = 0;
  std::uint64_t large_bytes = 0;
  double large_busbw = 0;  // GB/s
  std::uint64_t small_bytes = 0;
  double small_time_us = 0;
  double small_busbw = 0;
};

// Rows in node-count order with ratios against two baselines, each named in the table:
// `baseline`, the first row whose communicator has two or more ranks (a single rank moves no
// bus bytes and is never a denominator), and `multi_node_baseline`, the first row of two or
// more nodes: with several GPUs per node the first is one node over NVLink, against which
// two nodes look like a collapse, while the second shows how the network scales. No
// baseline: its ratios are null.
nlohmann::json scaling_table(const std::vector<scaling_row>& rows);

}  // namespace gpubench::benchmarks::collectives
