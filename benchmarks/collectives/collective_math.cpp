#include "benchmarks/collectives/collective_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace gpubench::benchmarks::collectives {

dtype parse_dtype(std::string_view text) {
  if (text == "float32" || text == "float" || text == "f32") return dtype::float32;
  if (text == "float64" || text == "double" || text == "f64") return dtype::float64;
  if (text == "int32") return dtype::int32;
  if (text == "int64") return dtype::int64;
  throw core::usage_error("--dtype '" + std::string(text) +
                          "': expected float32, float64, int32 or int64");
}

bandwidths bandwidths_of(double bytes, double seconds, double bus_factor) {
  bandwidths b;
  if (!(seconds > 0)) return b;
  b.algbw = bytes / seconds / 1e9;
  b.busbw = b.algbw * bus_factor;
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

double check_value(int rank, std::uint64_t index, std::uint32_t seed) {
  // Values 0..16: sums over a million ranks stay exact even in float32 (below 2^24).
  return static_cast<double>((static_cast<std::uint64_t>(rank) * 7 + index * 13 + seed) %
                             check_period);
}

std::array<double, check_period> check_pattern(int rank, std::uint64_t first, std::uint32_t seed) {
  std::array<double, check_period> out{};
  for (std::uint64_t i = 0; i < check_period; ++i)
    out[i] = check_value(rank, first + i, seed);
  return out;
}

std::span<std::byte> element_block(std::span<std::byte> buffer, dtype type, std::uint64_t first,
                                   std::uint64_t count) {
  const std::size_t e = dtype_size(type);
  return buffer.subspan(first * e, count * e);
}

std::span<const std::byte> element_block(std::span<const std::byte> buffer, dtype type,
                                         std::uint64_t first, std::uint64_t count) {
  const std::size_t e = dtype_size(type);
  return buffer.subspan(first * e, count * e);
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
mismatches mismatches_typed(std::span<const std::byte> buffer, std::span<const double> expected) {
  const std::size_t n = buffer.size() / sizeof(T);
  // Converted once: each element is compared as the type it is stored in.
  std::vector<T> want(expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    want[i] = static_cast<T>(expected[i]);
  mismatches out;
  for (std::size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, buffer.data() + i * sizeof(T), sizeof(T));
    if (v == want[i % want.size()]) continue;
    if (out.count++ == 0) {
      out.first_index = i;
      out.got = static_cast<double>(v);
      out.want = static_cast<double>(want[i % want.size()]);
    }
  }
  return out;
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

void mismatches::add(const mismatches& block, std::uint64_t offset) {
  if (block.count == 0) return;
  if (count == 0) {
    first_index = offset + block.first_index;
    got = block.got;
    want = block.want;
  }
  count += block.count;
}

mismatches find_mismatches(std::span<const std::byte> buffer, dtype type,
                           std::span<const double> expected) {
  if (expected.empty()) return {};
  return visit(type, [&](auto tag) { return mismatches_typed<decltype(tag)>(buffer, expected); });
}

std::uint64_t count_mismatches(std::span<const std::byte> buffer, dtype type,
                               std::span<const double> expected) {
  return find_mismatches(buffer, type, expected).count;
}

}  // namespace gpubench::benchmarks::collectives
