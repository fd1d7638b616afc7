#include "benchmarks/collectives/self_launch.hpp"

#include <stdlib.h>

#include <stdexcept>

#include <fmt/format.h>

#include "benchmarks/collectives/child_process.hpp"
#include "core/errors.hpp"
#include "core/result_json.hpp"

namespace gpubench::benchmarks::collectives {

namespace {

// A private directory for the child's result and output, removed with everything in it.
class temp_dir {
 public:
  temp_dir() {
    std::string templ = (std::filesystem::temp_directory_path() / "gpubench-coll-XXXXXX").string();
    if (!::mkdtemp(templ.data()))
      throw std::runtime_error(core::errno_message("creating a temporary directory", errno));
    m_path = templ;
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

// ^coll\.allreduce$ for coll.allreduce: the id and nothing else, its dots taken literally.
std::string id_filter(const std::string& id) {
  std::string out = "^";
  for (const char c : id) {
    if (c == '.') out += '\\';
    out += c;
  }
  return out + "$";
}

}  // namespace

std::vector<std::string> launcher_argv(const self_launch_request& r, const std::string& launcher,
                                       const std::filesystem::path& result_path) {
  std::vector<std::string> a{launcher, "-np", std::to_string(r.ranks)};
  if (r.open_mpi) {
    // More ranks than cores is the point on a small machine; no binding so ranks may move.
    a.insert(a.end(), {"--oversubscribe", "--bind-to", "none"});
    if (r.as_root) a.push_back("--allow-run-as-root");
  }
  a.insert(a.end(),
           {r.self_exe, "run", "--suite", "collectives", "--filter", id_filter(r.benchmark),
            "--backend", "mpi", "--place", r.in_place ? "in" : "out", "--dtype", r.dtype, "--sizes",
            r.sizes, "--coll-timeout", fmt::format("{:g}", r.timeout_s), "--quiet", "--out",
            result_path.string()});
  if (!r.check) a.push_back("--no-check");  // the check is the child's default too
  return a;
}

std::string default_self_launch_sizes(bool quick) {
  return quick ? "8:64K" : "8:1M";
}

std::optional<std::filesystem::path> find_launcher() {
  if (auto p = find_in_path("mpirun")) return p;
  return find_in_path("mpiexec");
}

core::case_result run_self_launch(const self_launch_request& r, const std::string& launcher) {
  temp_dir dir;
  const auto result_path = dir.path() / "result.json";
  const auto output_path = dir.path() / "output.txt";
  const auto argv = launcher_argv(r, launcher, result_path);
  std::string command;
  for (const auto& a : argv)
    command += (command.empty() ? "" : " ") + a;

  child_outcome o;
  {
    child_process child(argv, {}, output_path);
    o = child.wait(r.timeout_s, r.interrupt);
  }
  const std::string tail = file_tail(output_path);
  const std::string said = tail.empty() ? "" : "; its output ended with:\n" + tail;
  if (o.interrupted) throw core::interrupted();
  if (o.timed_out)
    throw std::runtime_error(
        fmt::format("`{}` did not finish within {:g} s (--coll-timeout) and "
                    "was killed with its ranks{}",
                    command, r.timeout_s, said));
  if (o.signal != 0)
    throw std::runtime_error(
        fmt::format("`{}` was killed by signal {}{}", command, o.signal, said));
  if (!std::filesystem::exists(result_path))
    throw std::runtime_error(
        fmt::format("`{}` exited with code {} after {:.1f} s and wrote no "
                    "result{}",
                    command, o.exit_code, o.seconds, said));
  core::result_file child;
  try {
    child = core::read_result_file(result_path);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("reading the result of `{}`: {}", command, e.what()));
  }
  for (auto& c : child.results) {
    if (c.benchmark != r.benchmark) continue;
    if (c.status == core::case_status::skipped) throw core::skip_case(c.reason);
    // A rank that died makes the launcher stop the others (SIGTERM), which their case calls
    // an interrupt: the launcher's own word says which rank and how.
    if (c.status == core::case_status::failed)
      throw std::runtime_error(fmt::format(
          "{} ranks under {}: {}{}", r.ranks, launcher, c.reason,
          o.exit_code != 0 ? fmt::format("; `{}` exited with code {}{}", command, o.exit_code, said)
                           : std::string()));
    if (o.exit_code != 0)
      throw std::runtime_error(
          fmt::format("`{}` exited with code {}{}", command, o.exit_code, said));
    return std::move(c);
  }
  throw std::runtime_error(
      fmt::format("`{}` exited with code {} after {:.1f} s before rank 0 "
                  "recorded the case: a rank died or failed{}",
                  command, o.exit_code, o.seconds, said));
}

}  // namespace gpubench::benchmarks::collectives
