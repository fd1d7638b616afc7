// The arithmetic every collective measurement shares, nccl-tests' way: data types as the
// command line names them, bandwidths from an operation's bus factor, operations per sample,
// and the data-check pattern the operations fill and verify with.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "transports/collective_backend.hpp"

namespace gpubench::benchmarks::collectives {

using transports::dtype;
using transports::dtype_size;
using transports::to_string;

// "float32" (also "float", "f32"), "float64", "int32", "int64"; throws usage_error.
dtype parse_dtype(std::string_view text);

struct bandwidths {
  double algbw = 0;  // GB/s: message bytes / time
  double busbw = 0;  // GB/s: algbw * the operation's bus factor
};
// Zero bandwidths for a time that is not positive.
bandwidths bandwidths_of(double bytes, double seconds, double bus_factor);

// Collective operations per sample, from the time one operation took (a calibration run):
// at least `min_ops` (nccl-tests times 20), more when that is shorter than `min_seconds`, so
// launch latency and the skew of the barrier before each sample stay out of the result; at
// most `max_ops`, and fewer than `min_ops` only when those would take longer than
// `max_seconds` (a slow link: a sample must end well inside the stall timeout). An unknown
// time (0 or not finite) gives `min_ops`.
int ops_per_sample(double seconds_per_op, int min_ops = 20, double min_seconds = 1e-3,
                   int max_ops = 100000, double max_seconds = 0);

// The data check's pattern: rank r fills element i with check_value(r, i, seed), small
// integers (0..16), so sums over many ranks are exact in every data type and the expected
// result is known. Periodic in i with period check_period.
constexpr std::uint64_t check_period = 17;
double check_value(int rank, std::uint64_t index, std::uint32_t seed);

// One period of rank's check values from element `first` on: what a block of rank's buffer
// that starts at element `first` holds (the expected values of count_mismatches).
std::array<double, check_period> check_pattern(int rank, std::uint64_t first, std::uint32_t seed);

// Elements [first, first + count) of a buffer of `type` elements.
std::span<std::byte> element_block(std::span<std::byte> buffer, dtype type, std::uint64_t first,
                                   std::uint64_t count);
std::span<const std::byte> element_block(std::span<const std::byte> buffer, dtype type,
                                         std::uint64_t first, std::uint64_t count);

// Fills `buffer` (elements of `type`) with rank's check values.
void fill_check(std::span<std::byte> buffer, dtype type, int rank, std::uint32_t seed);

// What a data check found in one rank's receive buffer: how many elements are wrong and the
// first of them (its index in the buffer, the value found and the value the call must leave),
// so a failure can name the element, not only count.
struct mismatches {
  std::uint64_t count = 0;
  std::uint64_t first_index = 0;  // meaningful when count > 0
  double got = 0;
  double want = 0;
  // Adds the mismatches of a block that starts at element `offset` of the buffer; the first
  // mismatch stays the one of the lowest index (blocks are added in order).
  void add(const mismatches& block, std::uint64_t offset);
};

// Elements i of `buffer` that differ from expected[i % expected.size()] (as `type`).
mismatches find_mismatches(std::span<const std::byte> buffer, dtype type,
                           std::span<const double> expected);
std::uint64_t count_mismatches(std::span<const std::byte> buffer, dtype type,
                               std::span<const double> expected);

}  // namespace gpubench::benchmarks::collectives
