#include "cluster/confirm.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "cluster/confirm_plan.hpp"
#include "cluster/launch_steps.hpp"
#include "cluster/mpi_messages.hpp"
#include "core/result_json.hpp"
#include "core/runner.hpp"

namespace gpubench::cluster {

namespace {

std::string candidate_words(const core::cluster_section& c, const core::candidate_ref& x) {
  return x.b ? c.nodes[x.a].name + "-" + c.nodes[*x.b].name + " (link)"
             : c.nodes[x.a].name + " (node)";
}

// The client end's cases of one pair, as second figures (failed cases as failures).
void take_second_pair(core::cluster_confirmation& k, const core::confirm_pair& planned,
                      const nlohmann::json& report) {
  core::confirm_pair got = planned;
  if (report.contains("error"))
    k.failures.push_back(
        {planned.a, planned.b, "",
         report.at("end").get<std::string>() + " end: " + report.at("error").get<std::string>()});
  if (!report.contains("cases")) return;
  for (const auto& c : report.at("cases")) {
    const std::string benchmark = c.at("benchmark").get<std::string>();
    const std::string status = c.at("status").get<std::string>();
    if (status == "failed")
      k.failures.push_back({planned.a, planned.b, benchmark, c.at("reason").get<std::string>()});
    if (status != "ok") continue;
    for (const auto& p : c.at("points"))
      got.figures.push_back({benchmark, c.at("params"), p.at("bytes").get<std::uint64_t>(),
                             p.at("median").get<double>(), p.at("p99").get<double>(),
                             p.at("count").get<std::uint32_t>()});
  }
  k.pairs.push_back(std::move(got));
}

}  // namespace

void confirm_candidates(core::result_file& file, const confirm_launch& launch) {
  auto& cluster = *file.cluster;
  const auto started = std::chrono::steady_clock::now();
  const auto plan = plan_confirmation(cluster, {}, launch.pair_concurrency);
  cluster.confirmation = core::cluster_confirmation{};
  auto& k = *cluster.confirmation;
  k.candidates = plan.candidates;
  if (plan.empty()) {
    k.complete = true;
    launch.write();
    launch.say("# cluster: no candidate to re-measure");
    return;
  }
  std::string names;
  for (const auto& x : plan.candidates)
    names += (names.empty() ? "" : ", ") + candidate_words(cluster, x);
  launch.say(
      fmt::format("# cluster: re-measuring {} candidate(s): {}", plan.candidates.size(), names));
  launch.write();

  // The flagged local points again, on every node at once.
  if (!plan.local.empty()) {
    std::map<int, nlohmann::json> commands;
    for (const auto& rerun : plan.local) {
      nlohmann::json points = nlohmann::json::array();
      for (const auto& p : rerun.points)
        points.push_back({{"benchmark", p.benchmark}, {"params", p.params}, {"bytes", p.bytes}});
      commands[launch.leaders[rerun.node]] = {
          {"cmd", local_again_command}, {"node", rerun.node}, {"points", points}};
    }
    for (const auto& report :
         launch.step(commands, launch.local_again, "in the second look's local re-runs")) {
      core::confirm_node node{report.at("node").get<std::size_t>(), {}};
      const auto& results = report.at("results");
      for (std::size_t i = 0; i < results.size(); ++i)
        node.results.push_back(
            core::case_from_json(results[i], "second look results[" + std::to_string(i) + "]"));
      k.nodes.push_back(std::move(node));
    }
    launch.write();
  }

  // Pairs again, step by step, each node in at most one pair of a step; in the way that was
  // slow where the plan says one (pair_rerun::direction).
  bool complete = true;
  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    std::map<int, nlohmann::json> commands;
    std::map<std::pair<std::size_t, std::size_t>, core::confirm_pair> planned;
    for (const auto& p : plan.steps[s]) {
      if (launch.gone(p.a) || launch.gone(p.b)) {
        const std::size_t gone = launch.gone(p.a) ? p.a : p.b;
        k.failures.push_back({p.a, p.b, "",
                              fmt::format("not measured again: {} had stopped answering",
                                          cluster.nodes[gone].name)});
        complete = false;
        continue;
      }
      add_pair_commands(commands, launch.leaders[p.a], launch.leaders[p.b], p.a, p.b, p.direction);
      planned[{p.a, p.b}] = {p.a, p.b, p.for_node, {}};
    }
    const std::string when =
        fmt::format("in the second look's pair step {} of {}", s + 1, plan.steps.size());
    std::set<std::pair<std::size_t, std::size_t>> answered;
    for (const auto& report : launch.step(commands, launch.pair_role, when)) {
      const auto key =
          std::make_pair(report.at("a").get<std::size_t>(), report.at("b").get<std::size_t>());
      // The server end reports only its failure; the client end brings the figures.
      const auto it = planned.find(key);
      if (it != planned.end() && (report.at("end") == "client" || report.contains("error"))) {
        take_second_pair(k, it->second, report);
        if (report.at("end") == "client") answered.insert(key);
      }
    }
    if (answered.size() < planned.size()) complete = false;
    launch.write();
  }
  // A node that stopped answering in the local step leaves its figures out too.
  if (!plan.local.empty() && k.nodes.size() < plan.local.size()) complete = false;
  k.complete = complete;
  launch.write();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  launch.say(fmt::format("# cluster: second look done in {:.1f} s: {} pair(s), {} local re-run(s)",
                         seconds, plan.pair_count(), plan.local.size()));
}

nlohmann::json run_local_again(const nlohmann::json& cmd,
                               const std::vector<const core::benchmark_def*>& local,
                               const core::run_context& ctx) {
  nlohmann::json results = nlohmann::json::array();
  for (const auto& point : cmd.at("points")) {
    const std::string id = point.at("benchmark").get<std::string>();
    const auto def = std::find_if(local.begin(), local.end(),
                                  [&](const core::benchmark_def* d) { return d->id == id; });
    if (def == local.end()) continue;
    core::benchmark_def one_case = **def;
    one_case.cases = [inner = (*def)->cases,
                      params = point.at("params")](const core::run_context& c) {
      std::vector<nlohmann::json> kept;
      for (auto& p : inner(c))
        if (p == params) kept.push_back(std::move(p));
      return kept;
    };
    core::run_context one_size = ctx;
    if (const auto bytes = point.at("bytes").get<std::uint64_t>(); bytes > 0)
      one_size.sizes = core::size_range{bytes, bytes};
    core::result_file scratch;
    core::runner(one_size, {}).run({&one_case}, scratch);
    for (const auto& c : scratch.results)
      results.push_back(core::case_to_json(c));
  }
  return {{"kind", local_again_command}, {"node", cmd.at("node")}, {"results", results}};
}

}  // namespace gpubench::cluster
