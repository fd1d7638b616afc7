#include "cluster/cluster_stop.hpp"

#include <cmath>
#include <string>

namespace gpubench::cluster {

core::run_context allreduce_context(const core::run_context& ctx, double cluster_timeout_s) {
  core::run_context out = ctx;
  if (!out.option("coll-timeout"))
    out.options["coll-timeout"] =
        std::to_string(static_cast<long long>(std::ceil(cluster_timeout_s)));
  return out;
}

bool interrupted_while_waiting(const core::run_context& ctx) {
  ctx.poll_peers();
  return ctx.interrupted();
}

}  // namespace gpubench::cluster
