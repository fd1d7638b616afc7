// The second look at one finding: whether a node's or a link's figure of the first look came
// out the same when measured again (core::cluster_confirmation), judged against the reference
// of the first look. docs/cluster.md "The second look".
#pragma once

#include <cstddef>
#include <string>

#include "cluster/first_look.hpp"
#include "core/result.hpp"

namespace gpubench::cluster {

struct again {
  second_look state = second_look::not_taken;  // not_taken: no second figure in the file
  double value = 0;                            // the second figure
  std::string text;                            // "again 0.0241 GB/s (0.25x): reproduced"
};

// A finding of node `node`: its local point run again (beside the reference node, when the file
// names one), or its pairs measured again against partners that are no candidates.
again node_again(const core::cluster_section& c, std::size_t node, const finding& f,
                 const suspect_options& options);

// A finding of the link a-b: the same pair measured again.
again link_again(const core::cluster_section& c, std::size_t a, std::size_t b, const finding& f,
                 const suspect_options& options);

}  // namespace gpubench::cluster
