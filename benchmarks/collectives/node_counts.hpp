// Which node counts one launch measures: 1, 2, 4, ... up to all nodes, or the --nodes list.
#pragma once

#include <string_view>
#include <vector>

namespace gpubench::benchmarks::collectives {

// Powers of two below `available`, then `available` itself: 1,2,4 for 4 nodes, 1,2,4,6 for 6.
std::vector<int> default_node_counts(int available);

// "1,2,4" checked against the nodes of this launch; sorted, without duplicates. Throws
// usage_error naming the bad entry ("--nodes 8: this launch has 4 nodes").
std::vector<int> parse_node_counts(std::string_view text, int available);

}  // namespace gpubench::benchmarks::collectives
