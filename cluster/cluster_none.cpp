// Cluster mode without MPI: never a cluster launch (a multi-node launch of a build without
// MPI runs every rank on its own, as before).
#include "cluster/cluster_run.hpp"

namespace gpubench::cluster {

std::unique_ptr<launch> open_launch(double) {
  return nullptr;
}

}  // namespace gpubench::cluster
