#include "transports/rdma/buffer_plan.hpp"

#include <algorithm>

namespace gpubench::transports::rdma {

namespace {

std::uint64_t round_up(std::uint64_t n, std::uint64_t granule) {
  return (n + granule - 1) / granule * granule;
}

}  // namespace

std::string size_text(std::uint64_t bytes) {
  constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  std::uint64_t v = bytes;
  while (u < 4 && v >= 1024 && v % 1024 == 0) {
    v /= 1024;
    ++u;
  }
  return std::to_string(v) + " " + units[u];
}

buffer_plan plan_buffers(std::uint64_t requested, std::uint64_t granule, std::uint64_t max_mr_size,
                         std::uint64_t max_msg_size, const std::string& device) {
  granule = std::max<std::uint64_t>(granule, 1);
  buffer_plan plan;
  plan.largest_message = requested;
  if (max_msg_size > 0 && plan.largest_message > max_msg_size) {
    plan.largest_message = max_msg_size;
    plan.limit = device + " carries at most " + std::to_string(max_msg_size) +
                 " bytes in one work request (max_msg_sz)";
  }
  // Each region is registered on its own, so a region (not both together) must fit: the case
  // keeps a 1 GiB message on a device that registers at most 1 GiB at once.
  if (max_mr_size > 0 && round_up(plan.largest_message, granule) > max_mr_size) {
    plan.largest_message = max_mr_size / granule * granule;
    plan.limit = device + " registers at most " + std::to_string(max_mr_size) +
                 " bytes in one memory region (max_mr_size), and each of the two buffers is " +
                 "one region rounded up to " + size_text(granule);
  }
  plan.region_bytes = round_up(plan.largest_message, granule);
  return plan;
}

}  // namespace gpubench::transports::rdma
