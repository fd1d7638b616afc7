// gpubench topo [--json]: what this machine is, as every result file records it.
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "core/system/system_probe.hpp"
#include "core/text_table.hpp"

namespace gpubench::cli {

namespace {

using json = nlohmann::json;

// A value as one cell of text: strings as they are, arrays of scalars joined, "-" when absent.
std::string text(const json& v) {
  if (v.is_null()) return "-";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_array()) {
    if (v.empty()) return "-";
    std::string out;
    for (const auto& item : v)
      out += (out.empty() ? "" : " ") + text(item);
    return out;
  }
  return v.dump();
}

std::string field(const json& obj, const char* key) {
  return obj.is_object() && obj.contains(key) ? text(obj.at(key)) : "-";
}

std::string binary_size(const json& bytes) {
  if (!bytes.is_number()) return "-";
  const double b = bytes.get<double>();
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = b;
  std::size_t u = 0;
  while (v >= 1024 && u + 1 < std::size(units))
    v /= 1024, ++u;
  return u == 0 ? fmt::format("{} B", b) : fmt::format("{:.1f} {}", v, units[u]);
}

// sysfs speeds are Mbit/s; architects think in Gb/s.
std::string link_speed(const json& nic) {
  if (!nic.contains("speed_mbps") || !nic.at("speed_mbps").is_number()) return "-";
  const double mbps = nic.at("speed_mbps").get<double>();
  return mbps >= 1000 ? fmt::format("{:g} Gb/s", mbps / 1000) : fmt::format("{:g} Mb/s", mbps);
}

// Columns padded to their widest cell, two spaces apart, indented under a section title; a
// field a device does not report reads "-".
core::text_table section_table(const std::vector<std::string>& header) {
  std::vector<core::text_column> columns;
  for (const auto& h : header)
    columns.push_back({h});
  core::text_table_style style;
  style.header_prefix = "  ";
  style.row_prefix = "  ";
  style.fill = "-";
  return core::text_table(std::move(columns), std::move(style));
}

void key_value(const std::string& key, const std::string& value) {
  fmt::print("  {:<16}{}\n", key, value);
}

void print_machine(const json& s) {
  fmt::print("Machine\n");
  key_value("host", field(s, "host"));
  key_value("os", field(s, "os"));
  key_value("kernel",
            field(s, "kernel") + (s.contains("arch") ? " (" + field(s, "arch") + ")" : ""));
  std::string virt = field(s, "virtualization");
  const json platform = s.value("platform", json::object());
  if (platform.contains("hypervisor_signature"))
    virt += fmt::format(" (cpuid \"{}\")", field(platform, "hypervisor_signature"));
  key_value("virtualization", virt);
  if (platform.contains("vendor") || platform.contains("product"))
    key_value("platform", field(platform, "vendor") + " " + field(platform, "product"));
  const json cpu = s.value("cpu", json::object());
  key_value("cpu", field(cpu, "model"));
  if (cpu.contains("sockets"))
    key_value("",
              fmt::format("{} socket(s), {} cores, {} threads, {} online", field(cpu, "sockets"),
                          field(cpu, "cores"), field(cpu, "threads"), field(cpu, "logical_cpus")));
  key_value("memory", binary_size(s.value("memory_bytes", json())));
}

void print_numa(const json& s) {
  const json nodes = s.value("numa", json::array());
  fmt::print("\nNUMA nodes ({})\n", nodes.size());
  if (nodes.empty()) {
    fmt::print("  none reported by hwloc\n");
    return;
  }
  auto t = section_table({"node", "cpus", "memory", "distances"});
  for (const auto& n : nodes)
    t.add_row({field(n, "node"), field(n, "cpus"), binary_size(n.value("memory_bytes", json())),
               field(n, "distances")});
  t.print(stdout);
}

void print_nics(const json& s) {
  const json nics = s.value("nics", json::array());
  fmt::print("\nNetwork interfaces ({})\n", nics.size());
  if (nics.empty()) {
    fmt::print("  none besides loopback\n");
    return;
  }
  auto t = section_table({"name", "kind", "driver", "state", "speed", "mtu", "numa", "pci",
                          "pcie link", "rdma", "ipv4"});
  for (const auto& n : nics) {
    std::string kind = field(n, "kind");
    if (n.contains("master")) kind += " in " + field(n, "master");
    t.add_row({field(n, "name"), kind, field(n, "driver"), field(n, "operstate"), link_speed(n),
               field(n, "mtu"), field(n, "numa_node"), field(n, "pci"), field(n, "pcie_link"),
               field(n, "rdma_devices"), field(n, "ipv4")});
  }
  t.print(stdout);
}

// GPUs and RDMA devices are described by their families' probes; their fields are shown as
// they come, scalar ones as columns and the rest on lines below.
void print_devices(const json& s, const char* key, const char* title) {
  const json list = s.value(key, json::array());
  if (!list.is_array() || list.empty()) {
    fmt::print("\n{}: none reported\n", title);
    return;
  }
  fmt::print("\n{} ({})\n", title, list.size());
  std::vector<std::string> columns;
  for (const char* first : {"index", "name", "device"})
    for (const auto& d : list)
      if (d.is_object() && d.contains(first) &&
          std::find(columns.begin(), columns.end(), first) == columns.end())
        columns.emplace_back(first);
  for (const auto& d : list)
    if (d.is_object())
      for (const auto& [k, v] : d.items())
        if (!v.is_structured() && std::find(columns.begin(), columns.end(), k) == columns.end())
          columns.push_back(k);
  auto t = section_table(columns);
  for (const auto& d : list) {
    std::vector<std::string> row;
    for (const auto& c : columns)
      row.push_back(field(d, c.c_str()));
    t.add_row(std::move(row));
  }
  t.print(stdout);
  for (const auto& d : list)
    if (d.is_object())
      for (const auto& [k, v] : d.items())
        if (v.is_structured() && !v.empty())
          fmt::print("  {} {}: {}\n", field(d, columns.empty() ? "name" : columns[0].c_str()), k,
                     v.dump());
}

void print_software(const json& s) {
  const json sw = s.value("software", json::object());
  fmt::print("\nSoftware\n");
  if (!sw.is_object() || sw.empty()) {
    fmt::print("  nothing detected\n");
    return;
  }
  for (const auto& [k, v] : sw.items())
    key_value(k, v.is_object() ? v.dump() : text(v));
}

// Whatever a family adds under a key this command does not know (gpu_pairs, ...).
void print_other(const json& s) {
  const std::set<std::string> known = {
      "host",         "os",   "kernel",     "arch", "virtualization", "platform",     "cpu",
      "memory_bytes", "numa", "numa_nodes", "nics", "gpus",           "rdma_devices", "software"};
  bool title = false;
  for (const auto& [k, v] : s.items()) {
    if (known.count(k)) continue;
    if (!title) fmt::print("\nOther\n");
    title = true;
    key_value(k, v.is_structured() ? v.dump() : text(v));
  }
}

}  // namespace

command setup_topo(CLI::App& app, const environment& env) {
  auto* sub =
      app.add_subcommand("topo", "Describe this machine: CPU, NUMA, NICs, RDMA, GPUs, software");
  auto as_json = std::make_shared<bool>(false);
  sub->add_flag("--json", *as_json, "Print the system block as JSON");
  return {sub, [&env, as_json] {
            const auto system = core::describe_system(env.registry);
            if (*as_json) {
              fmt::print("{}\n", system.dump(2));
              return 0;
            }
            print_machine(system);
            print_numa(system);
            print_nics(system);
            print_devices(system, "rdma_devices", "RDMA devices");
            print_devices(system, "gpus", "GPUs");
            print_software(system);
            print_other(system);
            return 0;
          }};
}

}  // namespace gpubench::cli
