#include "transports/collective/allreduce_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "core/errors.hpp"

namespace gpubench::coll {

dtype parse_dtype(std::string_view text) {
  if (text == "float32" || text == "float" || text == "f32") return dtype::float32;
  if (text == "float64" || text == "double" || text == "f64") return dtype::float64;
  if (text == "int32") return dtype::int32;
  if (text == "int64") return dtype::int64;
  throw core::usage_error("--dtype '" + std::string(text) +
                          "': expected float32, float64, int32 or int64");
}

std::string to_string(dtype t) {
  switch (t) {
    case dtype::float32:
      return "float32";
    case dtype::float64:
      return "float64";
    case dtype::int32:
      return "int32";
    case dtype::int64:
      return "int64";
  }
  return "unknown";
}

std::size_t dtype_size(dtype t) {
  return t == dtype::float32 || t == dtype::int32 ? 4 : 8;
}

double allreduce_bus_factor(int ranks) {
  if (ranks <= 1) return 0;
  return 2.0 * (ranks - 1) / ranks;
}

bandwidths allreduce_bandwidths(double bytes, double seconds, int ranks) {
  bandwidths b;
  if (!(seconds > 0)) return b;
  b.algbw = bytes / seconds / 1e9;
  b.busbw = b.algbw * allreduce_bus_factor(ranks);
  return b;
}

int ops_per_sample(double seconds_per_op, int min_ops, double min_seconds, int max_ops,
                   double max_seconds) {
  if (!(seconds_per_op > 0) || !std::isfinite(seconds_per_op)) return min_ops;
  // (1 - 1e-12): 1 ms / 1 us is 1000, not 1001 after rounding.
  const double wanted = std::ceil(min_seconds / seconds_per_op * (1 - 1e-12));
  int n = static_cast<int>(std::clamp(wanted, static_cast<double>(min_ops),
                                      static_cast<double>(std::max(min_ops, max_ops))));
  if (max_seconds > 0 && n * seconds_per_op > max_seconds)
    n = static_cast<int>(std::max(1.0, std::floor(max_seconds / seconds_per_op)));
  return n;
}

std::optional<std::string> single_rank_reason(int ranks) {
  if (ranks >= 2) return std::nullopt;
  return "one rank: allreduce over a single rank moves no data between ranks (a copy or a "
         "no-op), so it has no bus bandwidth; measure 2 or more ranks";
}

double check_value(int rank, std::uint64_t index, std::uint32_t seed) {
  // Values 0..16: sums over a million ranks stay exact even in float32 (below 2^24).
  return static_cast<double>((static_cast<std::uint64_t>(rank) * 7 + index * 13 + seed) % 17);
}

double expected_sum(int ranks, std::uint64_t index, std::uint32_t seed) {
  double sum = 0;
  for (int r = 0; r < ranks; ++r)
    sum += check_value(r, index, seed);
  return sum;
}

namespace {

template <typename T>
void fill_typed(std::span<std::byte> buffer, int rank, std::uint32_t seed) {
  const std::size_t n = buffer.size() / sizeof(T);
  for (std::size_t i = 0; i < n; ++i) {
    const T v = static_cast<T>(check_value(rank, i, seed));
    std::memcpy(buffer.data() + i * sizeof(T), &v, sizeof(T));
  }
}

template <typename T>
std::uint64_t wrong_typed(std::span<const std::byte> buffer, int ranks, std::uint32_t seed) {
  const std::size_t n = buffer.size() / sizeof(T);
  // The expected sum is periodic in the index (period 17): compute one period once.
  T period[17];
  for (std::uint64_t i = 0; i < 17; ++i)
    period[i] = static_cast<T>(expected_sum(ranks, i, seed));
  std::uint64_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, buffer.data() + i * sizeof(T), sizeof(T));
    if (v != period[i % 17]) ++wrong;
  }
  return wrong;
}

template <typename F>
auto visit(dtype t, F&& f) {
  switch (t) {
    case dtype::float32:
      return f(float{});
    case dtype::float64:
      return f(double{});
    case dtype::int32:
      return f(std::int32_t{});
    case dtype::int64:
      return f(std::int64_t{});
  }
  return f(float{});
}

}  // namespace

void fill_check(std::span<std::byte> buffer, dtype type, int rank, std::uint32_t seed) {
  visit(type, [&](auto tag) { fill_typed<decltype(tag)>(buffer, rank, seed); });
}

std::uint64_t count_wrong(std::span<const std::byte> buffer, dtype type, int ranks,
                          std::uint32_t seed) {
  return visit(type, [&](auto tag) { return wrong_typed<decltype(tag)>(buffer, ranks, seed); });
}

}  // namespace gpubench::coll
