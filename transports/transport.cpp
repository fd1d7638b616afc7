#include "transports/transport.hpp"

#include <sys/resource.h>

#include <stdexcept>

#include "core/errors.hpp"

namespace gpubench::transports {

std::string to_string(direction d) {
  switch (d) {
    case direction::to_peer:
      return "to_peer";
    case direction::from_peer:
      return "from_peer";
    case direction::bidir:
      return "bidir";
  }
  return "unknown";
}

direction parse_direction(const std::string& text) {
  if (text == "to_peer") return direction::to_peer;
  if (text == "from_peer") return direction::from_peer;
  if (text == "bidir") return direction::bidir;
  throw core::usage_error("direction '" + text + "': expected to_peer, from_peer or bidir");
}

nlohmann::json to_json(const point_spec& p) {
  return {{"kind", p.kind == pattern::latency ? "latency" : "bandwidth"},
          {"direction", to_string(p.dir)},
          {"bytes", p.bytes},
          {"iterations", p.iterations},
          {"seconds", p.seconds}};
}

point_spec point_spec_from_json(const nlohmann::json& j) {
  try {
    point_spec p;
    const auto kind = j.at("kind").get<std::string>();
    if (kind != "latency" && kind != "bandwidth")
      throw std::runtime_error("unknown kind '" + kind + "'");
    p.kind = kind == "latency" ? pattern::latency : pattern::bandwidth;
    p.dir = parse_direction(j.at("direction").get<std::string>());
    p.bytes = j.at("bytes").get<std::uint64_t>();
    p.iterations = j.at("iterations").get<std::uint64_t>();
    if (p.iterations == 0) throw std::runtime_error("zero iterations");
    p.seconds = j.value("seconds", 0.0);
    if (!(p.seconds >= 0 && p.seconds <= 60))
      throw std::runtime_error("sample seconds out of range (0 to 60)");
    return p;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("bad point specification: ") + e.what());
  }
}

cpu_usage cpu_usage::this_thread() {
  rusage u{};
  if (::getrusage(RUSAGE_THREAD, &u) != 0) return {};
  const auto secs = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return {secs(u.ru_utime), secs(u.ru_stime)};
}

cpu_usage operator-(const cpu_usage& a, const cpu_usage& b) {
  return {a.user - b.user, a.system - b.system};
}

// The machine's figures are optional members: a peer that predates them ignores them, and
// their absence from an older peer reads as "not measured".
nlohmann::json to_json(const point_totals& t) {
  nlohmann::json j = {{"cpu_user", t.cpu.user},
                      {"cpu_system", t.cpu.system},
                      {"bytes", t.bytes},
                      {"messages", t.messages}};
  if (t.machine_cpu_time) {
    j["machine_cpu"] = to_json(*t.machine_cpu_time);
    j["machine"] = t.machine;
  }
  return j;
}

point_totals point_totals_from_json(const nlohmann::json& j) {
  try {
    point_totals t;
    t.cpu.user = j.at("cpu_user").get<double>();
    t.cpu.system = j.at("cpu_system").get<double>();
    t.bytes = j.at("bytes").get<std::uint64_t>();
    t.messages = j.at("messages").get<std::uint64_t>();
    if (j.contains("machine_cpu")) {
      t.machine_cpu_time = core::machine_cpu_from_json(j.at("machine_cpu"));
      t.machine = j.value("machine", std::string());
    }
    return t;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("bad point totals: ") + e.what());
  }
}

void transport_table::add(transport_entry entry) {
  auto name = entry.name;
  if (!m_entries.emplace(name, std::move(entry)).second)
    throw std::logic_error("transport registered twice: " + name);
}

const transport_entry* transport_table::find(const std::string& name) const {
  auto it = m_entries.find(name);
  return it == m_entries.end() ? nullptr : &it->second;
}

std::vector<std::string> transport_table::names() const {
  std::vector<std::string> out;
  for (const auto& [name, e] : m_entries)
    out.push_back(name);
  return out;
}

}  // namespace gpubench::transports
