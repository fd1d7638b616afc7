#include "benchmarks/network/cpu_cost.hpp"

#include <cmath>
#include <string>

namespace gpubench::benchmarks::network {

namespace {

void add_machine(core::point_result& p, const core::machine_cpu& m, const std::string& end,
                 double gb) {
  p.extra["machine_cpu_user_" + end] = m.user;
  p.extra["machine_cpu_system_" + end] = m.system;
  p.extra["machine_cpu_irq_" + end] = m.irq;
  p.extra["machine_cpu_softirq_" + end] = m.softirq;
  p.extra["machine_cpu_seconds_per_gb_" + end] = m.total() / gb;
  if (const double busy = m.busy_fraction(); std::isfinite(busy))
    p.extra["machine_cpu_busy_" + end] = busy;
}

}  // namespace

void add_cpu_costs(core::point_result& p, const transports::control::point_cost& cost) {
  const double gb = static_cast<double>(cost.client.bytes) / 1e9;
  const double messages = static_cast<double>(cost.client.messages);
  if (gb <= 0 || messages <= 0) return;
  const auto& client = cost.client;
  const auto& server = cost.server;
  const double threads = client.cpu.total() + server.cpu.total();
  p.extra["cpu_seconds_per_gb"] = threads / gb;
  p.extra["cpu_seconds_per_gb_client"] = client.cpu.total() / gb;
  p.extra["cpu_seconds_per_gb_server"] = server.cpu.total() / gb;
  p.extra["cpu_seconds_per_message"] = threads / messages;
  p.extra["thread_cpu_user_client"] = client.cpu.user;
  p.extra["thread_cpu_system_client"] = client.cpu.system;
  p.extra["thread_cpu_user_server"] = server.cpu.user;
  p.extra["thread_cpu_system_server"] = server.cpu.system;

  if (client.machine_cpu_time) add_machine(p, *client.machine_cpu_time, "client", gb);
  if (server.machine_cpu_time) add_machine(p, *server.machine_cpu_time, "server", gb);
  // Both ends, each machine once: one kernel's counters read at both ends would count every
  // core's time twice. Without both ends' kernels named, which it is cannot be told.
  if (!client.machine_cpu_time || !server.machine_cpu_time || client.machine.empty() ||
      server.machine.empty())
    return;
  const bool same_host = client.machine == server.machine;
  const double machines = same_host
                              ? client.machine_cpu_time->total()
                              : client.machine_cpu_time->total() + server.machine_cpu_time->total();
  p.extra["machine_cpu_same_host"] = same_host ? 1 : 0;
  p.extra["machine_cpu_seconds_per_gb"] = machines / gb;
  p.extra["machine_cpu_seconds_per_message"] = machines / messages;
}

}  // namespace gpubench::benchmarks::network
