// net.tcp_retransmits: a TCP stream that retransmitted while both hosts' CPUs were mostly idle
// is held back by the path (loss, a small window over a long round trip), not by the hosts:
// more CPU or more tuning of the hosts will not raise it. Reads what iperf3 reports (imported:
// retransmits, CPU use of both ends, round-trip time).
#include <fmt/format.h>

#include "reports/model/series.hpp"
#include "reports/model/text_format.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

namespace {

// Both ends under this CPU use (percent of the host): the hosts are not what limits the stream.
constexpr double idle_cpu_percent = 50;

}  // namespace

std::vector<finding> tcp_retransmits_rule(const core::result_file& f, const rule_options&) {
  std::vector<finding> out;
  for (const auto& c : f.results) {
    if (!c.kind.is(core::paths::network) || c.kind.transport != "tcp" ||
        c.status != core::case_status::ok || c.metric != "bandwidth")
      continue;
    for (const auto& p : c.points) {
      const double retransmits = extra_value(p, "retransmits");
      const double local = extra_value(p, "cpu_percent_local");
      const double remote = extra_value(p, "cpu_percent_remote");
      if (!(retransmits > 0) || !(local < idle_cpu_percent) || !(remote < idle_cpu_percent))
        continue;
      finding x;
      x.rule = "net.tcp_retransmits";
      x.level = severity::info;
      x.subject = "TCP";
      x.title =
          "The TCP stream retransmitted with both CPUs mostly idle: the path (loss, window over "
          "the round trip), not the hosts, limits it";
      std::string rtt;
      if (const double r = extra_value(p, "mean_rtt_us"); r > 0)
        rtt = fmt::format(", mean round trip {:.1f} ms", r / 1000);
      x.evidence = fmt::format(
          "{} ({} Gb/s){}, {} retransmits, CPU {:.0f} % here and {:.0f} % "
          "at the peer{}",
          figure(p.stats.median, "GB/s"), format_value(p.stats.median * 8), at_size(p.bytes),
          retransmits, local, remote, rtt);
      x.check =
          "Look for loss on the path (netstat -s, switch counters), the socket buffers against "
          "bandwidth x round trip (net.ipv4.tcp_rmem/wmem), and try parallel streams";
      out.push_back(std::move(x));
    }
  }
  return out;
}

}  // namespace gpubench::reports::page_one::findings
