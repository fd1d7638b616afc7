#include "reports/import/perftest.hpp"

#include <map>

#include <fmt/format.h>

namespace gpubench::reports::import {

namespace {

// "RDMA_Write BW Test", "Send Latency Test", "RDMA_Read BW Test", "Atomic ..." -> op and kind.
struct title_info {
  std::string op;  // write, read, send, atomic
  bool latency = false;
};

std::optional<title_info> parse_title(std::string_view t) {
  title_info info;
  if (t.ends_with(" BW Test"))
    info.latency = false;
  else if (t.ends_with(" Latency Test"))
    info.latency = true;
  else
    return std::nullopt;
  if (starts_with(t, "RDMA_Write"))
    info.op = "write";
  else if (starts_with(t, "RDMA_Read"))
    info.op = "read";
  else if (starts_with(t, "Send"))
    info.op = "send";
  else if (starts_with(t, "Atomic"))
    info.op = "atomic";
  else
    return std::nullopt;
  return info;
}

// " Dual-port       : OFF\t\tDevice         : mlx5_5": one or two "key : value" pairs.
void parse_settings(std::string_view t, std::map<std::string, std::string>& out) {
  while (!t.empty()) {
    const auto colon = t.find(" : ") != std::string_view::npos ? t.find(" : ") : t.find(":");
    if (colon == std::string_view::npos) return;
    const std::string key(trim(t.substr(0, colon)));
    auto rest = trim(t.substr(t.find(':', colon) + 1));
    // The value ends where a run of blanks or a tab starts the next pair.
    std::size_t end = 0;
    while (end < rest.size() && rest[end] != '\t' &&
           !(rest[end] == ' ' && end + 1 < rest.size() && rest[end + 1] == ' '))
      ++end;
    if (!key.empty()) out[key] = std::string(trim(rest.substr(0, end)));
    t = trim(rest.substr(end));
    if (t.find(':') == std::string_view::npos) return;
  }
}

// Bandwidth units perftest prints: Gb/sec (--report_gbits, 1e9 bits) or MB/sec (2^20 bytes).
std::optional<double> to_gbytes_factor(std::string_view header) {
  if (header.find("[Gb/sec]") != std::string_view::npos) return 1.0 / 8;
  if (header.find("[MB/sec]") != std::string_view::npos) return 1048576.0 / 1e9;
  return std::nullopt;
}

}  // namespace

bool looks_like_perftest(std::string_view text) {
  for (const auto& line : split_lines(text.substr(0, 1 << 16)))
    if (parse_title(trim(line.text))) return true;
  return false;
}

core::result_file parse_perftest(std::string_view text, const import_options& o) {
  std::optional<title_info> title;
  std::map<std::string, std::string> settings;
  std::vector<std::string_view> columns;
  std::optional<double> factor;
  std::string command, tool;
  std::map<std::uint64_t, std::vector<std::vector<double>>> rows;  // bytes -> rows
  std::size_t last = 0;
  bool table = false, closed = false;
  for (const auto& line : split_lines(text)) {
    last = line.number;
    const auto t = trim(line.text);
    if (t.empty()) continue;
    if (!title) {
      title = parse_title(t);
      if (!title)
        for (const char* name : {"ib_write_bw", "ib_read_bw", "ib_send_bw", "ib_atomic_bw",
                                 "ib_write_lat", "ib_read_lat", "ib_send_lat", "ib_atomic_lat"})
          if (command.empty() && t.find(name) != std::string_view::npos) {
            // From the tool's name on: a shell prompt before it is no part of the command.
            command = std::string(t.substr(t.find(name)));
            tool = name;
          }
      continue;
    }
    if (starts_with(t, "----")) {
      if (table && !rows.empty()) closed = true;
      continue;
    }
    if (starts_with(t, "#bytes")) {
      columns = split_fields(t);
      factor = to_gbytes_factor(t);
      if (!title->latency && !factor)
        fail(o, line.number, "a bandwidth column in [Gb/sec] or [MB/sec]", line.text);
      table = true;
      continue;
    }
    if (!table) {
      if (t.find(':') != std::string_view::npos && !starts_with(t, "local address") &&
          !starts_with(t, "remote address") && !starts_with(t, "GID:"))
        parse_settings(t, settings);
      continue;
    }
    if (closed) continue;
    const auto f = split_fields(t);
    if (!to_count(f[0])) continue;  // warnings and notes perftest prints between rows
    const std::size_t want = title->latency ? 9 : 5;
    if (f.size() != want)
      fail(o, line.number,
           fmt::format("a result row of {} columns (#bytes, #iterations, ...)", want), line.text);
    std::vector<double> values;
    for (std::size_t i = 1; i < f.size(); ++i) {
      const auto v = to_number(f[i]);
      if (!v || *v < 0) fail(o, line.number, "numbers of 0 or more in every column", line.text);
      values.push_back(*v);
    }
    rows[*to_count(f[0])].push_back(std::move(values));
  }
  if (!title) fail(o, 0, "a perftest title line ('RDMA_Write BW Test', 'Send Latency Test', ...)");
  if (!table) fail(o, last, "the perftest result table ('#bytes #iterations ...')");
  if (rows.empty()) fail(o, last, "a result row after the '#bytes' header (the output ends early)");

  if (tool.empty()) tool = fmt::format("ib_{}_{}", title->op, title->latency ? "lat" : "bw");
  core::import_source src{"perftest", "", command, o.name, tool};
  if (const auto it = settings.find("Version"); it != settings.end()) src.version = it->second;
  core::case_result c = imported_case("perftest." + tool, core::network_kind("rdma", {"device"}),
                                      src, !title->latency);
  const auto setting = [&](const char* key) {
    const auto it = settings.find(key);
    return it == settings.end() ? std::string() : it->second;
  };
  c.params = {{"op", title->op}, {"memory", "host"}};
  if (const auto d = setting("Device"); !d.empty()) c.params["device"] = d;
  if (const auto q = to_count(setting("Number of qps"))) c.params["qps"] = *q;
  const std::pair<const char*, const char*> context_keys[] = {
      {"link_layer", "Link type"},       {"transport", "Transport type"},
      {"connection", "Connection type"}, {"gid_index", "GID index"},
      {"tx_depth", "TX depth"},          {"inline", "Max inline data"},
      {"rdma_cm", "rdma_cm QPs"},        {"exchange", "Data ex. method"}};
  for (const auto& [key, name] : context_keys)
    if (const auto v = setting(name); !v.empty()) c.context[key] = v;
  // "4096[B]": the RDMA path MTU, a number as gpubench's own RDMA cases record it.
  if (const auto mtu = setting("Mtu"); !mtu.empty())
    if (const auto v = to_count(std::string_view(mtu).substr(0, mtu.find('['))))
      c.context["rdma_mtu"] = *v;
  for (const auto& [bytes, same] : rows) {
    std::vector<double> values;
    if (title->latency) {
      // t_typical is perftest's median: the point's one value; its other statistics are
      // perftest's own over its iterations, kept as such.
      for (const auto& r : same)
        values.push_back(r[3]);
      core::point_result p = point_of(bytes, values);
      const auto& r = same.front();
      p.extra = {{"iterations", static_cast<std::uint64_t>(r[0])},
                 {"t_min", r[1]},
                 {"t_max", r[2]},
                 {"t_avg", r[4]},
                 {"t_stdev", r[5]},
                 {"p99", r[6]},
                 {"p99_9", r[7]}};
      c.points.push_back(std::move(p));
    } else {
      // Each row is one report of the average (repeated rows: --run_infinitely's intervals).
      for (const auto& r : same)
        values.push_back(r[2] * *factor);
      core::point_result p = point_of(bytes, values);
      const auto& r = same.front();
      p.extra = {{"iterations", static_cast<std::uint64_t>(r[0])}, {"msg_rate_mpps", r[3]}};
      // A peak of 0 means "not measured" (--run_infinitely), not a zero bandwidth.
      if (r[1] > 0) p.extra["bw_peak"] = r[1] * *factor;
      c.points.push_back(std::move(p));
    }
  }
  core::result_file file = imported_file(o);
  file.results.push_back(std::move(c));
  return file;
}

}  // namespace gpubench::reports::import
