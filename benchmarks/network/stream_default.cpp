#include "benchmarks/network/stream_default.hpp"

#include <algorithm>
#include <thread>

#include <fmt/format.h>

#include "transports/control/client.hpp"
#include "transports/net/interface_info.hpp"
#include "transports/net/socket.hpp"

namespace gpubench::benchmarks::network {

namespace {

constexpr long long mbps_per_stream = 10000;
constexpr unsigned least = 2, most = 16;

}  // namespace

default_streams streams_for_link(std::optional<long long> speed_mbps, unsigned cores) {
  if (!speed_mbps || *speed_mbps <= 0) return {4, "link speed unknown: 4 streams"};
  const auto wanted = static_cast<unsigned>(
      std::min<long long>((*speed_mbps + mbps_per_stream - 1) / mbps_per_stream, most));
  const unsigned count = std::clamp(std::min(wanted, std::max(cores, least)), least, most);
  return {count, fmt::format("1 per 10 Gbit/s of a {} Gbit/s link, {} to {}, at most 1 per core",
                             static_cast<double>(*speed_mbps) / 1000, least, most)};
}

default_streams default_stream_count(const core::run_context& ctx) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::optional<long long> speed;
  try {
    const auto to =
        ctx.peer ? transports::net::parse_endpoint(*ctx.peer, transports::control::default_port)
                 : transports::net::endpoint_address{"127.0.0.1", 1};
    if (const auto local = transports::net::local_address_towards(to))
      if (const auto i = transports::net::interface_for_address(*local)) speed = i->speed_mbps;
  } catch (const std::exception&) {
    // A --peer that does not parse is reported by the option check; the count stays unknown.
  }
  return streams_for_link(speed, cores);
}

}  // namespace gpubench::benchmarks::network
