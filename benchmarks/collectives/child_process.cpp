#include "benchmarks/collectives/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/errors.hpp"
#include "core/timer.hpp"

namespace gpubench::benchmarks::collectives {

child_process::child_process(const std::vector<std::string>& argv,
                             const std::map<std::string, std::string>& env,
                             const std::filesystem::path& output) {
  if (argv.empty()) throw std::logic_error("child_process without a command");
  const int out = ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (out < 0) throw std::runtime_error(core::errno_message("creating " + output.string(), errno));
  std::vector<char*> args;
  for (const auto& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int err = errno;
    ::close(out);
    throw std::runtime_error(core::errno_message("starting " + argv[0], err));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    ::setpgid(0, 0);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(out, STDERR_FILENO);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
    for (const auto& [k, v] : env)
      ::setenv(k.c_str(), v.c_str(), 1);
    ::execvp(args[0], args.data());
    const char msg[] = "gpubench: could not execute the MPI launcher\n";
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, msg, sizeof msg - 1);
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also from the parent, so kill_group never races the child's call
  ::close(out);
  m_pid = pid;
}

child_process::~child_process() {
  if (m_pid > 0 && !m_reaped) {
    kill_group();
    int status = 0;
    ::waitpid(m_pid, &status, 0);
  }
}

void child_process::kill_group() {
  ::kill(-m_pid, SIGTERM);
  for (int i = 0; i < 40; ++i) {  // 2 s for mpirun to take its ranks down cleanly
    int status = 0;
    const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
    if (r == m_pid) {
      m_reaped = true;
      ::kill(-m_pid, SIGKILL);  // stragglers of the group
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(-m_pid, SIGKILL);
}

child_outcome child_process::wait(double timeout_s, const std::atomic<bool>* interrupt) {
  child_outcome o;
  const core::stopwatch clock;
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
    if (r == m_pid) {
      m_reaped = true;
      if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
      if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
      break;
    }
    if (r < 0 && errno != EINTR)
      throw std::runtime_error(core::errno_message("waiting for the MPI launcher", errno));
    if (interrupt && interrupt->load()) {
      o.interrupted = true;
      break;
    }
    if (clock.seconds() > timeout_s) {
      o.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!m_reaped) {
    kill_group();
    if (!m_reaped) {
      int status = 0;
      ::waitpid(m_pid, &status, 0);
      m_reaped = true;
    }
  }
  // Ranks the launcher left behind (it died first) must not outlive the case either.
  ::kill(-m_pid, SIGKILL);
  o.seconds = clock.seconds();
  return o;
}

std::string file_tail(const std::filesystem::path& path, std::size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  if (s.size() > max_bytes) s = "..." + s.substr(s.size() - max_bytes);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

std::optional<std::filesystem::path> find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  std::string p = path;
  std::size_t pos = 0;
  while (pos <= p.size()) {
    const std::size_t colon = std::min(p.find(':', pos), p.size());
    const std::string dir = p.substr(pos, colon - pos);
    if (!dir.empty()) {
      const std::filesystem::path candidate = std::filesystem::path(dir) / name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    pos = colon + 1;
  }
  return std::nullopt;
}

}  // namespace gpubench::benchmarks::collectives
