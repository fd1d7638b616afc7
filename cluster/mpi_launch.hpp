// The MPI side of a cluster launch (cluster_run.hpp), shared by its two files: start-up and
// what every rank but 0 does (cluster_run.cpp), and rank 0's sequence, from the pair plan to
// the file (cluster_lead.cpp). Private to cluster/; built with MPI only.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cluster/cluster_run.hpp"
#include "cluster/cluster_work.hpp"
#include "cluster/launch_steps.hpp"
#include "cluster/mpi_messages.hpp"
#include "cluster/pair_roles.hpp"
#include "cluster/sweep_plan.hpp"
#include "core/cluster.hpp"
#include "transports/mpi/mpi_session.hpp"

namespace gpubench::cluster {

// How long, after an interrupt, the node leaders' reports of the local phase are waited for
// (and a leader tries to hand its report over): well within rank 0's stop grace (3 s).
inline constexpr std::chrono::milliseconds report_grace{1500};

// Ends every rank of the job (mpirun and srun alike), as the collectives' watchdog does.
[[noreturn]] void abort_job(int rank, const std::string& why);

class mpi_launch final : public launch {
 public:
  using clock = std::chrono::steady_clock;
  using ms = std::chrono::milliseconds;

  explicit mpi_launch(double timeout_s);

  bool cluster() const override { return m_names.size() >= 2; }

  core::node_share share() const override;

  cluster_outcome sequence(const std::vector<const core::benchmark_def*>& selected,
                           const core::run_context& ctx, const core::registry& registry,
                           core::result_file file, const cluster_options& options) override;

  [[noreturn]] void end_job(const std::string& why) override { abort_job(m_rank, why); }

 private:
  std::size_t my_node() const { return m_node_of_rank[static_cast<std::size_t>(m_rank)]; }
  int leader(std::size_t node) const { return m_ranks[node].front(); }
  bool is_leader() const { return leader(my_node()) == m_rank; }
  deadline after(ms wait) const { return clock::now() + wait; }
  ms half() const { return m_timeout / 2; }

  // Every rank at one point (the stop agreement's meeting when there is one: false when a
  // rank was interrupted); a rank still missing after `limit_s` ends the job.
  bool meet(double limit_s, core::launch_stop* stop) const;

  void say(const std::string& line) const;

  std::vector<core::case_result> run_cases(const std::vector<const core::benchmark_def*>& defs);

  nlohmann::json local_report();

  // What one end of a pair does, as its report to rank 0.
  nlohmann::json pair_role(const nlohmann::json& cmd);

  // Under the cluster's deadline (allreduce_context); rank 0 notes each case for a partial
  // write. False when interrupted.
  bool run_collectives();

  // Every rank but 0: reports its node (leaders), then does what rank 0 says, each command
  // awaited with a deadline.
  void follow();

  // This node stopped answering in time and the launch went on without it: rank 0 ends the job
  // (MPI_Abort) once its file is written, or says stop; at `wait` this rank ends it.
  void sit_out(std::chrono::seconds wait) const;

  void write() const;
  // Interrupted (here or on another rank): writes the partial file and tells every rank to
  // stop. Reports still under way are not waited for.
  void stop_sequence(const std::string& when);
  // Marks `nodes` stalled (they did not answer within the timeout `when`), writes the file and
  // says so; the launch goes on without them (launch_steps).
  void stopped_answering(const std::set<std::size_t>& nodes, const std::string& when);
  // A rank that did not take the allreduce phase's command: that phase cannot run.
  [[noreturn]] void abort_stalled(std::size_t node, const std::string& when);
  std::function<bool()> give_up() const;
  // After an interrupt: the reports of `ranks` that come by `until`; a missing one is no stall.
  static std::vector<nlohmann::json> late_reports(std::set<int>& ranks, deadline until);
  void take_local(const nlohmann::json& report);
  // A pair of the plan with an end that had stopped answering: not measured, and why.
  void not_measured(std::size_t a, std::size_t b);
  void take_pair(const nlohmann::json& report);
  // The pairs to measure (--pairs, --pair-seed) and each node's leaf (--topology), recorded in
  // the file before the first round.
  sweep plan_pairs(core::cluster_section& cluster);
  void lead();
  void pair_round_step(const core::pair_round& pairs, const std::string& when);

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
  std::unique_ptr<pair_server> m_server;     // this node's last pair server
  std::optional<launch_steps> m_steps;       // rank 0: the steps, and who stopped answering
  std::optional<core::slot_lookup> m_slots;  // rank 0: each pair's slot in the file
  bool m_end_job = false;  // a node stopped answering: MPI_Abort after the verdict
};

}  // namespace gpubench::cluster
