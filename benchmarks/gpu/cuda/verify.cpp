#include "benchmarks/gpu/cuda/verify.hpp"

#include <cstring>
#include <stdexcept>

#include "benchmarks/gpu/cuda/cuda_check.hpp"
#include "benchmarks/gpu/cuda/kernels.hpp"
#include "benchmarks/gpu/pattern.hpp"
#include "core/units.hpp"

namespace gpubench::benchmarks::gpu::cuda {

void fill_host(void* buf, std::uint64_t bytes, std::uint32_t seed) {
  auto* w = static_cast<std::uint32_t*>(buf);
  for (std::uint64_t i = 0; i < bytes / 4; ++i)
    w[i] = pattern_word(i, seed);
}

std::uint64_t host_mismatches(const void* buf, std::uint64_t bytes, std::uint32_t seed) {
  const auto* w = static_cast<const std::uint32_t*>(buf);
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < bytes / 4; ++i)
    wrong += w[i] != pattern_word(i, seed) ? 1 : 0;
  return wrong;
}

void fill_device(const stream& s, void* buf, std::uint64_t bytes, std::uint32_t seed) {
  select_device(s.device());
  launch_fill(s.get(), buf, bytes / 4, seed);
  s.synchronize("filling a buffer with its pattern");
}

std::uint64_t device_mismatches(const stream& s, const void* buf, std::uint64_t bytes,
                                std::uint32_t seed) {
  select_device(s.device());
  const device_memory counter(s.device(), sizeof(unsigned long long));
  auto* errors = static_cast<unsigned long long*>(counter.get());
  check(cudaMemsetAsync(errors, 0, sizeof *errors, s.get()), "clearing the error counter");
  launch_check(s.get(), buf, bytes / 4, seed, errors);
  unsigned long long wrong = 0;
  check(cudaMemcpyAsync(&wrong, errors, sizeof wrong, cudaMemcpyDeviceToHost, s.get()),
        "reading the error counter");
  // The counter is only valid once the stream is drained.
  s.synchronize("checking the copied data");
  return wrong;
}

void expect_no_mismatch(std::uint64_t wrong, std::uint64_t bytes, const std::string& what) {
  if (wrong == 0) return;
  throw std::runtime_error(what + ": " + std::to_string(wrong) + " of " +
                           std::to_string(bytes / 4) + " words differ from the source after " +
                           core::format_bytes(bytes) + " copies; the measurement is not valid");
}

}  // namespace gpubench::benchmarks::gpu::cuda
