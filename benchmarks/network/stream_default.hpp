// The default number of parallel TCP streams of a bandwidth case: what fills the link, not one
// per core (64 to 128 streams on a large host measured the streams' skew, not the link).
#pragma once

#include <optional>
#include <string>

#include "core/run_context.hpp"

namespace gpubench::benchmarks::network {

struct default_streams {
  unsigned count = 4;
  std::string rule;  // how the count was chosen, for the case's params ("streams_rule")
};

// One stream per 10 Gbit/s of the link (what one core's TCP stream moves comfortably), 2 to 16
// and at most one per core (2 at least); 4 when the link's speed is unknown (loopback,
// virtual NICs), as `iperf3 -P 4` is commonly run. `speed_mbps` as sysfs gives it.
default_streams streams_for_link(std::optional<long long> speed_mbps, unsigned cores);

// The same for the link towards --peer (the interface the route to it leaves through; the
// loopback interface without --peer).
default_streams default_stream_count(const core::run_context& ctx);

}  // namespace gpubench::benchmarks::network
