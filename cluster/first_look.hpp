// The first look at a cluster run: every finding that points at a node or a link, from the
// node-local results and the pair rounds alone, each with the reference it was judged against,
// so that a figure measured again (reproduce.hpp) is judged against the same yardstick. The
// verdict (suspects.hpp) names from these findings; the launch measures them again first
// (confirm_plan.hpp). docs/cluster.md "The verdict: suspects".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cluster/pair_edges.hpp"
#include "cluster/robust.hpp"
#include "cluster/suspects.hpp"
#include "core/result.hpp"

namespace gpubench::cluster {

// One figure that points at a node or a link.
struct finding {
  bool local = false;  // a node-local point (a case at one size); else a pair measurement
  std::string benchmark;
  // A local case's params; a pair measurement's without the way (pair_group::params).
  nlohmann::json params = nlohmann::json::object();
  std::uint64_t bytes = 0;
  double value = 0;  // a local median, a node's median over its pairs, or a pair's median
  reference ref;     // the cluster's figures it was judged against (for a node: its pairs')
  std::string unit;
  std::string text;  // the evidence in words: "memory.host.copy 64K (threads=1): ..."
  // A link finding behind a node: one of the slow pairs of this node, slow by its pairs in the
  // same measurement (it counts only once that node is not named and the pair reproduced).
  std::optional<std::size_t> behind;
  // The way, for a pair measurement measured one way at a time (`directed`): a node's figures
  // where it sends or where it receives; a link's first end (a < b) sending or receiving; an
  // uplink's traffic out of its leaf (send) or into it (receive). role::both otherwise.
  role side = role::both;
  bool directed = false;

  double change() const { return ref.bad_change(value); }
};

// A finding's figure and the reference it was judged against; the caller sets the rest.
finding make_finding(const std::string& benchmark, const nlohmann::json& params,
                     std::uint64_t bytes, double value, const reference& ref,
                     const std::string& unit);

struct first_look {
  std::map<std::size_t, std::vector<finding>> nodes;
  // Every slow pair (a slow node's own pairs marked `behind`); the verdict drops a link whose
  // end is a named node (in any measurement).
  std::map<std::pair<std::size_t, std::size_t>, std::vector<finding>> links;
  // Slow uplinks by leaf name (where the file gives each node's leaf): their cross-leaf pairs
  // are their evidence, not their nodes'.
  std::map<std::string, std::vector<finding>> uplinks;
  std::vector<std::string> unsteady;  // measurements not judged (the stable-point rule)
};

first_look look_once(const core::cluster_section& c, const suspect_options& options);

// "memory.host.copy 64K (threads=1)".
std::string case_label(const std::string& benchmark, const nlohmann::json& params,
                       std::uint64_t bytes);

// "3.1 GB/s, cluster median 10 GB/s (0.31x)"; `after_value` follows the figure's unit
// (" sending").
std::string against(double value, double median, const std::string& unit,
                    const std::string& after_value = "");

}  // namespace gpubench::cluster
