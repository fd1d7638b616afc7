#include "cluster/cluster_run.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "cluster/cluster_progress.hpp"
#include "cluster/cluster_stop.hpp"
#include "cluster/cluster_work.hpp"
#include "cluster/confirm.hpp"
#include "cluster/launch_secret.hpp"
#include "cluster/mpi_messages.hpp"
#include "cluster/pair_roles.hpp"
#include "core/cluster.hpp"
#include "core/cluster_schedule.hpp"
#include "core/progress.hpp"
#include "core/result_json.hpp"
#include "core/runner.hpp"
#include "core/system/system_probe.hpp"
#include "transports/mpi/launch_env.hpp"
#include "transports/mpi/mpi_session.hpp"
#include "transports/mpi/watchdog.hpp"
#include "transports/transport_list.hpp"

namespace gpubench::cluster {

namespace {

using clock = std::chrono::steady_clock;
using ms = std::chrono::milliseconds;

// How long, after an interrupt, the node leaders' reports of the local phase are waited for
// (and a leader tries to hand its report over): well within rank 0's stop grace (3 s).
constexpr ms report_grace{1500};

// Ends every rank of the job (mpirun and srun alike), as the collectives' watchdog does.
[[noreturn]] void abort_job(int rank, const std::string& why) {
  std::fprintf(stderr, "gpubench: rank %d: %s; aborting the MPI job\n", rank, why.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::_Exit(3);  // MPI_Abort does not return; should it, leave anyway
}

nlohmann::json cases_json(const std::vector<core::case_result>& results) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : results)
    out.push_back(core::case_to_json(c));
  return out;
}

std::vector<core::case_result> cases_from(const nlohmann::json& j) {
  std::vector<core::case_result> out;
  for (std::size_t i = 0; i < j.size(); ++i)
    out.push_back(core::case_from_json(j[i], "results[" + std::to_string(i) + "]"));
  return out;
}

class mpi_launch final : public launch {
 public:
  explicit mpi_launch(double timeout_s)
      : m_timeout(static_cast<long long>(timeout_s * 1000)),
        m_rank(transports::mpi::detect_launch().rank) {
    // MPI_Init and the name exchange are collectives: a rank that never arrives ends the job.
    transports::mpi::watchdog guard(4 * m_timeout, [this](const std::string& why) {
      abort_job(m_rank, "cluster start-up: " + why);
    });
    m_session = std::make_unique<transports::mpi::session>();
    m_rank = m_session->world_rank();
    const int size = m_session->layout().world_size;
    constexpr int width = 256;
    std::string mine = node_name();
    mine.resize(width - 1);
    std::vector<char> all(static_cast<std::size_t>(size) * width);
    transports::mpi::check(
        MPI_Allgather(mine.c_str(), width, MPI_CHAR, all.data(), width, MPI_CHAR, MPI_COMM_WORLD),
        "MPI_Allgather of node names");
    std::map<std::string, std::size_t> index;
    for (int r = 0; r < size; ++r) {
      const std::string name(all.data() + static_cast<std::size_t>(r) * width);
      auto [it, fresh] = index.emplace(name, m_names.size());
      if (fresh) {
        m_names.push_back(name);
        m_ranks.emplace_back();
      }
      m_ranks[it->second].push_back(r);
      m_node_of_rank.push_back(it->second);
    }
    // The launch secret: the pair servers' token, known to the ranks alone (MPI carries it
    // inside the launch). Every rank agrees on cluster(), so all or none join the broadcast.
    if (cluster()) {
      m_secret = broadcast_from_rank0(m_rank == 0 ? draw_launch_secret() : std::string(),
                                      launch_secret_chars);
      check_launch_secret(m_secret);
    }
  }

  bool cluster() const override { return m_names.size() >= 2; }

  core::node_share share() const override {
    core::node_share s;
    s.rank = m_rank;
    s.leader = leader(my_node());
    s.node = m_names[my_node()];
    s.ranks_on_node = static_cast<int>(m_ranks[my_node()].size());
    if (m_node_of_rank.size() > 1)
      s.meet = [this](double limit_s, core::launch_stop* stop) { return meet(limit_s, stop); };
    return s;
  }

  cluster_outcome sequence(const std::vector<const core::benchmark_def*>& selected,
                           const core::run_context& ctx, const core::registry& registry,
                           core::result_file file, const cluster_options& options) override {
    m_options = options;
    m_ctx = &ctx;
    m_registry = &registry;
    m_work = split_work(selected);
    if (m_rank != 0) {
      follow();
      return {};
    }
    m_file = std::move(file);
    lead();
    return {true, std::move(m_file)};
  }

 private:
  std::size_t my_node() const { return m_node_of_rank[static_cast<std::size_t>(m_rank)]; }
  int leader(std::size_t node) const { return m_ranks[node].front(); }
  bool is_leader() const { return leader(my_node()) == m_rank; }
  deadline after(ms wait) const { return clock::now() + wait; }
  ms half() const { return m_timeout / 2; }

  // Every rank at one point (the stop agreement's meeting when there is one: false when a
  // rank was interrupted); a rank still missing after `limit_s` ends the job.
  bool meet(double limit_s, core::launch_stop* stop) const {
    const auto until = clock::now() + std::chrono::duration_cast<clock::duration>(
                                          std::chrono::duration<double>(limit_s));
    const auto check = [&] {
      if (clock::now() > until)
        abort_job(m_rank, fmt::format("the ranks did not meet within {} after the node-local "
                                      "benchmarks (each node's leader measures them)",
                                      core::format_duration(limit_s)));
    };
    if (stop) return stop->meet(check);
    m_session->world_barrier(check);
    return true;
  }

  void say(const std::string& line) const {
    if (m_options.quiet) return;
    fmt::print("{}\n", line);
    std::fflush(stdout);
  }

  std::vector<core::case_result> run_cases(const std::vector<const core::benchmark_def*>& defs) {
    core::result_file scratch;
    core::runner(*m_ctx, {}).run(defs, scratch);
    return std::move(scratch.results);
  }

  nlohmann::json local_report() {
    auto results = run_cases(m_work.local);
    return {{"kind", "local"},
            {"node", my_node()},
            {"system", core::describe_system(*m_registry)},
            {"results", cases_json(results)}};
  }

  // What one end of a pair does, as its report to rank 0.
  nlohmann::json pair_role(const nlohmann::json& cmd) {
    nlohmann::json report = {{"kind", "pair"}, {"a", cmd.at("a")}, {"b", cmd.at("b")}};
    const int partner = cmd.at("partner").get<int>();
    if (cmd.at("role") == "server") {
      report["end"] = "server";
      // The previous pair's server goes first; this one lingers until the next (its thread
      // may wait out a silent client, and the report must not wait for it).
      // A server that cannot start (no port, no fd) is this pair's failure, not the node's.
      try {
        m_server.reset();
        m_server = std::make_unique<pair_server>(transports::all_transports(), half(), m_secret);
        const auto pass_on = [this] { interrupted_while_waiting(*m_ctx); };
        if (auto error = m_server->serve(partner, pass_on)) report["error"] = *error;
      } catch (const std::exception& e) {
        report["error"] = e.what();
      }
    } else {
      report["end"] = "client";
      try {
        report["cases"] = measure_pair(partner, m_work.pairs, *m_ctx, m_options.pair_sizes,
                                       m_options.pair_samples, half(), m_secret);
      } catch (const std::exception& e) {
        report["error"] = e.what();
      }
    }
    return report;
  }

  // Under the cluster's deadline (allreduce_context); rank 0 notes each case for a partial
  // write. False when interrupted.
  bool run_collectives() {
    m_server.reset();
    if (m_work.collectives.empty()) return true;
    const core::run_context ctx = allreduce_context(*m_ctx, m_options.timeout_s);
    std::optional<core::partial_notes> notes;
    if (m_rank == 0 && m_options.partial) notes.emplace(*m_options.partial);
    core::result_file scratch;
    core::runner(ctx,
                 notes ? std::vector<core::reporter*>{&*notes} : std::vector<core::reporter*>{})
        .run(m_work.collectives, scratch);
    if (m_rank == 0)
      for (auto& c : scratch.results)
        m_file.results.push_back(std::move(c));
    return scratch.run.status == core::run_status::complete;
  }

  // Every rank but 0: reports its node (leaders), then does what rank 0 says, each command
  // awaited with a deadline.
  void follow() {
    if (is_leader()) {
      const auto report = local_report();
      // Interrupted: rank 0 waits for the reports a short while only, then says stop.
      const bool stopping = m_ctx->interrupted();
      if (!send_json(0, tag_report, report, after(stopping ? report_grace : 10 * m_timeout)) &&
          !stopping)
        abort_job(m_rank, "rank 0 did not take this node's own results");
    }
    // Rank 0 measures its own node first: the first command may take the local phase's time.
    ms wait = 10 * m_timeout;
    // Waiting passes interrupts on (to rank 0, from it); rank 0 says when to stop.
    const auto pass_on = [this] {
      interrupted_while_waiting(*m_ctx);
      return false;
    };
    for (;;) {
      const auto cmd = receive_json(0, tag_command, after(wait), pass_on);
      if (!cmd)
        abort_job(m_rank, fmt::format("no word from rank 0 within {} s",
                                      static_cast<double>(wait.count()) / 1000));
      wait = 3 * m_timeout;
      const std::string what = cmd->doc.at("cmd").get<std::string>();
      if (what == "pair") {
        if (!send_json(0, tag_report, pair_role(cmd->doc), after(m_timeout)))
          abort_job(m_rank, "rank 0 did not take this pair's report");
      } else if (what == local_again_command) {
        if (!send_json(0, tag_report, run_local_again(cmd->doc, m_work.local, *m_ctx),
                       after(3 * m_timeout)))
          abort_job(m_rank, "rank 0 did not take this node's second look");
      } else if (what == "collectives") {
        run_collectives();
        return;
      } else if (what == "stop") {
        return;  // interrupted: rank 0 has written the partial file
      }          // "idle": this rank sits the sub-round out
    }
  }

  void write() const {
    if (m_options.partial)
      m_options.partial->write(m_file);
    else
      core::write_result_file(m_options.out, m_file);
  }

  // Interrupted (here or on another rank): writes the partial file and tells every rank to
  // stop. Reports still under way are not waited for.
  void stop_sequence(const std::string& when) {
    m_file.run.status = core::run_status::partial;
    m_file.run.finished = core::rfc3339_now();
    write();
    say(fmt::format("# cluster: interrupted {}; stopping every rank", when));
    const auto until = after(ms(2000));
    for (std::size_t r = 1; r < m_node_of_rank.size(); ++r)
      send_json(static_cast<int>(r), tag_command, {{"cmd", "stop"}}, until);
  }

  // Marks `nodes` stalled, writes the partial file naming them, and ends the job.
  [[noreturn]] void stalled(const std::set<std::size_t>& nodes, const std::string& when) {
    std::string names;
    for (const auto n : nodes) {
      auto& node = m_file.cluster->nodes[n];
      node.status = core::node_status::stalled;
      node.reason = fmt::format("no answer within {} s {}",
                                static_cast<double>(m_timeout.count()) / 1000, when);
      names += (names.empty() ? "" : ", ") + node.name;
    }
    m_file.run.status = core::run_status::partial;
    m_file.run.finished = core::rfc3339_now();
    write();
    abort_job(0, fmt::format("node(s) {} stopped answering {}; partial results in {}", names, when,
                             m_options.out.string()));
  }

  // Reports from `ranks` until `until`; a missing one stalls its node. When interrupted, the
  // reports so far (the others stay in `ranks`).
  std::vector<nlohmann::json> collect(std::set<int>& ranks, deadline until,
                                      const std::string& when) {
    std::vector<nlohmann::json> got;
    const auto give_up = [this] { return interrupted_while_waiting(*m_ctx); };
    while (!ranks.empty()) {
      auto m = receive_json(MPI_ANY_SOURCE, tag_report, until, give_up);
      if (!m && m_ctx->interrupted()) return got;  // the caller stops the sequence
      if (!m) {
        std::set<std::size_t> nodes;
        for (const int r : ranks)
          nodes.insert(m_node_of_rank[static_cast<std::size_t>(r)]);
        stalled(nodes, when);
      }
      ranks.erase(m->source);
      got.push_back(std::move(m->doc));
    }
    return got;
  }

  // After an interrupt: the reports of `ranks` that come by `until`; a missing one is no stall.
  static std::vector<nlohmann::json> late_reports(std::set<int>& ranks, deadline until) {
    std::vector<nlohmann::json> got;
    while (!ranks.empty()) {
      auto m = receive_json(MPI_ANY_SOURCE, tag_report, until);
      if (!m) break;
      ranks.erase(m->source);
      got.push_back(std::move(m->doc));
    }
    return got;
  }

  void take_local(const nlohmann::json& report) {
    auto& node = m_file.cluster->nodes.at(report.at("node").get<std::size_t>());
    node.system = report.at("system");
    node.results = cases_from(report.at("results"));
  }

  void take_pair(const nlohmann::json& report) {
    const auto a = report.at("a").get<std::size_t>();
    const auto b = report.at("b").get<std::size_t>();
    if (report.contains("error"))
      m_file.cluster->failures.push_back(
          {a, b, "",
           report.at("end").get<std::string>() + " end: " + report.at("error").get<std::string>()});
    if (report.contains("cases")) merge_pair(*m_file.cluster, a, b, report.at("cases"));
  }

  void lead() {
    const std::size_t n = m_names.size();
    core::cluster_section cluster;
    for (std::size_t i = 0; i < n; ++i) {
      core::cluster_node node;
      node.name = m_names[i];
      node.ranks = m_ranks[i];
      cluster.nodes.push_back(std::move(node));
    }
    cluster.concurrency = m_options.pair_concurrency;
    m_file.cluster = std::move(cluster);
    m_file.run.status = core::run_status::running;
    write();
    // No network benchmark selected (`--suite memory` over several nodes): no pair rounds.
    const auto rounds =
        m_work.pairs.empty() ? std::vector<core::pair_round>{} : core::round_robin(n);
    say(fmt::format(
        "# cluster: {} nodes, {} ranks; {}", n, m_node_of_rank.size(),
        rounds.empty()
            ? std::string("no network benchmark selected: no pair rounds")
            : fmt::format("{} pairs in {} rounds{}", core::pair_count(n), rounds.size(),
                          m_options.pair_concurrency
                              ? fmt::format(", at most {} at once", m_options.pair_concurrency)
                              : "")));

    cluster_progress progress(
        work_budgets(m_work, *m_ctx, m_options.pair_sizes.size(), rounds.size()));
    // 1. Every node by itself, all at once.
    take_local(local_report());
    std::set<int> leaders;
    for (std::size_t i = 1; i < n; ++i)
      leaders.insert(leader(i));
    for (const auto& r : collect(leaders, after(m_timeout), "in the local phase"))
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

    // 2. Every pair, round by round.
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      const auto subs = core::split_rounds({rounds[r]}, m_options.pair_concurrency);
      for (std::size_t s = 0; s < subs.size(); ++s) {
        const std::string when = subs.size() > 1
                                     ? fmt::format("in pair round {} of {} (part {} of {})", r + 1,
                                                   rounds.size(), s + 1, subs.size())
                                     : fmt::format("in pair round {} of {}", r + 1, rounds.size());
        pair_round_step(subs[s], when);
        if (m_ctx->interrupted()) return stop_sequence(when);
      }
      m_file.cluster->rounds = r + 1;
      write();
      progress.round_done();
      say(fmt::format("# cluster: pair round {}/{} done ({} pairs); {}", r + 1, rounds.size(),
                      rounds[r].size(), progress.text()));
    }

    // 2b. The second look at the suspects before they are named (cluster/confirm.hpp).
    std::vector<int> node_leaders;
    for (std::size_t i = 0; i < n; ++i)
      node_leaders.push_back(leader(i));
    confirm_candidates(
        m_file,
        {node_leaders, m_node_of_rank, m_timeout, m_options.pair_concurrency,
         [this](const nlohmann::json& cmd) { return pair_role(cmd); },
         [this](const nlohmann::json& cmd) { return run_local_again(cmd, m_work.local, *m_ctx); },
         [this](const std::set<std::size_t>& nodes, const std::string& when) {
           stalled(nodes, when);
         },
         [this] { write(); }, [this](const std::string& line) { say(line); }});

    // 3. Allreduce scaling over every rank.
    const auto start = after(m_timeout);
    for (std::size_t r = 1; r < m_node_of_rank.size(); ++r)
      if (!send_json(static_cast<int>(r), tag_command, {{"cmd", "collectives"}}, start))
        stalled({m_node_of_rank[r]}, "before the allreduce phase");
    const bool complete = run_collectives();
    m_file.run.status = complete ? core::run_status::complete : core::run_status::partial;
    m_file.run.finished = core::rfc3339_now();
    write();
  }

  void pair_round_step(const core::pair_round& pairs, const std::string& when) {
    const auto until = after(m_timeout);
    std::map<int, nlohmann::json> commands;
    std::set<int> expected;
    for (const auto& p : pairs) {
      const int server = leader(p.a), client = leader(p.b);
      commands[server] = {
          {"cmd", "pair"}, {"role", "server"}, {"partner", client}, {"a", p.a}, {"b", p.b}};
      commands[client] = {
          {"cmd", "pair"}, {"role", "client"}, {"partner", server}, {"a", p.a}, {"b", p.b}};
      expected.insert(server);
      expected.insert(client);
    }
    for (std::size_t r = 1; r < m_node_of_rank.size(); ++r) {
      const int rank = static_cast<int>(r);
      const auto it = commands.find(rank);
      const nlohmann::json cmd =
          it == commands.end() ? nlohmann::json{{"cmd", "idle"}} : it->second;
      if (!send_json(rank, tag_command, cmd, until)) stalled({m_node_of_rank[r]}, when);
    }
    if (const auto own = commands.find(0); own != commands.end()) {
      take_pair(pair_role(own->second));
      expected.erase(0);
    }
    for (const auto& report : collect(expected, until, when))
      take_pair(report);
    write();
  }

  ms m_timeout;
  int m_rank = 0;
  std::unique_ptr<transports::mpi::session> m_session;
  std::vector<std::string> m_names;         // node index -> name
  std::vector<std::vector<int>> m_ranks;    // node index -> its world ranks
  std::vector<std::size_t> m_node_of_rank;  // world rank -> node index
  std::string m_secret;                     // the launch secret (cluster() only)
  cluster_options m_options;
  const core::run_context* m_ctx = nullptr;
  const core::registry* m_registry = nullptr;
  cluster_work m_work;
  core::result_file m_file;
  std::unique_ptr<pair_server> m_server;  // this node's last pair server
};

}  // namespace

std::unique_ptr<launch> open_launch(double timeout_s) {
  return std::make_unique<mpi_launch>(timeout_s);
}

}  // namespace gpubench::cluster
