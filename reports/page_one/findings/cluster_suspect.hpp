// The words of the cluster.suspect finding for given suspects of the cluster verdict: what
// cluster_suspect_rule says of find_suspects(file), apart so a test can give it any suspect (a
// direction, a leaf's uplink) without a file that makes the verdict name one.
#pragma once

#include <vector>

#include "cluster/suspects.hpp"
#include "reports/page_one/findings/finding.hpp"

namespace gpubench::reports::page_one::findings {

std::vector<finding> cluster_suspect_findings(const core::cluster_section& c,
                                              const std::vector<gpubench::cluster::suspect>& named);

}  // namespace gpubench::reports::page_one::findings
