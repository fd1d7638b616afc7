#include "reports/cluster/suspect_text.hpp"

#include "reports/cluster/node_order.hpp"

namespace gpubench::reports::cluster {

using gpubench::cluster::suspect;
using gpubench::cluster::suspect_kind;

std::string kind_text(const suspect& s) {
  const bool send = s.direction == "send";
  const bool receive = s.direction == "receive";
  switch (s.kind) {
    case suspect_kind::link:
      return send || receive ? "slow link, one way" : "slow link";
    case suspect_kind::uplink:
      return send      ? "slow uplink, out of the leaf"
             : receive ? "slow uplink, into the leaf"
                       : "slow uplink";
    case suspect_kind::node:
      break;
  }
  if (s.benchmark.empty()) return "stopped node";
  return send ? "slow to send" : receive ? "slow to receive" : "slow node";
}

std::string where_text(const suspect& s) {
  switch (s.kind) {
    case suspect_kind::link:
      // "send": the first end sends slowly to the other; "receive": it receives slowly from it.
      if (s.direction == "send") return s.node + " -> " + s.peer;
      if (s.direction == "receive") return s.peer + " -> " + s.node;
      return s.node + " - " + s.peer;
    case suspect_kind::uplink:
      return s.node + " uplink";
    case suspect_kind::node:
      break;
  }
  return s.node;
}

std::string uplink_nodes(const core::cluster_section& c, const suspect& s, std::size_t listed) {
  if (s.kind != suspect_kind::uplink) return "";
  const auto on = nodes_on(c, s.node);
  if (on.empty()) return "";
  std::string out = std::to_string(on.size()) + (on.size() == 1 ? " node: " : " nodes: ");
  for (std::size_t i = 0; i < on.size() && i < listed; ++i)
    out += (i ? ", " : "") + c.nodes[on[i]].name;
  if (on.size() > listed) out += ", and " + std::to_string(on.size() - listed) + " more";
  return out;
}

}  // namespace gpubench::reports::cluster
