// Exceptions that carry an exit code or a case outcome, so callers never see a bare errno.
#pragma once

#include <stdexcept>
#include <string>

namespace gpubench::core {

// Bad command-line usage: exit code 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Bad input file or data (missing, truncated, wrong schema): exit code 2.
struct input_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown by a benchmark body when a requirement is missing at run time: the case is
// recorded as skipped with this reason, and the run still succeeds.
struct skip_case : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown by a benchmark body to fail its case and end the run (`--on-error stop`): the case
// is recorded as failed with this reason, later cases are not run, the run is partial.
struct stop_run : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown by the runner when SIGINT/SIGTERM arrived: the run stops and keeps what it has.
struct interrupted : std::runtime_error {
  interrupted() : std::runtime_error("interrupted") {}
};

// "what: strerror(errno)" for system call failures.
std::string errno_message(const std::string& what, int err);

}  // namespace gpubench::core
