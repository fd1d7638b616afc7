// The verdict of a cluster run: which node or which link (node pair) is the slow one, named
// from the result file alone with robust statistics (median and MAD across the cluster), so
// `run` (console, --fail-on-suspect), `report` and `compare` reach the same verdict. A file with
// a second look (format 1.2) names only what reproduced when measured again; the rest is listed
// as unconfirmed. docs/cluster.md gives the method, the thresholds and their defaults.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"

namespace gpubench::cluster {

// uplink: a leaf switch's way to the rest of the fabric (where the file gives each node's leaf):
// the leaf's nodes slow across leaves and fine within theirs.
enum class suspect_kind { node, link, uplink };

// What the second look said of a suspect: not taken (no second figure in the file: a file
// before format 1.2, a launch cut short, a stopped node), confirmed (a finding reproduced), or
// not reproduced (measured again, every finding within the thresholds).
enum class second_look { not_taken, confirmed, not_reproduced };

struct suspect {
  suspect_kind kind = suspect_kind::node;
  std::string node;  // the node; for a link, its first end (the sender, when directed); the leaf
  std::string peer;  // for a link, its other end; empty for a node or an uplink
  // Which way is slow, for a bandwidth measurement that runs one way: "send" (the node, or a
  // link's first end, sends slowly), "receive"; empty where the way does not apply (latency,
  // local points) or both ways are slow.
  std::string direction;
  std::string benchmark;      // the measurement that shows it (a pair measurement or a local one)
  double value = 0;           // the suspect's figure (its median, or the link's)
  double cluster_median = 0;  // the same figure's median across the cluster
  std::string unit;
  std::string evidence;  // plain words: "n03: 0.25 GB/s on 6 of 7 pairs, cluster median 1.00 GB/s"
  second_look check = second_look::not_taken;
  double again = 0;  // the strongest finding's second figure (check != not_taken)
};

struct suspect_options {
  double deviation = 4.0;   // robust z: |x - median| / (1.4826 MAD) above this is an outlier
  double min_change = 0.2;  // ... and at least this relative change from the median
  // The floor for figures where lower is better (latency): small-message latency is mostly host
  // software and varies by a third between identical hosts, so a slow path must be 1.5x.
  double min_latency_change = 0.5;
  double pair_share = 0.5;  // a node whose outlier pairs are more than this share of its pairs
  // The floor for a verdict drawn from many figures: a node's median over its pairs (each way
  // on its own), a leaf's cross-leaf pairs. Several figures agreeing make a smaller shortfall
  // believable than one figure does (min_change); the robust z still has to be over `deviation`.
  double min_node_change = 0.05;
  // The stable-point rule: a node-local point whose typical node's samples scatter by more than
  // this (scaled MAD over median) measures the moment, not the node, and names no one ...
  double max_local_spread = 0.10;
  // ... and a pair measurement whose typical pair has its p99 more than this many times its
  // median (round trips waiting for a CPU, not for the path) names no one either.
  double max_pair_tail = 5.0;
};

struct cluster_verdict {
  std::vector<suspect> named;  // stopped nodes, slow nodes, slow uplinks, slow links, in that order
  std::vector<suspect> unconfirmed;  // measured again and not reproduced: not named
  bool second_look = false;          // the file holds a second look (its confirmation)
  // Measurements too unsteady to name anyone (the stable-point rule), in words:
  // "net.tcp.latency 8B (streams=1): the typical pair's p99 is 49x its median".
  std::vector<std::string> unsteady;
};

// The verdict on the cluster section of `file` (empty without one).
cluster_verdict judge(const core::result_file& file, const suspect_options& options = {});

// The named suspects (judge(...).named): stopped nodes, slow nodes, slow uplinks, slow links.
std::vector<suspect> find_suspects(const core::result_file& file,
                                   const suspect_options& options = {});

}  // namespace gpubench::cluster
