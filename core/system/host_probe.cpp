#include <sys/utsname.h>
#include <unistd.h>

#include <sstream>
#include <thread>

#include "core/system/sysfs.hpp"
#include "core/system/system_probe.hpp"

namespace gpubench::core {

namespace {

std::string os_name(const probe_roots& roots) {
  auto text = read_text(roots.etc / "os-release");
  if (!text) return "unknown";
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PRETTY_NAME=", 0) != 0) continue;
    std::string v = line.substr(12);
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'')) v = v.substr(1, v.size() - 2);
    return v;
  }
  return "unknown";
}

std::string cpu_model(const probe_roots& roots) {
  auto text = read_text(roots.proc / "cpuinfo");
  if (!text) return "unknown";
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    while (!key.empty() && std::isspace(static_cast<unsigned char>(key.back())))
      key.pop_back();
    if (key == "model name" || key == "Model") {
      auto v = line.substr(colon + 1);
      return v.substr(v.find_first_not_of(' '));
    }
  }
  return "unknown";
}

}  // namespace

nlohmann::json probe_host(const probe_roots& roots) {
  nlohmann::json j;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  j["host"] = host;
  j["os"] = os_name(roots);
  utsname u{};
  if (::uname(&u) == 0) {
    j["kernel"] = std::string(u.sysname) + " " + u.release;
    j["arch"] = u.machine;
  }
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  j["cpu"] = {{"model", cpu_model(roots)}, {"logical_cpus", online}};
  if (pages > 0 && page_size > 0)
    j["memory_bytes"] =
        static_cast<unsigned long long>(pages) * static_cast<unsigned long long>(page_size);
  return j;
}

}  // namespace gpubench::core
