// The first look at one measured quantity of the pair rounds (a pair_group): nodes slow by their
// pairs, each way on its own (slow to send, slow to receive), then single slow pairs (links)
// whose ends are fine with their other pairs that way. docs/cluster.md "The verdict: suspects".
#pragma once

#include "cluster/first_look.hpp"
#include "cluster/pair_edges.hpp"
#include "core/result.hpp"

namespace gpubench::cluster {

// Adds the group's node and link findings to `out`.
void pair_findings(const core::cluster_section& c, const pair_group& g,
                   const suspect_options& options, first_look& out);

}  // namespace gpubench::cluster
