// How the cluster report words a suspect of the verdict (cluster/suspects.hpp): what it is,
// with the way that is slow ("slow to send"), and where it is (a node, a link, a leaf's uplink
// with its nodes). Shared by the cluster section's tables and matrices.
#pragma once

#include <string>

#include "cluster/suspects.hpp"
#include "core/result.hpp"

namespace gpubench::reports::cluster {

// "stopped node", "slow node", "slow to send", "slow to receive", "slow link", "slow link, one
// way", "slow uplink", "slow uplink, out of the leaf", "slow uplink, into the leaf".
std::string kind_text(const gpubench::cluster::suspect& s);

// "n4"; "n1 - n2", or "n1 -> n2" for the slow way of a link; "leaf2 uplink".
std::string where_text(const gpubench::cluster::suspect& s);

// An uplink's nodes in words, from the file's leaves: "4 nodes: n0, n1, n2, n3" (at most
// `listed` names, then "and 12 more"); "" when the file does not place any node on it.
std::string uplink_nodes(const core::cluster_section& c, const gpubench::cluster::suspect& s,
                         std::size_t listed = 8);

}  // namespace gpubench::reports::cluster
