#include "core/runner.hpp"

#include <exception>

#include "core/case_state.hpp"
#include "core/errors.hpp"
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

bool runner::run_case(const benchmark_def& def, case_result& c, std::size_t index,
                      std::size_t total) {
  for (auto* r : m_reporters)
    r->case_started(c, index, total);
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
  file.run.status = run_status::running;
  for (auto* r : m_reporters)
    r->run_started(file);

  std::vector<std::pair<const benchmark_def*, case_result>> work;
  for (const auto* def : selected)
    for (auto& c : plan(*def))
      work.emplace_back(def, std::move(c));

  bool complete = true;
  for (std::size_t i = 0; i < work.size() && complete; ++i) {
    m_ctx.poll_peers();
    if (m_ctx.interrupted()) {
      complete = false;
      break;
    }
    auto& [def, c] = work[i];
    complete = run_case(*def, c, i, work.size());
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
