#include <sys/utsname.h>
#include <unistd.h>

#include <cctype>
#include <optional>
#include <sstream>

#include "core/system/sysfs.hpp"
#include "core/system/system_probe.hpp"

namespace gpubench::core {

namespace {

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  s.erase(0, first);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.pop_back();
  return s;
}

// The value of the first "key<sep>value" line whose key matches, from a text file.
std::optional<std::string> field(const std::filesystem::path& file, const std::string& key,
                                 char sep) {
  auto text = read_text(file);
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    const auto at = line.find(sep);
    if (at == std::string::npos || trim(line.substr(0, at)) != key) continue;
    return trim(line.substr(at + 1));
  }
  return std::nullopt;
}

std::string os_name(const probe_roots& roots) {
  auto v = field(roots.etc / "os-release", "PRETTY_NAME", '=');
  if (!v) return "unknown";
  if (v->size() >= 2 && (v->front() == '"' || v->front() == '\'')) *v = v->substr(1, v->size() - 2);
  return *v;
}

std::string cpu_model(const probe_roots& roots) {
  // x86 says "model name"; many Arm kernels have no model line, only the implementer code.
  for (const char* key : {"model name", "Model", "cpu model"})
    if (auto v = field(roots.proc / "cpuinfo", key, ':'); v && !v->empty()) return *v;
  return "unknown";
}

}  // namespace

// Read from procfs first, so a fixture tree describes a whole machine; the system calls are
// the fallback for kernels that lack a file.
nlohmann::json probe_host(const probe_roots& roots) {
  nlohmann::json j;
  utsname u{};
  const bool have_uname = ::uname(&u) == 0;
  if (auto h = read_line(roots.proc / "sys" / "kernel" / "hostname")) {
    j["host"] = *h;
  } else {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    j["host"] = host;
  }
  j["os"] = os_name(roots);
  const auto type = read_line(roots.proc / "sys" / "kernel" / "ostype");
  const auto release = read_line(roots.proc / "sys" / "kernel" / "osrelease");
  if (type && release)
    j["kernel"] = *type + " " + *release;
  else if (have_uname)
    j["kernel"] = std::string(u.sysname) + " " + u.release;
  if (auto arch = read_line(roots.proc / "sys" / "kernel" / "arch"))
    j["arch"] = *arch;
  else if (have_uname)
    j["arch"] = u.machine;

  nlohmann::json cpu = {{"model", cpu_model(roots)}};
  const auto online = read_line(roots.sys / "devices" / "system" / "cpu" / "online");
  if (auto n = online ? count_cpu_list(*online) : std::nullopt; n && *n > 0)
    cpu["logical_cpus"] = *n;
  else
    cpu["logical_cpus"] = ::sysconf(_SC_NPROCESSORS_ONLN);
  j["cpu"] = cpu;

  // MemTotal is "24684092 kB"; without it (or when it is malformed) ask the C library.
  std::optional<unsigned long long> memory;
  if (auto total = field(roots.proc / "meminfo", "MemTotal", ':')) {
    try {
      memory = std::stoull(*total) * 1024ull;
    } catch (const std::exception&) {
      memory.reset();
    }
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page_size = ::sysconf(_SC_PAGE_SIZE);
  if (!memory && pages > 0 && page_size > 0)
    memory = static_cast<unsigned long long>(pages) * static_cast<unsigned long long>(page_size);
  if (memory) j["memory_bytes"] = *memory;
  return j;
}

}  // namespace gpubench::core
