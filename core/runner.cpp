#include "core/runner.hpp"

#include <algorithm>
#include <chrono>
#include <exception>

#include <fmt/format.h>

#include "core/case_state.hpp"
#include "core/errors.hpp"
#include "core/progress.hpp"
#include "core/result_json.hpp"

namespace gpubench::core {

namespace {

case_result blank_case(const benchmark_def& def, nlohmann::json params) {
  case_result c;
  c.benchmark = def.id;
  c.kind = def.kind;
  c.params = std::move(params);
  c.metric = def.metric.name;
  c.unit = def.metric.unit;
  c.better = def.metric.higher_is_better ? "higher" : "lower";
  return c;
}

// Node-local cases under a launch: the node's leader measures and says so; the other ranks
// of the node skip, so the node's memory, GPUs and links are measured by one process at once.
void share_node(const node_share& share, case_result& c) {
  if (c.status == case_status::skipped) return;
  if (share.leads()) {
    c.context["measured_by"] = {
        {"rank", share.rank}, {"node", share.node}, {"ranks_on_node", share.ranks_on_node}};
    return;
  }
  c.status = case_status::skipped;
  c.reason = fmt::format(
      "measured once per node: rank {} measures it for node {}, and rank {} (one of its {} "
      "ranks) skips it so that they do not contend for the node's memory, GPUs and links",
      share.leader, share.node, share.rank, share.ranks_on_node);
}

}  // namespace

std::vector<case_result> runner::plan(const benchmark_def& def) const {
  requirement_status req = def.requirement ? def.requirement(m_ctx) : requirement_status::ok();
  std::vector<nlohmann::json> params;
  if (req.met) {
    try {
      params = def.cases ? def.cases(m_ctx) : std::vector<nlohmann::json>{nlohmann::json::object()};
    } catch (const skip_case& e) {
      req = requirement_status::missing(e.what());
    }
  }
  std::vector<case_result> out;
  if (!req.met) {
    out.push_back(blank_case(def, nlohmann::json::object()));
    out.back().status = case_status::skipped;
    out.back().reason = req.reason;
    return out;
  }
  for (auto& p : params)
    out.push_back(blank_case(def, std::move(p)));
  return out;
}

bool runner::run_case(const benchmark_def& def, case_result& c, const run_position& at) {
  for (auto* r : m_reporters)
    r->case_started(c, at);
  if (c.status == case_status::skipped) return true;
  case_state state(def, m_ctx, c, [this](const case_result& cr, const point_result& p) {
    for (auto* r : m_reporters)
      r->point_finished(cr, p);
  });
  try {
    def.body(state);
  } catch (const skip_case& e) {
    c.status = case_status::skipped;
    c.reason = e.what();
  } catch (const stop_run& e) {
    c.status = case_status::failed;
    c.reason = e.what();
    return false;
  } catch (const interrupted&) {
    c.status = case_status::failed;
    c.reason = "interrupted by a signal after " + std::to_string(c.points.size()) +
               " measured point(s); those are kept";
    return false;
  } catch (const std::exception& e) {
    c.status = case_status::failed;
    c.reason = e.what();
  }
  return true;
}

void runner::run(const std::vector<const benchmark_def*>& selected, result_file& file) {
  // Every case is planned before any reporter hears of the run: planning may start an MPI
  // launch or refuse it (usage_error), and a launch that fails there leaves no result file.
  std::vector<std::pair<const benchmark_def*, case_result>> work;
  for (const auto* def : selected)
    for (auto& c : plan(*def))
      work.emplace_back(def, std::move(c));

  file.run.status = run_status::running;
  for (auto* r : m_reporters)
    r->run_started(file);

  const auto& share = m_ctx.shared_node;
  std::vector<double> budgets;
  for (auto& [def, c] : work) {
    const bool group = def->kind.is(paths::collective);
    if (share && !group) share_node(*share, c);
    budgets.push_back(c.status == case_status::skipped ? 0 : case_budget_s(*def, m_ctx));
  }
  progress_estimate estimate(budgets);
  using clock = std::chrono::steady_clock;
  const auto started = clock::now();
  auto seconds_since = [](clock::time_point t) {
    return std::chrono::duration<double>(clock::now() - t).count();
  };

  // The budget of the node-local cases since the ranks last met: how long a rank that skipped
  // them may wait for its node's leader before the next collective case.
  double local_budget = 0;
  bool complete = true;
  for (std::size_t i = 0; i < work.size() && complete; ++i) {
    m_ctx.poll_peers();
    if (m_ctx.interrupted()) {
      complete = false;
      break;
    }
    auto& [def, c] = work[i];
    if (share && !def->kind.is(paths::collective)) {
      local_budget += std::max(budgets[i], case_budget_s(*def, m_ctx));
    } else if (share && share->meet && local_budget > 0) {
      const double limit = 2 * local_budget + 60;
      local_budget = 0;
      if (!share->meet(limit, m_ctx.stop)) {  // a rank of the launch was interrupted
        complete = false;
        break;
      }
    }
    const auto case_start = clock::now();
    complete =
        run_case(*def, c, {i, work.size(), progress_time_text(seconds_since(started), estimate)});
    estimate.finished(i, seconds_since(case_start));
    file.results.push_back(std::move(c));
    for (auto* r : m_reporters)
      r->case_finished(file, file.results.back());
  }
  file.run.status = complete ? run_status::complete : run_status::partial;
  file.run.finished = rfc3339_now();
  for (auto* r : m_reporters)
    r->run_finished(file);
}

}  // namespace gpubench::core
