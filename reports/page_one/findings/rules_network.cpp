// net.rdma_vs_tcp: what RDMA buys over TCP on this path (latency ratio, bandwidth, CPU cost per
// GB between like completion modes, docs/rdma.md); net.tcp_single_stream: one TCP stream far
// below line rate where several streams reach it (one core's worth of TCP, not the network).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reports/model/cpu_cost.hpp"
#include "reports/model/series.hpp"
#include "reports/model/text_format.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"
#include "reports/views/cpu_cost_view.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;
using namespace views;

namespace {

// The best median per size over the measured cases of one benchmark.
std::map<std::uint64_t, double> best_by_size(const core::result_file& f,
                                             const core::kind_query& kind, bool lower_is_better) {
  std::map<std::uint64_t, double> out;
  for (const auto* c : measured_cases(f, kind))
    for (const auto& p : c->points) {
      if (!std::isfinite(p.stats.median)) continue;
      auto it = out.find(p.bytes);
      if (it == out.end())
        out[p.bytes] = p.stats.median;
      else
        it->second = lower_is_better ? std::min(it->second, p.stats.median)
                                     : std::max(it->second, p.stats.median);
    }
  return out;
}

std::vector<std::uint64_t> common(const std::map<std::uint64_t, double>& a,
                                  const std::map<std::uint64_t, double>& b) {
  std::vector<std::uint64_t> out;
  for (const auto& [bytes, v] : a)
    if (b.contains(bytes)) out.push_back(bytes);
  return out;
}

// Lowest CPU seconds per GB per wait class ("spinning", "sleeping") at one size, on `basis`.
std::map<std::string, double> cost_by_class(const core::result_file& f,
                                            const core::kind_query& kind, std::uint64_t bytes,
                                            cpu_basis basis) {
  std::map<std::string, double> out;
  for (const auto* c : measured_cases(f, kind))
    for (const auto& p : c->points) {
      const double cost = cpu_cost_of(p, basis).seconds_per_gb;
      if (p.bytes != bytes || !std::isfinite(cost)) continue;
      const std::string cls = wait_class_of(completion_mode_of(*c));
      if (!out.contains(cls) || cost < out[cls]) out[cls] = cost;
    }
  return out;
}

core::kind_query network(std::string_view transport, std::string_view metric) {
  return {.path = core::paths::network, .transport = transport, .metric = metric};
}

}  // namespace

std::vector<finding> rdma_vs_tcp_rule(const core::result_file& f, const rule_options&) {
  std::vector<std::string> evidence, title;
  const auto tcp_lat = best_by_size(f, network("tcp", "latency"), true);
  const auto rdma_lat = best_by_size(f, network("rdma", "latency"), true);
  if (const auto sizes = common(tcp_lat, rdma_lat); !sizes.empty()) {
    const auto s = sizes.front();
    const double r = tcp_lat.at(s) / rdma_lat.at(s);
    evidence.push_back(fmt::format("p50 latency at {}: TCP {}, RDMA {} ({})", format_size(s),
                                   figure(tcp_lat.at(s), "us"), figure(rdma_lat.at(s), "us"),
                                   format_ratio(r)));
    title.push_back(fmt::format("RDMA's latency is {} {} than TCP's",
                                format_ratio(r >= 1 ? r : 1 / r), r >= 1 ? "lower" : "higher"));
  }
  const auto tcp_bw = best_by_size(f, network("tcp", "bandwidth"), false);
  const auto rdma_bw = best_by_size(f, network("rdma", "bandwidth"), false);
  if (const auto sizes = common(tcp_bw, rdma_bw); !sizes.empty()) {
    const auto s = sizes.back();
    const double r = rdma_bw.at(s) / tcp_bw.at(s);
    evidence.push_back(fmt::format("bandwidth at {}: TCP {}, RDMA {} ({})", format_size(s),
                                   figure(tcp_bw.at(s), "GB/s"), figure(rdma_bw.at(s), "GB/s"),
                                   format_ratio(r)));
    title.push_back(fmt::format("its bandwidth {} TCP's", format_ratio(r)));
    // The whole machine at both ends where both transports have it, else the threads' own:
    // never one basis against the other.
    const auto costs = [&](cpu_basis basis) {
      return std::pair{cost_by_class(f, network("tcp", "bandwidth"), s, basis),
                       cost_by_class(f, network("rdma", "bandwidth"), s, basis)};
    };
    const auto alike = [](const auto& both) {
      for (const auto& [cls, t] : both.first)
        if (both.second.contains(cls) && cls != "unknown") return true;
      return false;
    };
    cpu_basis basis = cpu_basis::whole_machine;
    auto both = costs(basis);
    if (!alike(both)) both = costs(basis = cpu_basis::threads);
    const auto& [tcp_cost, rdma_cost] = both;
    bool compared = false;
    for (const auto& [cls, t] : tcp_cost) {
      if (!rdma_cost.contains(cls) || cls == "unknown") continue;
      compared = true;
      evidence.push_back(fmt::format("CPU s/GB at {} ({}), both {}: TCP {}, RDMA {} ({})",
                                     format_size(s), to_string(basis), cls, format_value(t),
                                     format_value(rdma_cost.at(cls)),
                                     format_ratio(t / rdma_cost.at(cls))));
    }
    if (!compared && !tcp_cost.empty() && !rdma_cost.empty())
      evidence.push_back(
          "CPU cost not compared: no TCP and RDMA case waited alike (busy-poll "
          "against poll, blocking against event)");
  }
  if (title.empty()) return {};
  return {{"net.rdma_vs_tcp", severity::info, "TCP vs RDMA",
           fmt::format("{}", fmt::join(title, ", ")), fmt::format("{}", fmt::join(evidence, "; ")),
           "For collectives, make sure the library really uses RDMA (NCCL_DEBUG=INFO names "
           "NET/IB; Open MPI: the ucx pml) rather than falling back to sockets"}};
}

std::vector<finding> single_stream_rule(const core::result_file& f, const rule_options& o) {
  double single = 0, several = 0, line = 0;
  long long streams = 0;
  std::uint64_t bytes = 0;
  for (const auto* c : measured_cases(f, network("tcp", "bandwidth"))) {
    const auto v = largest_median(*c);
    const auto n = int_param(*c, "streams").value_or(1);
    if (!v || !c->peak || c->peak->value <= 0) continue;
    line = std::max(line, c->peak->value);
    if (n == 1 && *v > single) {
      single = *v;
      bytes = largest_bytes(*c);
    } else if (n > 1 && *v > several) {
      several = *v;
      streams = n;
    }
  }
  if (line <= 0 || single <= 0 || several <= 0) return {};
  if (single >= o.far_below_line * line || several < o.line_reached * line) return {};
  return {{"net.tcp_single_stream", severity::warning, "TCP, one stream",
           fmt::format("One TCP stream reaches {} of the line rate, {} streams reach {}",
                       percent(single / line), streams, percent(several / line)),
           fmt::format("one stream {} at {}, {} streams {}, line rate {}", figure(single, "GB/s"),
                       format_size(bytes), streams, figure(several, "GB/s"), figure(line, "GB/s")),
           "The network is fine; one stream is bound by one core. Use several connections "
           "(NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD, Horovod/Gloo several sockets), check "
           "IRQ affinity and the core's clock, or use RDMA"}};
}

}  // namespace gpubench::reports::page_one::findings
