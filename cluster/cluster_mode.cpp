// What every cluster launch does around its sequence (built with or without MPI): the options it
// refuses, and rank 0's ending.
#include <cstdio>
#include <utility>

#include <fmt/format.h>

#include "cluster/cluster_run.hpp"
#include "cluster/verdict.hpp"
#include "core/errors.hpp"

namespace gpubench::cluster {

namespace {

// --token-file: every launch draws its own secret for its pair servers, and a file's token
// would be a weaker, longer-lived one (docs/cluster.md).
void refuse_in_cluster_mode(const core::run_context& ctx) {
  if (ctx.option("token-file"))
    throw core::usage_error(
        "--token-file is not used in cluster mode: every launch draws its own secret, shared "
        "over MPI, that its pair servers require and prove (docs/cluster.md); leave the option "
        "out");
}

}  // namespace

int launch::run(const std::vector<const core::benchmark_def*>& selected,
                const core::run_context& ctx, const core::registry& registry,
                core::result_file file, const cluster_options& options) {
  refuse_in_cluster_mode(ctx);
  auto outcome = sequence(selected, ctx, registry, std::move(file), options);
  if (!outcome.rank0) return 0;
  fmt::print("# results: {}\n", options.out.string());
  const int code = finish_run(outcome.file, options.fail_on_suspect);
  if (outcome.end_job)
    end_job("a node stopped answering and was left out; results in " + options.out.string());
  return code;
}

}  // namespace gpubench::cluster
