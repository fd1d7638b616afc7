// The second look on a launch: after the pair rounds rank 0 plans it (confirm_plan.hpp), has
// every node run the candidates' flagged local points again at once, measures
// their pairs again against partners that are no candidates and each candidate link's pair
// again, and records every second figure in the file (cluster.confirmation), from which the
// verdict is judged (suspects.hpp). Built with MPI only. docs/cluster.md "The second look".
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/registry.hpp"
#include "core/result.hpp"
#include "core/run_context.hpp"

namespace gpubench::cluster {

// The command that has a node's leader run local points again (follower side: run_local_again).
inline constexpr const char* local_again_command = "local-again";

// What the phase needs of the launch (cluster_lead.cpp).
struct confirm_launch {
  using role = std::function<nlohmann::json(const nlohmann::json&)>;
  std::vector<int> leaders;  // node index -> its leader's world rank
  std::size_t pair_concurrency = 0;
  // One step under the launch's deadline (launch_steps::run): the commands by world rank (every
  // other rank sits it out), rank 0's own part, and the reports of those that answered; a node
  // that does not answer stops answering and is left out of the later steps.
  std::function<std::vector<nlohmann::json>(const std::map<int, nlohmann::json>&, const role&,
                                            const std::string&)>
      step;
  std::function<bool(std::size_t)> gone;  // the node stopped answering earlier
  // Rank 0's own part: its end of a pair command, its node's local re-run (the reports the
  // other ranks send for the same commands).
  role pair_role;
  role local_again;
  std::function<void()> write;                  // the result file, as it stands
  std::function<void(const std::string&)> say;  // a console line (not with --quiet)
};

// Rank 0, after the pair rounds and before the allreduce: the second look, recorded in
// file.cluster->confirmation (complete once every step came back). Every rank but 0 is sent one
// command per step (a pair end, a local re-run or "idle"), as in the pair rounds.
void confirm_candidates(core::result_file& file, const confirm_launch& launch);

// A node's leader on local_again_command: runs each listed point (benchmark, params, one size)
// of the node-local benchmarks `local` again; the report for rank 0.
nlohmann::json run_local_again(const nlohmann::json& cmd,
                               const std::vector<const core::benchmark_def*>& local,
                               const core::run_context& ctx);

}  // namespace gpubench::cluster
