#include "cli/run_setup.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <random>

#include <fmt/format.h>

#include "core/system/system_probe.hpp"

namespace gpubench::cli {

nlohmann::json describe_system(const core::registry& registry) {
  nlohmann::json system = core::probe_system();
  for (const auto& probe : registry.system_probes())
    probe(system);
  return system;
}

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

std::string self_executable() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("gpubench") : p.string();
}

}  // namespace gpubench::cli
