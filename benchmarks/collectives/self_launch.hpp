// Not launched by MPI, the MPI backend starts itself on local ranks through the MPI launcher
// it finds: `mpirun -np N gpubench run --filter ^coll\.allreduce$ ...` (the collective's own
// id), whose rank 0 writes a result file that the parent reads back. Always under a deadline.
#pragma once

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace gpubench::benchmarks::collectives {

struct self_launch_request {
  std::string benchmark;  // the one benchmark the child runs: coll.allreduce
  std::string self_exe;   // this program
  int ranks = 2;
  std::string dtype = "float32";
  bool in_place = false;
  bool check = true;       // false: the child gets --no-check
  std::string sizes;       // MIN:MAX for the child
  double timeout_s = 120;  // the whole child launch
  bool open_mpi = true;    // the launcher's flavour decides its flags
  bool as_root = false;
  const std::atomic<bool>* interrupt = nullptr;
};

// The launcher and its arguments (pure: tested without running anything).
std::vector<std::string> launcher_argv(const self_launch_request& r, const std::string& launcher,
                                       const std::filesystem::path& result_path);

// The sizes a self-launched run measures when --sizes was not given: one host's shared
// memory needs no 1 GiB sweep, and the whole interconnect suite must stay quick.
std::string default_self_launch_sizes(bool quick);

// mpirun, else mpiexec, in PATH.
std::optional<std::filesystem::path> find_launcher();

// Runs the launch and returns the child's case of `r.benchmark`. Throws core::skip_case when
// the child skipped, std::runtime_error (with the launcher's last output) when it failed,
// timed out or was interrupted.
core::case_result run_self_launch(const self_launch_request& r, const std::string& launcher);

}  // namespace gpubench::benchmarks::collectives
