// Rank 0's sequence of a cluster launch: the pair plan, the local phase's reports, the pair
// rounds, the second look, the allreduce phase, and the file after every step.
#include <mpi.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "cluster/cluster_progress.hpp"
#include "cluster/cluster_stop.hpp"
#include "cluster/confirm.hpp"
#include "cluster/confirm_plan.hpp"
#include "cluster/mpi_launch.hpp"
#include "core/result_json.hpp"

namespace gpubench::cluster {

namespace {

std::vector<core::case_result> cases_from(const nlohmann::json& j) {
  std::vector<core::case_result> out;
  for (std::size_t i = 0; i < j.size(); ++i)
    out.push_back(core::case_from_json(j[i], "results[" + std::to_string(i) + "]"));
  return out;
}

}  // namespace

void mpi_launch::write() const {
  if (m_options.partial)
    m_options.partial->write(m_file);
  else
    core::write_result_file(m_options.out, m_file);
}

// Interrupted (here or on another rank): writes the partial file and tells every rank to
// stop. Reports still under way are not waited for.
void mpi_launch::stop_sequence(const std::string& when) {
  m_file.run.status = core::run_status::partial;
  m_file.run.finished = core::rfc3339_now();
  write();
  say(fmt::format("# cluster: interrupted {}; stopping every rank", when));
  const auto until = after(ms(2000));
  for (std::size_t r = 1; r < m_node_of_rank.size(); ++r)
    send_json(static_cast<int>(r), tag_command, {{"cmd", "stop"}}, until);
}

// Marks `nodes` stalled (they did not answer within the timeout `when`), writes the file and
// says so; the launch goes on without them (launch_steps).
void mpi_launch::stopped_answering(const std::set<std::size_t>& nodes, const std::string& when) {
  std::string names;
  for (const auto n : nodes) {
    auto& node = m_file.cluster->nodes[n];
    node.status = core::node_status::stalled;
    node.reason = fmt::format("no answer within {} s {}",
                              static_cast<double>(m_timeout.count()) / 1000, when);
    names += (names.empty() ? "" : ", ") + node.name;
  }
  m_file.run.status = core::run_status::partial;
  write();
  std::fprintf(stderr, "gpubench: node(s) %s stopped answering %s; going on without them\n",
               names.c_str(), when.c_str());
  say(
      fmt::format("# cluster: node(s) {} stopped answering {}: the launch goes on without "
                  "them (their later pairs are not measured) and ends after the verdict",
                  names, when));
}

// A rank that did not take the allreduce phase's command: that phase cannot run.
void mpi_launch::abort_stalled(std::size_t node, const std::string& when) {
  stopped_answering({node}, when);
  m_file.run.finished = core::rfc3339_now();
  write();
  abort_job(0, fmt::format("node {} stopped answering {}; partial results in {}", m_names[node],
                           when, m_options.out.string()));
}

std::function<bool()> mpi_launch::give_up() const {
  return [this] { return interrupted_while_waiting(*m_ctx); };
}

// After an interrupt: the reports of `ranks` that come by `until`; a missing one is no stall.
std::vector<nlohmann::json> mpi_launch::late_reports(std::set<int>& ranks, deadline until) {
  std::vector<nlohmann::json> got;
  while (!ranks.empty()) {
    auto m = receive_json(MPI_ANY_SOURCE, tag_report, until);
    if (!m) break;
    ranks.erase(m->source);
    got.push_back(std::move(m->doc));
  }
  return got;
}

void mpi_launch::take_local(const nlohmann::json& report) {
  auto& node = m_file.cluster->nodes.at(report.at("node").get<std::size_t>());
  node.system = report.at("system");
  node.results = cases_from(report.at("results"));
}

// A pair of the plan with an end that had stopped answering: not measured, and why.
void mpi_launch::not_measured(std::size_t a, std::size_t b) {
  const auto& gone = m_file.cluster->nodes[m_steps->gone(a) ? a : b];
  m_file.cluster->failures.push_back(
      {a, b, "",
       fmt::format("not measured: {} had stopped answering ({})", gone.name, gone.reason)});
}

void mpi_launch::take_pair(const nlohmann::json& report) {
  const auto a = report.at("a").get<std::size_t>();
  const auto b = report.at("b").get<std::size_t>();
  if (report.contains("error"))
    m_file.cluster->failures.push_back(
        {a, b, "",
         report.at("end").get<std::string>() + " end: " + report.at("error").get<std::string>()});
  if (report.contains("cases")) merge_pair(*m_file.cluster, a, b, report.at("cases"), &*m_slots);
}

// The pairs to measure (--pairs, --pair-seed) and each node's leaf (--topology), recorded in
// the file before the first round.
sweep mpi_launch::plan_pairs(core::cluster_section& cluster) {
  const std::size_t n = m_names.size();
  if (m_options.topology) {
    cluster.leaves = m_options.topology->leaves_of(m_names);
    const auto placed =
        static_cast<std::size_t>(std::count_if(cluster.leaves.begin(), cluster.leaves.end(),
                                               [](const std::string& l) { return !l.empty(); }));
    say(fmt::format("# cluster: the topology file places {} of {} node(s){}", placed, n,
                    placed == 0 ? " (none of its names is a node name of this launch)" : ""));
  }
  // No network benchmark selected (`--suite memory` over several nodes): no pair rounds.
  if (m_work.pairs.empty()) return {};
  auto plan =
      plan_sweep(n, m_options.pairs, m_options.pair_concurrency, cluster.leaves, draw_pair_seed());
  cluster.plan = plan.plan;
  cluster.pair_list = plan.pair_list;
  if (m_options.pairs.seed && plan.plan.method == "all")
    say(
        fmt::format("# cluster: --pair-seed not used: every pair is measured at {} nodes (the "
                    "default up to {} nodes; --pairs matchings draws them)",
                    n, default_matchings + localisation_steps + 1));
  return plan;
}

void mpi_launch::lead() {
  const std::size_t n = m_names.size();
  core::cluster_section cluster;
  for (std::size_t i = 0; i < n; ++i) {
    core::cluster_node node;
    node.name = m_names[i];
    node.ranks = m_ranks[i];
    cluster.nodes.push_back(std::move(node));
  }
  cluster.concurrency = m_options.pair_concurrency;
  const auto plan = plan_pairs(cluster);
  m_file.cluster = std::move(cluster);
  m_slots.emplace(*m_file.cluster);
  m_file.run.status = core::run_status::running;
  write();
  const std::size_t pairs = core::slot_count(*m_file.cluster);
  const std::string method =
      plan.plan.method == "matchings"
          ? fmt::format(" ({} random matchings, seed {})", plan.plan.matchings, plan.plan.seed)
          : std::string(" (every pair)");
  say(fmt::format(
      "# cluster: {} nodes, {} ranks; {}", n, m_node_of_rank.size(),
      plan.rounds == 0
          ? std::string("no network benchmark selected: no pair rounds")
          : fmt::format("{} pairs in {} rounds{}{}", pairs, plan.rounds, method,
                        m_options.pair_concurrency
                            ? fmt::format(", at most {} at once", m_options.pair_concurrency)
                            : "")));
  // A rank left out of the launch waits at most this long for its end: every step left, the
  // second look's at most, each two timeouts.
  m_steps->set_exclusion_wait(std::chrono::duration_cast<std::chrono::seconds>(
      2 * m_timeout * static_cast<long long>(plan.steps.size() + 4 * max_confirm_candidates + 4)));

  cluster_progress progress(work_budgets(m_work, *m_ctx, m_options.pair_sizes, plan.rounds));
  // 1. Every node by itself, all at once.
  take_local(local_report());
  std::set<int> leaders;
  for (std::size_t i = 1; i < n; ++i)
    leaders.insert(leader(i));
  for (const auto& r : m_steps->collect(leaders, after(m_timeout), "in the local phase", give_up()))
    take_local(r);
  if (m_ctx->interrupted()) {
    // Kept at once (rank 0's own node; a SIGKILL may follow), then the other nodes' cases as
    // far as they got: each leader stops at its next sample and reports.
    write();
    for (const auto& r : late_reports(leaders, after(report_grace)))
      take_local(r);
    return stop_sequence("in the local phase");
  }
  write();
  progress.local_done();
  say(fmt::format("# cluster: local phase done ({} node(s) measured themselves); {}", n,
                  progress.text()));

  // 2. The pairs, round by round (sub-rounds with --pair-concurrency).
  std::size_t round_pairs = 0, part = 0;
  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    const std::size_t r = plan.round_of_step[s];
    const auto parts = static_cast<std::size_t>(
        std::count(plan.round_of_step.begin(), plan.round_of_step.end(), r));
    ++part;
    const std::string when = parts > 1 ? fmt::format("in pair round {} of {} (part {} of {})",
                                                     r + 1, plan.rounds, part, parts)
                                       : fmt::format("in pair round {} of {}", r + 1, plan.rounds);
    pair_round_step(plan.steps[s], when);
    if (m_ctx->interrupted()) return stop_sequence(when);
    round_pairs += plan.steps[s].size();
    if (part < parts) continue;
    m_file.cluster->rounds = r + 1;
    write();
    progress.round_done();
    say(fmt::format("# cluster: pair round {}/{} done ({} pairs); {}", r + 1, plan.rounds,
                    round_pairs, progress.text()));
    round_pairs = part = 0;
  }

  // 2b. The second look at the suspects before they are named (cluster/confirm.hpp).
  std::vector<int> node_leaders;
  for (std::size_t i = 0; i < n; ++i)
    node_leaders.push_back(leader(i));
  confirm_candidates(
      m_file,
      {node_leaders, m_options.pair_concurrency,
       [this](const std::map<int, nlohmann::json>& commands, const launch_steps::role& own,
              const std::string& when) { return m_steps->run(commands, own, when); },
       [this](std::size_t node) { return m_steps->gone(node); },
       [this](const nlohmann::json& cmd) { return pair_role(cmd); },
       [this](const nlohmann::json& cmd) { return run_local_again(cmd, m_work.local, *m_ctx); },
       [this] { write(); }, [this](const std::string& line) { say(line); }});

  // 3. Allreduce scaling over every rank: not with a node that stopped answering (its ranks
  // would hold every collective); the job ends after the verdict instead.
  if (!m_steps->gone_nodes().empty()) {
    m_file.run.status = core::run_status::partial;
    m_file.run.finished = core::rfc3339_now();
    write();
    say(
        fmt::format("# cluster: {} node(s) stopped answering: no allreduce phase; the job ends "
                    "after the verdict",
                    m_steps->gone_nodes().size()));
    m_end_job = true;
    return;
  }
  const auto start = after(m_timeout);
  for (std::size_t r = 1; r < m_node_of_rank.size(); ++r)
    if (!send_json(static_cast<int>(r), tag_command, {{"cmd", "collectives"}}, start))
      abort_stalled(m_node_of_rank[r], "before the allreduce phase");
  const bool complete = run_collectives();
  m_file.run.status = complete ? core::run_status::complete : core::run_status::partial;
  m_file.run.finished = core::rfc3339_now();
  write();
}

void mpi_launch::pair_round_step(const core::pair_round& pairs, const std::string& when) {
  std::map<int, nlohmann::json> commands;
  for (const auto& p : pairs) {
    if (m_steps->gone(p.a) || m_steps->gone(p.b)) {
      not_measured(p.a, p.b);
      continue;
    }
    add_pair_commands(commands, leader(p.a), leader(p.b), p.a, p.b);
  }
  const auto own = [this](const nlohmann::json& cmd) { return pair_role(cmd); };
  for (const auto& report : m_steps->run(commands, own, when, give_up()))
    take_pair(report);
  write();
}

}  // namespace gpubench::cluster
