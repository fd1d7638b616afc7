#include "cluster/confirm.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "cluster/confirm_plan.hpp"
#include "cluster/mpi_messages.hpp"
#include "core/result_json.hpp"
#include "core/runner.hpp"

namespace gpubench::cluster {

namespace {

deadline confirm_deadline(std::chrono::milliseconds wait) {
  return std::chrono::steady_clock::now() + wait;
}

std::string candidate_words(const core::cluster_section& c, const core::candidate_ref& x) {
  return x.b ? c.nodes[x.a].name + "-" + c.nodes[*x.b].name + " (link)"
             : c.nodes[x.a].name + " (node)";
}

// One step: a command to every rank but 0 (`commands`, else "idle"), rank 0's own part, then
// the reports of `expected` by the step's deadline; a rank that does not answer stalls its node.
std::vector<nlohmann::json> confirm_step(
    const confirm_launch& launch, const std::map<int, nlohmann::json>& commands,
    const std::function<nlohmann::json(const nlohmann::json&)>& own, const std::string& when) {
  const auto until = confirm_deadline(launch.timeout);
  std::set<int> expected;
  for (std::size_t r = 1; r < launch.node_of_rank.size(); ++r) {
    const int rank = static_cast<int>(r);
    const auto it = commands.find(rank);
    if (it != commands.end()) expected.insert(rank);
    const nlohmann::json cmd = it == commands.end() ? nlohmann::json{{"cmd", "idle"}} : it->second;
    if (!send_json(rank, tag_command, cmd, until)) launch.stalled({launch.node_of_rank[r]}, when);
  }
  std::vector<nlohmann::json> reports;
  if (const auto it = commands.find(0); it != commands.end()) reports.push_back(own(it->second));
  // Rank 0's own part may have used the step's time: the others get a full timeout after it.
  const auto others = confirm_deadline(launch.timeout);
  while (!expected.empty()) {
    auto m = receive_json(MPI_ANY_SOURCE, tag_report, others);
    if (!m) {
      std::set<std::size_t> nodes;
      for (const int r : expected)
        nodes.insert(launch.node_of_rank[static_cast<std::size_t>(r)]);
      launch.stalled(nodes, when);
      throw std::logic_error("confirm: the launch went on after a stalled node");
    }
    expected.erase(m->source);
    reports.push_back(std::move(m->doc));
  }
  return reports;
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
         confirm_step(launch, commands, launch.local_again, "in the second look's local re-runs")) {
      core::confirm_node node{report.at("node").get<std::size_t>(), {}};
      const auto& results = report.at("results");
      for (std::size_t i = 0; i < results.size(); ++i)
        node.results.push_back(
            core::case_from_json(results[i], "second look results[" + std::to_string(i) + "]"));
      k.nodes.push_back(std::move(node));
    }
    launch.write();
  }

  // Pairs again, step by step, each node in at most one pair of a step.
  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    std::map<int, nlohmann::json> commands;
    std::map<std::pair<std::size_t, std::size_t>, core::confirm_pair> planned;
    for (const auto& p : plan.steps[s]) {
      const int server = launch.leaders[p.a], client = launch.leaders[p.b];
      commands[server] = {
          {"cmd", "pair"}, {"role", "server"}, {"partner", client}, {"a", p.a}, {"b", p.b}};
      commands[client] = {
          {"cmd", "pair"}, {"role", "client"}, {"partner", server}, {"a", p.a}, {"b", p.b}};
      planned[{p.a, p.b}] = {p.a, p.b, p.for_node, {}};
    }
    const std::string when =
        fmt::format("in the second look's pair step {} of {}", s + 1, plan.steps.size());
    for (const auto& report : confirm_step(launch, commands, launch.pair_role, when)) {
      const auto key =
          std::make_pair(report.at("a").get<std::size_t>(), report.at("b").get<std::size_t>());
      // The server end reports only its failure; the client end brings the figures.
      const auto it = planned.find(key);
      if (it != planned.end() && (report.at("end") == "client" || report.contains("error")))
        take_second_pair(k, it->second, report);
    }
    launch.write();
  }
  k.complete = true;
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
