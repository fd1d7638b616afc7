// PCIe relaxed ordering on an RDMA memory region (IBV_ACCESS_RELAXED_ORDERING), as perftest asks
// for it by default: on hosts whose root complex orders PCIe writes strictly (AMD EPYC, Grace,
// GPUDirect through a switch), write and read bandwidth at 200-400 Gb/s stays below the line
// without it. The flag is optional to the provider, but kernels and providers older than
// rdma-core's optional access flags refuse the registration (EINVAL): then the region is
// registered without it, and the note says so. Pure logic, so the fallback is tested without a
// device; the verbs call is the caller's.
#pragma once

#include <exception>
#include <string>

namespace gpubench::transports::rdma {

// IBV_ACCESS_RELAXED_ORDERING is an enumerator, which #ifdef cannot see: the build's configure
// step compiles a probe and sets GPUBENCH_IBV_RELAXED_ORDERING.
#if GPUBENCH_IBV_RELAXED_ORDERING
constexpr bool relaxed_ordering_in_headers = true;
#else
constexpr bool relaxed_ordering_in_headers = false;
#endif

// What was asked for and what the registration got, for the result's context.
struct relaxed_ordering_outcome {
  bool used = false;  // the region was registered with the flag
  std::string why;    // how that came about, in words
};

// Registers through `reg(bool relaxed)` (returns the region, throws on failure): with the flag
// when `wanted` and the headers the build used define it (`available`); when that registration
// fails, once more without, and `out` says why. A failure without the flag is the real error
// and propagates.
template <typename Register>
auto register_with_relaxed_ordering(Register&& reg, bool wanted, bool available,
                                    relaxed_ordering_outcome& out) -> decltype(reg(false)) {
  out = {};
  if (!wanted) {
    out.why = "off (--rdma-relaxed-ordering off)";
    return reg(false);
  }
  if (!available) {
    out.why =
        "off: built with rdma-core headers that have no IBV_ACCESS_RELAXED_ORDERING (an older "
        "rdma-core)";
    return reg(false);
  }
  std::string refused;
  try {
    auto region = reg(true);
    out.used = true;
    out.why = "on (IBV_ACCESS_RELAXED_ORDERING; the device applies it where it supports it)";
    return region;
  } catch (const std::exception& e) {
    refused = e.what();
  }
  auto region = reg(false);
  out.why = "off: the registration with IBV_ACCESS_RELAXED_ORDERING failed (" + refused +
            "), so the region was registered without it (an older kernel or provider)";
  return region;
}

}  // namespace gpubench::transports::rdma
