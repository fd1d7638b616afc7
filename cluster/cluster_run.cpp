#include "cluster/mpi_launch.hpp"

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
#include "cluster/launch_steps.hpp"
#include "cluster/mpi_messages.hpp"
#include "cluster/pair_roles.hpp"
#include "cluster/sweep_plan.hpp"
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

nlohmann::json cases_json(const std::vector<core::case_result>& results) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : results)
    out.push_back(core::case_to_json(c));
  return out;
}

}  // namespace

// Ends every rank of the job (mpirun and srun alike), as the collectives' watchdog does.
void abort_job(int rank, const std::string& why) {
  std::fprintf(stderr, "gpubench: rank %d: %s; aborting the MPI job\n", rank, why.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::_Exit(3);  // MPI_Abort does not return; should it, leave anyway
}

mpi_launch::mpi_launch(double timeout_s)
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

core::node_share mpi_launch::share() const {
  core::node_share s;
  s.rank = m_rank;
  s.leader = leader(my_node());
  s.node = m_names[my_node()];
  s.ranks_on_node = static_cast<int>(m_ranks[my_node()].size());
  if (m_node_of_rank.size() > 1)
    s.meet = [this](double limit_s, core::launch_stop* stop) { return meet(limit_s, stop); };
  return s;
}

cluster_outcome mpi_launch::sequence(const std::vector<const core::benchmark_def*>& selected,
                                     const core::run_context& ctx, const core::registry& registry,
                                     core::result_file file, const cluster_options& options) {
  m_options = options;
  m_ctx = &ctx;
  m_registry = &registry;
  m_work = split_work(selected);
  if (m_rank != 0) {
    follow();
    return {};
  }
  m_file = std::move(file);
  m_steps.emplace(m_node_of_rank, m_timeout,
                  [this](const std::set<std::size_t>& nodes, const std::string& when) {
                    stopped_answering(nodes, when);
                  });
  lead();
  return {true, std::move(m_file), m_end_job};
}

bool mpi_launch::meet(double limit_s, core::launch_stop* stop) const {
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

void mpi_launch::say(const std::string& line) const {
  if (m_options.quiet) return;
  fmt::print("{}\n", line);
  std::fflush(stdout);
}

std::vector<core::case_result> mpi_launch::run_cases(
    const std::vector<const core::benchmark_def*>& defs) {
  core::result_file scratch;
  core::runner(*m_ctx, {}).run(defs, scratch);
  return std::move(scratch.results);
}

nlohmann::json mpi_launch::local_report() {
  auto results = run_cases(m_work.local);
  return {{"kind", "local"},
          {"node", my_node()},
          {"system", core::describe_system(*m_registry)},
          {"results", cases_json(results)}};
}

nlohmann::json mpi_launch::pair_role(const nlohmann::json& cmd) {
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
      report["cases"] =
          measure_pair(partner, m_work.pairs, *m_ctx, m_options.pair_sizes, m_options.pair_samples,
                       half(), m_secret, cmd.value("direction", ""));
    } catch (const std::exception& e) {
      report["error"] = e.what();
    }
  }
  return report;
}

bool mpi_launch::run_collectives() {
  m_server.reset();
  if (m_work.collectives.empty()) return true;
  const core::run_context ctx = allreduce_context(*m_ctx, m_options.timeout_s);
  std::optional<core::partial_notes> notes;
  if (m_rank == 0 && m_options.partial) notes.emplace(*m_options.partial);
  core::result_file scratch;
  core::runner(ctx, notes ? std::vector<core::reporter*>{&*notes} : std::vector<core::reporter*>{})
      .run(m_work.collectives, scratch);
  if (m_rank == 0)
    for (auto& c : scratch.results)
      m_file.results.push_back(std::move(c));
  return scratch.run.status == core::run_status::complete;
}

void mpi_launch::follow() {
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
    } else if (what == excluded_command) {
      return sit_out(std::chrono::seconds(cmd->doc.value("wait_s", 3600)));
    }  // "idle": this rank sits the sub-round out
  }
}

void mpi_launch::sit_out(std::chrono::seconds wait) const {
  const auto pass_on = [this] {
    interrupted_while_waiting(*m_ctx);
    return false;
  };
  std::fprintf(stderr,
               "gpubench: rank %d: answered too late and was left out of the launch; waiting "
               "for rank 0 to end the job\n",
               m_rank);
  const auto until = clock::now() + wait;
  for (;;) {
    const auto cmd = receive_json(0, tag_command, until, pass_on);
    if (!cmd) abort_job(m_rank, "left out of the launch, and rank 0 did not end the job in time");
    if (cmd->doc.at("cmd") == "stop") return;
  }
}

std::unique_ptr<launch> open_launch(double timeout_s) {
  return std::make_unique<mpi_launch>(timeout_s);
}

}  // namespace gpubench::cluster
