#include "core/system/machine_cpu.hpp"

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/system/sysfs.hpp"

namespace gpubench::core {

machine_cpu& machine_cpu::operator+=(const machine_cpu& o) {
  user += o.user;
  system += o.system;
  irq += o.irq;
  softirq += o.softirq;
  idle += o.idle;
  return *this;
}

double machine_cpu::busy_fraction() const {
  const double all = total() + idle;
  return all > 0 ? total() / all : std::nan("");
}

machine_cpu operator-(const machine_cpu& a, const machine_cpu& b) {
  return {a.user - b.user, a.system - b.system, a.irq - b.irq, a.softirq - b.softirq,
          a.idle - b.idle};
}

nlohmann::json to_json(const machine_cpu& m) {
  return {{"user", m.user},
          {"system", m.system},
          {"irq", m.irq},
          {"softirq", m.softirq},
          {"idle", m.idle}};
}

machine_cpu machine_cpu_from_json(const nlohmann::json& j) {
  const auto field = [&](const char* name) {
    const auto& v = j.at(name);
    if (!v.is_number() || v.get<double>() < 0)
      throw std::runtime_error(std::string("machine CPU '") + name + "' is not a number >= 0");
    return v.get<double>();
  };
  try {
    return {field("user"), field("system"), field("irq"), field("softirq"), field("idle")};
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("bad machine CPU times: ") + e.what());
  }
}

std::optional<machine_cpu> parse_proc_stat(std::string_view line, double ticks_per_second) {
  constexpr std::string_view tag = "cpu ";
  if (!line.starts_with(tag) || !(ticks_per_second > 0)) return std::nullopt;
  line.remove_prefix(tag.size());
  std::vector<unsigned long long> v;
  while (!line.empty()) {
    const auto start = line.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    line.remove_prefix(start);
    unsigned long long x = 0;
    const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), x);
    if (ec != std::errc{} || (end != line.data() + line.size() && *end != ' ')) return std::nullopt;
    v.push_back(x);
    line.remove_prefix(static_cast<std::size_t>(end - line.data()));
  }
  // user nice system idle iowait irq softirq (since Linux 2.6.0; steal and guests follow).
  if (v.size() < 7) return std::nullopt;
  const auto s = [&](std::size_t i) {
    return i < v.size() ? static_cast<double>(v[i]) / ticks_per_second : 0.0;
  };
  return machine_cpu{s(0) + s(1), s(2), s(5), s(6), s(3) + s(4) + s(7)};
}

std::optional<machine_cpu> read_machine_cpu() {
  const auto line = read_line("/proc/stat");
  const long hz = ::sysconf(_SC_CLK_TCK);
  if (!line || hz <= 0) return std::nullopt;
  return parse_proc_stat(*line, static_cast<double>(hz));
}

std::string machine_id() {
  return read_line("/proc/sys/kernel/random/boot_id").value_or("");
}

std::optional<machine_cpu> machine_cpu_interval::elapsed() const {
  if (!m_start) return std::nullopt;
  const auto now = read_machine_cpu();
  if (!now) return std::nullopt;
  return *now - *m_start;
}

}  // namespace gpubench::core
