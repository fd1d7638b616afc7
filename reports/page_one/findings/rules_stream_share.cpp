// net.stream_held_back: in a multi-stream bandwidth point, one stream delivered less than half
// of an equal share of the bytes (extra stream_share_min, what samples that sum every stream's
// bytes record): something on that stream's path or its flow holds it back (a policer or a
// queue keyed on its ports, a hash that put it on a slower link of a bond or an ECMP group), and
// the aggregate hides it because the other streams filled the link. Not on loopback: there no
// link is crossed, and a busy host's scheduler is what starves a stream's thread.
#include <fmt/format.h>

#include "reports/model/series.hpp"
#include "reports/model/text_format.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

namespace {

// A stream under this fraction of an equal split is held back, not just unlucky.
constexpr double held_back_share = 0.5;

}  // namespace

std::vector<finding> stream_share_rule(const core::result_file& f, const rule_options&) {
  std::vector<finding> out;
  const core::kind_query bandwidth{.path = core::paths::network, .metric = "bandwidth"};
  for (const auto* c : measured_cases(f, bandwidth)) {
    const auto streams = int_param(*c, "streams");
    const bool loopback = c->context.is_object() && c->context.value("interface", "") == "lo";
    if (!streams || *streams < 2 || loopback) continue;
    const core::point_result* worst = nullptr;
    for (const auto& p : c->points) {
      const double share = extra_value(p, "stream_share_min");
      if (share < held_back_share && (!worst || share < extra_value(*worst, "stream_share_min")))
        worst = &p;
    }
    if (!worst) continue;
    const double share = extra_value(*worst, "stream_share_min");
    const std::string transport = c->kind.transport.empty() ? "network" : c->kind.transport;
    const std::string direction = text_param(*c, "direction");
    finding x;
    x.rule = "net.stream_held_back";
    x.level = severity::warning;
    x.subject = fmt::format("{} streams", transport);
    x.title = fmt::format(
        "One of {} parallel streams got {:.0f} % of an equal share: something holds that stream "
        "back while the others fill the link",
        *streams, share * 100);
    x.evidence = fmt::format(
        "{} streams{}{}: {} in all, the least stream {:.2f} and the most "
        "{:.2f} times an equal share",
        *streams, direction.empty() ? "" : ", " + direction, at_size(worst->bytes),
        figure(worst->stats.median, "GB/s"), share, extra_value(*worst, "stream_share_max"));
    x.check =
        "Look for a policer or a queue keyed on ports on the path (tc, switch QoS), a bond or "
        "ECMP group whose hash put the stream on a slower member, and per-flow counters on both "
        "hosts (ss -ti)";
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace gpubench::reports::page_one::findings
