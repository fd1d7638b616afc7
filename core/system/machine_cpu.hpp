// Whole-machine CPU time from /proc/stat, the way netperf's -c/-C count a host: every core's
// user, system, irq and softirq time, so the receive work a NIC's interrupts and softirqs do on
// other cores (NAPI, GRO, the TCP receive path) is counted beside the benchmark's own thread.
//
// Design note.
// - /proc/stat belongs to the kernel, not to a network namespace or a container: two ends on
//   one kernel (loopback, namespaces, containers) read the same counters. `machine_id` (the
//   kernel's boot id) tells whether two ends share them, so the machine is counted once.
// - The counters include every other process on the machine. Nothing is subtracted: an idle
//   rate measured before a point is a guess at what the others did during it, and on a quiet
//   machine (the one a benchmark should run on) it is near zero (docs/methodology.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gpubench::core {

// CPU seconds of the whole machine (all cores), by the kind of work; idle, iowait and steal
// (time a hypervisor gave to others) are not work of this machine's and are kept apart.
struct machine_cpu {
  double user = 0;  // user + nice (guests' time is inside it)
  double system = 0;
  double irq = 0;
  double softirq = 0;
  double idle = 0;  // idle + iowait + steal: the cores' time without work of this machine's
  double total() const { return user + system + irq + softirq; }
  // The share of the cores' time that was work: near 1, the machine was saturated and its
  // figure says as much about other work as about the benchmark's. NaN when nothing elapsed.
  double busy_fraction() const;
  machine_cpu& operator+=(const machine_cpu& o);
};
machine_cpu operator-(const machine_cpu& a, const machine_cpu& b);

nlohmann::json to_json(const machine_cpu& m);
// Throws std::runtime_error when a field is missing, not a number or negative.
machine_cpu machine_cpu_from_json(const nlohmann::json& j);

// The first line of /proc/stat ("cpu  user nice system idle iowait irq softirq steal ..."),
// counted in `ticks_per_second` (USER_HZ); nullopt when it is not that line.
std::optional<machine_cpu> parse_proc_stat(std::string_view first_line, double ticks_per_second);

// A snapshot of this machine's counters; nullopt when /proc/stat cannot be read.
std::optional<machine_cpu> read_machine_cpu();

// The kernel's boot id (/proc/sys/kernel/random/boot_id): equal on two ends that share one
// /proc/stat; empty when unreadable.
std::string machine_id();

// The machine's CPU time over an interval: started at construction (or restart()), read by
// elapsed(). Nothing when /proc/stat could not be read at either end.
class machine_cpu_interval {
 public:
  machine_cpu_interval() : m_start(read_machine_cpu()) {}
  void restart() { m_start = read_machine_cpu(); }
  std::optional<machine_cpu> elapsed() const;

 private:
  std::optional<machine_cpu> m_start;
};

}  // namespace gpubench::core
