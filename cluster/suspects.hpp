// The verdict of a cluster run: which node or which link (node pair) is the slow one, named
// from the result file alone with robust statistics (median and MAD across the cluster), so
// `run` (console, --fail-on-suspect), `report` and `compare` reach the same verdict.
// docs/cluster.md gives the method, the thresholds and their defaults.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"

namespace gpubench::cluster {

enum class suspect_kind { node, link };

struct suspect {
  suspect_kind kind = suspect_kind::node;
  std::string node;           // the node; for a link, its first end
  std::string peer;           // for a link, its other end; empty for a node
  std::string benchmark;      // the measurement that shows it (a pair measurement or a local one)
  double value = 0;           // the suspect's figure (its median, or the link's)
  double cluster_median = 0;  // the same figure's median across the cluster
  std::string unit;
  std::string evidence;  // plain words: "n03: 0.25 GB/s on 6 of 7 pairs, cluster median 1.00 GB/s"
};

struct suspect_options {
  double deviation = 4.0;   // robust z: |x - median| / (1.4826 MAD) above this is an outlier
  double min_change = 0.2;  // ... and at least this relative change from the median
  // The floor for figures where lower is better (latency): small-message latency is mostly host
  // software and varies by a third between identical hosts, so a slow path must be 1.5x.
  double min_latency_change = 0.5;
  double pair_share = 0.5;  // a node whose outlier pairs are more than this share of its pairs
};

// Suspects in the cluster section of `file` (none without one), slow nodes first.
std::vector<suspect> find_suspects(const core::result_file& file,
                                   const suspect_options& options = {});

}  // namespace gpubench::cluster
