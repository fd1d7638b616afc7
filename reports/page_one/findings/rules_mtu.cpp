// net.mtu_small: 1500-byte frames on a path where jumbo frames (9000) matter: an Ethernet link
// of mtu_speed_gbps or more carrying TCP or an allreduce, or a RoCE path whose RDMA MTU is
// 1024 (what a 1500-byte Ethernet MTU allows; 4096 needs 9000). Small frames cost per-packet
// CPU on TCP and cap RoCE's message efficiency.
#include <cstdio>
#include <map>

#include <fmt/format.h>

#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

namespace {

struct link_facts {
  std::optional<long long> mtu;
  std::optional<double> gbps;
  std::string seen_in;  // the benchmark that used it
};

std::optional<long long> int_of(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_number_integer()) return std::nullopt;
  return j.at(key).get<long long>();
}

// "100 Gb/s" as the TCP context writes the speed.
std::optional<double> gbps_of_text(const nlohmann::json& j) {
  if (!j.is_string()) return std::nullopt;
  double v = 0;
  if (std::sscanf(j.get<std::string>().c_str(), "%lf Gb/s", &v) == 1 && v > 0) return v;
  return std::nullopt;
}

void merge_system_nic(const core::result_file& f, const std::string& name, link_facts& l) {
  if (!f.system.is_object() || !f.system.contains("nics") || !f.system.at("nics").is_array())
    return;
  for (const auto& n : f.system.at("nics")) {
    if (!n.is_object() || n.value("name", std::string()) != name) continue;
    if (!l.mtu) l.mtu = int_of(n, "mtu");
    if (!l.gbps)
      if (auto s = int_of(n, "speed_mbps"); s && *s > 0) l.gbps = static_cast<double>(*s) / 1000;
  }
}

}  // namespace

std::vector<finding> mtu_rule(const core::result_file& f, const rule_options& o) {
  std::map<std::string, link_facts> links;  // Ethernet interfaces that carried traffic
  std::map<std::string, long long> roce;    // RoCE devices and their RDMA path MTU
  for (const auto& c : f.results) {
    if (c.status != core::case_status::ok || !c.context.is_object()) continue;
    const auto& ctx = c.context;
    if (c.kind.is(core::paths::network) && c.kind.transport == "tcp" && ctx.contains("interface") &&
        ctx.at("interface").is_string()) {
      auto& l = links[ctx.at("interface").get<std::string>()];
      if (!l.mtu) l.mtu = int_of(ctx, "mtu");
      if (!l.gbps) {
        if (auto s = int_of(ctx, "speed_mbps"); s && *s > 0)
          l.gbps = static_cast<double>(*s) / 1000;
        else if (ctx.contains("speed"))
          l.gbps = gbps_of_text(ctx.at("speed"));
      }
      if (l.seen_in.empty()) l.seen_in = c.benchmark;
    } else if (c.kind.is(core::paths::network) && c.kind.transport == "rdma" &&
               ctx.value("link_layer", std::string()) == "Ethernet") {
      if (auto mtu = int_of(ctx, "mtu")) roce[ctx.value("device", std::string("?"))] = *mtu;
    } else if (c.kind.is(core::paths::collective) && ctx.contains("interfaces") &&
               ctx.at("interfaces").is_array()) {
      for (const auto& i : ctx.at("interfaces")) {
        if (!i.is_object() || !i.contains("name") || !i.at("name").is_string()) continue;
        auto& l = links[i.at("name").get<std::string>()];
        if (!l.gbps)
          if (auto s = int_of(i, "speed_mbps"); s && *s > 0)
            l.gbps = static_cast<double>(*s) / 1000;
        if (l.seen_in.empty()) l.seen_in = c.benchmark;
      }
    }
  }
  std::vector<finding> out;
  for (auto& [name, l] : links) {
    merge_system_nic(f, name, l);
    if (!l.mtu || *l.mtu > 1500 || !l.gbps || *l.gbps < o.mtu_speed_gbps) continue;
    out.push_back({"net.mtu_small", severity::warning, "interface " + name,
                   fmt::format("{} runs {} Gb/s with a {}-byte MTU", name, *l.gbps, *l.mtu),
                   fmt::format("{}: MTU {}, link speed {} Gb/s (used by {}); links of {} Gb/s "
                               "or more are usually run with jumbo frames",
                               name, *l.mtu, *l.gbps, l.seen_in, o.mtu_speed_gbps),
                   "Set MTU 9000 on both hosts and every switch port between them (and on the "
                   "vSwitch and VMkernel/port group in a VM), then re-measure"});
  }
  for (const auto& [device, mtu] : roce) {
    if (mtu > 1024) continue;
    out.push_back({"net.mtu_small", severity::warning, "RDMA device " + device,
                   fmt::format("RoCE on {} runs with a {}-byte RDMA MTU", device, mtu),
                   fmt::format("{}: RoCE (Ethernet link layer), RDMA path MTU {} bytes: the "
                               "Ethernet MTU is 1500 or less, so 4096-byte RDMA MTU is not "
                               "possible",
                               device, mtu),
                   "Set MTU 9000 on the RoCE interfaces and the switch ports (the RDMA MTU then "
                   "becomes 4096), then re-measure"});
  }
  return out;
}

}  // namespace gpubench::reports::page_one::findings
