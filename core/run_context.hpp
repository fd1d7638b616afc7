// What a run was asked for: quick mode, the peer, size overrides and family options.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "core/launch_stop.hpp"
#include "core/units.hpp"

namespace gpubench::core {

// An option a benchmark family adds to `gpubench run` (e.g. --streams, --rdma-device).
struct run_context;

struct option_spec {
  std::string name;  // without dashes: "streams"
  std::string help;
  std::string default_value;  // empty: unset unless given
  bool flag = false;          // a switch without a value: "true" when given
  // Throws usage_error for a bad value. `run` applies every option's check before it selects
  // benchmarks, so a bad value is an error even when its benchmark is filtered out. It gets
  // the whole context, as some values are only wrong in combination.
  std::function<void(const run_context&)> check = {};
};

// Under an MPI launch the ranks of one node share its memory, GPUs and links: node-local
// benchmarks (everything but collectives) are measured once per node, by its leader (its first
// rank), and the other ranks of the node skip them (core/runner.cpp).
struct node_share {
  int rank = 0;           // this process's world rank
  int leader = 0;         // the world rank that measures for this node
  std::string node;       // the node's name
  int ranks_on_node = 1;  // ranks of the launch on this node
  // Every rank of the launch calls it at the same point, before the first collective case that
  // follows node-local ones, so that ranks which skipped those wait for the leaders instead of
  // starting the collective's deadline early; through the launch's stop agreement when there
  // is one (`stop`: false when a rank was interrupted), and ending the job after `limit_s`.
  // Unset: nothing to wait for (a launch without MPI, or one rank).
  std::function<bool(double limit_s, launch_stop* stop)> meet;

  bool leads() const { return rank == leader; }
};

struct run_context {
  bool quick = false;
  double point_timeout = 0;                      // --point-timeout: a cap on every point (0: none)
  std::optional<std::string> peer;               // HOST[:PORT] of a `gpubench serve`
  std::optional<size_range> sizes;               // --sizes overrides every sweep
  std::map<std::string, std::string> options;    // family options by name, as given
  std::string self_exe;                          // this program, for launching itself (mpirun)
  const std::atomic<bool>* interrupt = nullptr;  // set on SIGINT/SIGTERM
  // Under an MPI launch: how the ranks stop together (polled between samples, met around
  // collective cases); nullptr in a run of one process.
  launch_stop* stop = nullptr;
  // Writes the result file as measured so far with status "partial", the case in progress
  // failed with `why` (rank 0; does nothing elsewhere). Callable from any thread: a watchdog
  // about to end the job calls it.
  std::function<void(const std::string& why)> save_partial;

  // The peer's token held in memory (cluster mode's launch secret); when set it is used
  // instead of --token-file. Never printed or written anywhere.
  std::string peer_token;

  // Set under an MPI launch (node_share above); unset for a process of its own.
  std::optional<node_share> shared_node;

  bool interrupted() const { return interrupt && interrupt->load(std::memory_order_relaxed); }
  // Passes this rank's interrupt on and takes the other ranks' (main thread; no-op alone).
  void poll_peers() const {
    if (stop) stop->poll();
  }

  // A family option's value, or std::nullopt when neither given nor defaulted.
  std::optional<std::string> option(const std::string& name) const;
  // As an integer; throws usage_error naming the option when it is not one.
  std::optional<long long> option_int(const std::string& name) const;
};

}  // namespace gpubench::core
