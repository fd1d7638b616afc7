#include "cli/run_setup.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <ctime>
#include <random>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/openmetrics.hpp"
#include "core/result_json.hpp"
#include "transports/mpi/launch_env.hpp"

namespace gpubench::cli {

namespace {
std::string utc_stamp() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}
}  // namespace

std::string make_run_id(const std::string& host) {
  std::random_device rd;
  return fmt::format("{}-{}-{:06x}", host, utc_stamp(), rd() & 0xffffffu);
}

std::filesystem::path default_result_path(const std::string& suite, const std::string& host) {
  return std::filesystem::path("results") /
         fmt::format("gpubench-{}-{}-{}.json", suite, host, utc_stamp());
}

void check_result_path(const std::filesystem::path& out, const std::string& option) {
  const std::string what = option + " " + out.string();
  std::error_code ec;
  if (std::filesystem::is_directory(out, ec))
    throw core::usage_error(what + ": is a directory; give a file name");
  const std::filesystem::path dir = out.has_parent_path() ? out.parent_path() : ".";
  std::filesystem::create_directories(dir, ec);
  if (ec) throw core::usage_error(what + ": cannot create " + dir.string() + ": " + ec.message());
  // The file is written as a temporary file in its directory and renamed: try exactly that.
  const std::filesystem::path probe = dir / fmt::format(".gpubench-out-check.{}", ::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    throw core::usage_error(core::errno_message(what + ": cannot write in " + dir.string(), errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

int write_run_metrics(const std::string& metrics, const std::filesystem::path& out, int code) {
  if (metrics.empty() || transports::mpi::detect_launch().rank > 0) return code;
  try {
    core::write_openmetrics(metrics, core::read_result_file(out));
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpubench: --metrics {}: {}\n", metrics, e.what());
    return code == 0 ? 1 : code;
  }
  return code;
}

std::string self_executable() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("gpubench") : p.string();
}

}  // namespace gpubench::cli
