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

struct run_context {
  bool quick = false;
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
