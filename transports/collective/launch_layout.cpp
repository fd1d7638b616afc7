#include <numeric>

#include "transports/collective/runtimes.hpp"

namespace gpubench::coll {

int launch_layout::ranks_on_first(int nodes) const {
  const int n = std::min(nodes, this->nodes());
  return std::accumulate(ranks_per_node.begin(), ranks_per_node.begin() + n, 0);
}

}  // namespace gpubench::coll
