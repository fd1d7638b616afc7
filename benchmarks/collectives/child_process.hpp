// A child process (the MPI launcher starting gpubench on local ranks) run with a deadline:
// its own process group, output to files, killed with its whole group when the deadline
// passes, when the run is interrupted, or when this object goes away.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpubench::benchmarks::collectives {

struct child_outcome {
  bool timed_out = false;
  bool interrupted = false;
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
  double seconds = 0;
};

class child_process {
 public:
  // Starts argv[0] (searched in PATH) with extra environment variables; stdout and stderr go
  // to `output`. Throws std::runtime_error when it cannot start.
  child_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                const std::filesystem::path& output);
  ~child_process();
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  // Waits up to `timeout_s`; on timeout or interrupt the group gets SIGTERM, then SIGKILL.
  child_outcome wait(double timeout_s, const std::atomic<bool>* interrupt);

 private:
  void kill_group();
  pid_t m_pid = -1;
  bool m_reaped = false;
};

// The last `max_bytes` of a file, for error messages ("" when unreadable).
std::string file_tail(const std::filesystem::path& path, std::size_t max_bytes = 1500);

// The first executable named `name` in PATH, or nothing.
std::optional<std::filesystem::path> find_in_path(const std::string& name);

}  // namespace gpubench::benchmarks::collectives
