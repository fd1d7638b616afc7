// cluster.suspect: every slow node, link or leaf uplink that the cluster verdict names
// (cluster/suspects.hpp, docs/cluster.md), as a finding in plain words with the way that is slow,
// so page one and the console show the same verdict.
#include <fmt/format.h>

#include "cluster/suspects.hpp"
#include "reports/page_one/findings/cluster_suspect.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;
using gpubench::cluster::suspect;
using gpubench::cluster::suspect_kind;

namespace {

// The nodes the file places on a leaf: "n0, n1, n2 and 5 more" ("" when it places none).
std::string leaf_nodes(const core::cluster_section& c, const std::string& leaf) {
  constexpr std::size_t listed = 6;
  std::string out;
  std::size_t count = 0;
  for (std::size_t i = 0; i < c.nodes.size() && i < c.leaves.size(); ++i)
    if (c.leaves[i] == leaf && ++count <= listed)
      out += (out.empty() ? "" : ", ") + c.nodes[i].name;
  if (count > listed) out += fmt::format(" and {} more", count - listed);
  return count ? fmt::format("its {} node{}: {}", count, count == 1 ? "" : "s", out) : "";
}

struct words {
  std::string subject, title, check;
};

words node_words(const suspect& s) {
  const std::string nic_check =
      "its PCIe link and NUMA placement, and its CPU load; re-run it alone against a good node";
  if (s.benchmark.empty())
    return {"node " + s.node, fmt::format("Node {} stopped answering during the run", s.node),
            "Check whether the node is up and its gpubench process alive (dmesg, the "
            "launcher's log), then run it again"};
  if (s.direction == "send")
    return {"node " + s.node,
            fmt::format("Node {} is slow to send: what it sends falls short of the rest of the "
                        "cluster, what it receives does not (the evidence gives each measurement)",
                        s.node),
            "Check the node's transmit side: NIC counters (ethtool -S: tx errors, pause frames), "
            "link speed, the cable or transceiver lane, " +
                nic_check};
  if (s.direction == "receive")
    return {"node " + s.node,
            fmt::format("Node {} is slow to receive: what it receives falls short of the rest of "
                        "the cluster, what it sends does not (the evidence gives each measurement)",
                        s.node),
            "Check the node's receive side: NIC counters (ethtool -S: rx drops, rx errors, "
            "buffer overruns), ring sizes and interrupt placement, " +
                nic_check};
  return {"node " + s.node,
          fmt::format("Node {} is slower than the rest of the cluster ({})", s.node, s.benchmark),
          "Check the node's NIC (link speed, errors: ethtool -S, ibstat), " + nic_check};
}

words link_words(const suspect& s) {
  const std::string check =
      "Check the cables, transceivers and switch ports on this path (error counters on both "
      "ends), then re-measure the pair";
  const bool send = s.direction == "send";
  if (send || s.direction == "receive") {
    const std::string& from = send ? s.node : s.peer;
    const std::string& to = send ? s.peer : s.node;
    return {"link " + from + "->" + to,
            fmt::format("The link between {} and {} is slow one way, from {} to {}, while both "
                        "nodes are fine with the others ({})",
                        s.node, s.peer, from, to, s.benchmark),
            check + " in that direction"};
  }
  return {"link " + s.node + "<->" + s.peer,
          fmt::format("The link between {} and {} is slower than the others ({})", s.node, s.peer,
                      s.benchmark),
          check};
}

words uplink_words(const suspect& s) {
  const std::string way = s.direction == "send"      ? ", out of the leaf"
                          : s.direction == "receive" ? ", into the leaf"
                                                     : "";
  return {"uplink of " + s.node,
          fmt::format("The uplink of leaf switch {} is slow{}: its nodes are slow with nodes on "
                      "other leaves and fine with each other, so the switch's way to the rest of "
                      "the fabric is at fault, not the nodes",
                      s.node, way),
          "Check the leaf's uplink ports and cables (speed, error counters, a failed member of a "
          "port channel or an ECMP path), and the spine ports they reach; then re-measure a pair "
          "across the leaf"};
}

}  // namespace

std::vector<finding> cluster_suspect_findings(const core::cluster_section& c,
                                              const std::vector<suspect>& named) {
  std::vector<finding> out;
  for (const auto& s : named) {
    const words w = s.kind == suspect_kind::link     ? link_words(s)
                    : s.kind == suspect_kind::uplink ? uplink_words(s)
                                                     : node_words(s);
    std::string evidence = s.evidence;
    if (evidence.empty() && !s.benchmark.empty())
      evidence = fmt::format("{}: {} against a cluster median of {}", s.benchmark,
                             figure(s.value, s.unit), figure(s.cluster_median, s.unit));
    if (s.kind == suspect_kind::uplink) {
      const std::string nodes = leaf_nodes(c, s.node);
      if (!nodes.empty()) evidence = nodes + (evidence.empty() ? "" : "; " + evidence);
    }
    if (!s.benchmark.empty() && s.check == gpubench::cluster::second_look::not_taken)
      evidence += " (one pass of measurements: not re-measured)";
    out.push_back({"cluster.suspect", severity::problem, w.subject, w.title, evidence, w.check});
  }
  return out;
}

std::vector<finding> cluster_suspect_rule(const core::result_file& f, const rule_options&) {
  if (!f.cluster) return {};
  return cluster_suspect_findings(*f.cluster, gpubench::cluster::find_suspects(f));
}

}  // namespace gpubench::reports::page_one::findings
