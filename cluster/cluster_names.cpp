// The node name and the default pair sizes of cluster mode (built with or without MPI).
#include <unistd.h>

#include <cstdlib>

#include "cluster/cluster_run.hpp"

namespace gpubench::cluster {

std::string node_name() {
  if (const char* n = std::getenv("GPUBENCH_NODE_NAME"); n && *n) return n;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return "localhost";
  return host;
}

std::vector<std::uint64_t> default_pair_sizes() {
  return {8, 1u << 20};
}

}  // namespace gpubench::cluster
