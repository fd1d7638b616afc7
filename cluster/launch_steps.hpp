// One step of a cluster launch on rank 0 (a pair round, a step of the second look, the local
// phase's reports): a command to every rank that still answers, rank 0's own part, and the
// reports by a deadline. A node whose rank does not answer by then has stopped answering: it is
// reported once (the launch marks it in the file) and left out of every later step, so the
// launch goes on without it; its rank is told so, and waits (bounded) for the job's end.
// Built with MPI only. docs/cluster.md "Every phase has a deadline".
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cluster/mpi_messages.hpp"

namespace gpubench::cluster {

// The command a rank that stopped answering gets when it answers again: it is out of the launch
// and waits up to "wait_s" for rank 0 to end the job.
inline constexpr const char* excluded_command = "excluded";

// The commands of one pair {a, b} (a serves, b measures) for the two leaders; `direction`
// ("", "to_peer", "from_peer") says which ways of bandwidth to measure.
void add_pair_commands(std::map<int, nlohmann::json>& commands, int server, int client,
                       std::size_t a, std::size_t b, const std::string& direction = "");

class launch_steps {
 public:
  using role = std::function<nlohmann::json(const nlohmann::json&)>;
  // Called with the nodes that stopped answering and when ("in pair round 3 of 7"), once each.
  using silent_handler = std::function<void(const std::set<std::size_t>&, const std::string&)>;

  launch_steps(std::vector<std::size_t> node_of_rank, std::chrono::milliseconds timeout,
               silent_handler silent);

  // Sends `commands` (by world rank; every other rank that still answers sits the step out),
  // runs rank 0's own part with `own`, and returns the reports of the ranks given a command
  // (rank 0's first). A rank that does not take its command or report within the timeout (after
  // rank 0's own part) stops its node. `give_up` (interrupts) ends the wait early.
  std::vector<nlohmann::json> run(const std::map<int, nlohmann::json>& commands, const role& own,
                                  const std::string& when,
                                  const std::function<bool()>& give_up = {});

  // The reports of `ranks` by `until` (`ranks` keeps those not heard from); reports of other
  // ranks (late ones from a node already stopped) are dropped. At the deadline the missing
  // ranks' nodes stop answering, unless `give_up` said stop.
  std::vector<nlohmann::json> collect(std::set<int>& ranks, deadline until, const std::string& when,
                                      const std::function<bool()>& give_up = {});

  bool gone(std::size_t node) const { return m_gone.count(node) > 0; }
  bool rank_gone(int rank) const;
  const std::set<std::size_t>& gone_nodes() const { return m_gone; }
  // How long an excluded rank waits for the job's end (rank 0 sets it from the steps left).
  void set_exclusion_wait(std::chrono::seconds wait) { m_exclusion_wait = wait; }

 private:
  void stop_answering(const std::set<std::size_t>& nodes, const std::string& when);

  std::vector<std::size_t> m_node_of_rank;
  std::chrono::milliseconds m_timeout;
  silent_handler m_silent;
  std::set<std::size_t> m_gone;
  std::chrono::seconds m_exclusion_wait{3600};
};

}  // namespace gpubench::cluster
