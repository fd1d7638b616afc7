// Runs the selected benchmarks case by case into a result file, telling the reporters.
#pragma once

#include <vector>

#include "core/benchmark.hpp"
#include "core/reporter.hpp"
#include "core/result.hpp"
#include "core/run_context.hpp"

namespace gpubench::core {

class runner {
 public:
  runner(const run_context& ctx, std::vector<reporter*> reporters)
      : m_ctx(ctx), m_reporters(std::move(reporters)) {}

  // Fills file.results and file.run (status, finished). Returns normally when interrupted,
  // with run.status = partial; a failing case is recorded and the run goes on. Every case is
  // planned (benchmark_def::cases) before the reporters are told the run started: what a
  // planning throws (usage_error: a launch refused) leaves the reporters untold, no file.
  void run(const std::vector<const benchmark_def*>& selected, result_file& file);

 private:
  // The cases of one benchmark, or one skipped case when its requirement is not met.
  std::vector<case_result> plan(const benchmark_def& def) const;
  // Returns false when the run was interrupted.
  bool run_case(const benchmark_def& def, case_result& c, const run_position& at);

  const run_context& m_ctx;
  std::vector<reporter*> m_reporters;
};

}  // namespace gpubench::core
