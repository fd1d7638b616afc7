#include "cluster/launch_steps.hpp"

#include <mpi.h>

namespace gpubench::cluster {

namespace {

deadline step_deadline(std::chrono::milliseconds wait) {
  return std::chrono::steady_clock::now() + wait;
}

}  // namespace

void add_pair_commands(std::map<int, nlohmann::json>& commands, int server, int client,
                       std::size_t a, std::size_t b, const std::string& direction) {
  nlohmann::json base = {{"cmd", "pair"}, {"a", a}, {"b", b}};
  if (!direction.empty()) base["direction"] = direction;
  auto& s = commands[server] = base;
  s["role"] = "server";
  s["partner"] = client;
  auto& c = commands[client] = base;
  c["role"] = "client";
  c["partner"] = server;
}

launch_steps::launch_steps(std::vector<std::size_t> node_of_rank, std::chrono::milliseconds timeout,
                           silent_handler silent)
    : m_node_of_rank(std::move(node_of_rank)), m_timeout(timeout), m_silent(std::move(silent)) {}

bool launch_steps::rank_gone(int rank) const {
  return gone(m_node_of_rank.at(static_cast<std::size_t>(rank)));
}

void launch_steps::stop_answering(const std::set<std::size_t>& nodes, const std::string& when) {
  std::set<std::size_t> fresh;
  for (const auto n : nodes)
    if (m_gone.insert(n).second) fresh.insert(n);
  if (fresh.empty()) return;
  if (m_silent) m_silent(fresh, when);
  // Its ranks are told once, without waiting for them to take it (a stopped process never
  // does): should one answer again, it leaves the launch's steps and waits for the job's end
  // instead of ending the job for want of a command.
  const nlohmann::json cmd = {{"cmd", excluded_command}, {"wait_s", m_exclusion_wait.count()}};
  for (std::size_t r = 1; r < m_node_of_rank.size(); ++r)
    if (fresh.count(m_node_of_rank[r]))
      send_json(static_cast<int>(r), tag_command, cmd,
                step_deadline(std::chrono::milliseconds(50)));
}

std::vector<nlohmann::json> launch_steps::collect(std::set<int>& ranks, deadline until,
                                                  const std::string& when,
                                                  const std::function<bool()>& give_up) {
  std::vector<nlohmann::json> got;
  while (!ranks.empty()) {
    auto m = receive_json(MPI_ANY_SOURCE, tag_report, until, give_up);
    if (!m) {
      if (give_up && give_up()) return got;  // the caller stops the sequence
      std::set<std::size_t> nodes;
      for (const int r : ranks)
        nodes.insert(m_node_of_rank[static_cast<std::size_t>(r)]);
      ranks.clear();
      stop_answering(nodes, when);
      return got;
    }
    if (!ranks.count(m->source)) continue;  // late, from a node that stopped answering
    ranks.erase(m->source);
    got.push_back(std::move(m->doc));
  }
  return got;
}

std::vector<nlohmann::json> launch_steps::run(const std::map<int, nlohmann::json>& commands,
                                              const role& own, const std::string& when,
                                              const std::function<bool()>& give_up) {
  const auto until = step_deadline(m_timeout);
  std::set<int> expected;
  std::set<std::size_t> silent;
  for (std::size_t r = 1; r < m_node_of_rank.size(); ++r) {
    const int rank = static_cast<int>(r);
    if (gone(m_node_of_rank[r])) continue;
    const auto it = commands.find(rank);
    const nlohmann::json cmd = it == commands.end() ? nlohmann::json{{"cmd", "idle"}} : it->second;
    if (!send_json(rank, tag_command, cmd, until))
      silent.insert(m_node_of_rank[r]);
    else if (it != commands.end())
      expected.insert(rank);
  }
  if (!silent.empty()) stop_answering(silent, when);
  std::vector<nlohmann::json> reports;
  if (const auto it = commands.find(0); it != commands.end()) reports.push_back(own(it->second));
  // Rank 0's own part may have used the step's time: the others get a full timeout after it.
  for (auto& r : collect(expected, step_deadline(m_timeout), when, give_up))
    reports.push_back(std::move(r));
  return reports;
}

}  // namespace gpubench::cluster
