// Slow uplinks: where the file gives each node's leaf switch, a leaf whose cross-leaf figures are
// slow (each way on its own: out of the leaf, into it) while the figures within it are fine is
// its uplink, not its nodes. Nothing is said where the file gives no leaves.
// docs/cluster.md "The verdict: suspects".
#pragma once

#include "cluster/first_look.hpp"
#include "cluster/pair_edges.hpp"
#include "core/result.hpp"

namespace gpubench::cluster {

// Adds the slow uplinks of `g` to out.uplinks and takes the cross-leaf figures they explain out
// of g.edges, so the nodes behind them are judged by their other figures.
void explain_uplinks(const core::cluster_section& c, pair_group& g, const suspect_options& options,
                     first_look& out);

}  // namespace gpubench::cluster
