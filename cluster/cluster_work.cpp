#include "cluster/cluster_work.hpp"

#include <exception>

#include "core/progress.hpp"

namespace gpubench::cluster {

cluster_work split_work(const std::vector<const core::benchmark_def*>& selected) {
  cluster_work w;
  for (const auto* d : selected) {
    if (d->kind.is(core::paths::network))
      w.pairs.push_back(d);
    else if (d->kind.is(core::paths::collective))
      w.collectives.push_back(d);
    else
      w.local.push_back(d);
  }
  return w;
}

phase_budgets work_budgets(const cluster_work& work, const core::run_context& ctx,
                           const std::vector<std::uint64_t>& pair_sizes, std::size_t rounds) {
  phase_budgets b;
  auto cases_of = [&ctx](const core::benchmark_def& d) -> double {
    try {
      return d.cases ? static_cast<double>(d.cases(ctx).size()) : 1.0;
    } catch (const std::exception&) {
      return 1.0;  // a requirement the case list finds unmet: skipped at once
    }
  };
  for (const auto* d : work.local)
    b.local_s += cases_of(*d) * core::case_budget_s(*d, ctx);
  for (const auto* d : work.pairs) {
    const bool latency = d->metric.name == "latency";
    for (const auto size : pair_sizes)
      if (latency == (size < pair_bandwidth_from))
        b.round_s += (latency ? 1.0 : 2.0) * d->criteria.timeout;  // bandwidth: both ways
  }
  for (const auto* d : work.collectives)
    b.collectives_s += core::case_budget_s(*d, ctx);
  b.rounds = rounds;
  return b;
}

}  // namespace gpubench::cluster
