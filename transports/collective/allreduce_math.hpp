// The arithmetic of an allreduce measurement, nccl-tests' way: data types, bytes moved, the
// bus-bandwidth factor, times reduced across ranks, and the data-check pattern.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gpubench::coll {

enum class dtype { float32, float64, int32, int64 };

// "float32" (also "float", "f32"), "float64", "int32", "int64"; throws usage_error.
dtype parse_dtype(std::string_view text);
std::string to_string(dtype t);
std::size_t dtype_size(dtype t);

// Allreduce's bus-bandwidth factor 2(n-1)/n, with n the ranks of the communicator under test
// (never the world size): each rank sends and receives 2(n-1)/n of the buffer at best, so
// busbw is comparable with the link rate whatever n is. 0 for a single rank.
double allreduce_bus_factor(int ranks);

struct bandwidths {
  double algbw = 0;  // GB/s: buffer bytes / time
  double busbw = 0;  // GB/s: algbw * bus factor
};
bandwidths allreduce_bandwidths(double bytes, double seconds, int ranks);

// One sample's time as seen by the ranks of the communicator: the average is what the
// bandwidth is computed from; min and max show the spread between ranks.
struct rank_times {
  double avg = 0;
  double min = 0;
  double max = 0;
};

// Allreduce operations per sample, from the time one operation took (a calibration run):
// at least `min_ops` (nccl-tests times 20), more when that is shorter than `min_seconds`, so
// launch latency and the skew of the barrier before each sample stay out of the result; at
// most `max_ops`, and fewer than `min_ops` only when those would take longer than
// `max_seconds` (a slow link: a sample must end well inside the stall timeout). An unknown
// time (0 or not finite) gives `min_ops`.
int ops_per_sample(double seconds_per_op, int min_ops = 20, double min_seconds = 1e-3,
                   int max_ops = 100000, double max_seconds = 0);

// Why a case of `ranks` ranks has no bus bandwidth (allreduce over one rank is a copy or a
// no-op, and busbw = algbw x 2(n-1)/n is 0): the case is skipped with this reason, so it
// never prints a bandwidth, enters a chart or becomes a scaling baseline. Nothing for n >= 2.
std::optional<std::string> single_rank_reason(int ranks);

// The data check: rank r fills element i with check_value(r, i, seed), small integers, so
// that the sum over ranks is exact in every data type and the expected result is known.
double check_value(int rank, std::uint64_t index, std::uint32_t seed);
double expected_sum(int ranks, std::uint64_t index, std::uint32_t seed);

// Fills `buffer` (count elements of `type`) with rank's check values.
void fill_check(std::span<std::byte> buffer, dtype type, int rank, std::uint32_t seed);
// Counts elements of the reduced `buffer` that differ from the expected sum over `ranks`.
std::uint64_t count_wrong(std::span<const std::byte> buffer, dtype type, int ranks,
                          std::uint32_t seed);

}  // namespace gpubench::coll
