// The scaling table of one launch: bus bandwidth at each node count relative to the
// smallest one, for the largest (bandwidth-bound) and smallest (latency-bound) messages.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpubench::coll {

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

// Rows in node-count order with ratios against the baseline: the first row whose
// communicator has two or more ranks (a single rank moves no bus bytes, so its busbw is 0
// by definition and cannot be a denominator). No baseline: ratios are null.
nlohmann::json scaling_table(const std::vector<scaling_row>& rows);

}  // namespace gpubench::coll
