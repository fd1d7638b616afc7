// A point's CPU cost from both ends' totals, written into its extra: the transport threads'
// own time (as getrusage counts it) and each end's whole machine (as /proc/stat counts it),
// the latter combined once per machine. TCP and RDMA go through this one function.
#pragma once

#include "core/result.hpp"
#include "transports/control/client.hpp"

namespace gpubench::benchmarks::network {

// Writes, per GB the client moved (and per message):
// - cpu_seconds_per_gb (+ _client, _server), cpu_seconds_per_message: the threads' own time;
//   thread_cpu_{user,system}_{client,server}: its seconds.
// - machine_cpu_{user,system,irq,softirq}_{client,server}: each end's whole-machine seconds,
//   machine_cpu_seconds_per_gb_{client,server}, when that end measured them, and
//   machine_cpu_busy_{client,server}: the share of its cores' time that was work (near 1: a
//   saturated machine, whose figure is mostly other work).
// - machine_cpu_seconds_per_gb and machine_cpu_seconds_per_message: both ends together, when
//   both measured them; machine_cpu_same_host (1 or 0) says whether the two ends were one
//   kernel (same boot id), whose time then counts once (the client's interval, which holds
//   the server's but for the message that says ready), not twice.
// Nothing when the client moved nothing.
void add_cpu_costs(core::point_result& p, const transports::control::point_cost& cost);

}  // namespace gpubench::benchmarks::network
