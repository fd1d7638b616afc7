#include "reports/import/perftest.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace gpubench::reports::import {

namespace {

// "RDMA_Write BW Test", "Send Latency Test", "RDMA_Read BW Test", "Atomic ..." -> op and kind.
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
  info.post_list = t.find(" Post List ") != std::string_view::npos;
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

namespace {

constexpr const char* perftest_tools[] = {"ib_write_bw",  "ib_read_bw",   "ib_send_bw",
                                          "ib_atomic_bw", "ib_write_lat", "ib_read_lat",
                                          "ib_send_lat",  "ib_atomic_lat"};

// The last command-line argument where it is the peer ("ib_read_bw -a teaker-10"): not an
// option, and not the value of one (perftest's flags that take none are listed).
std::string peer_of(std::string_view command) {
  const auto f = split_fields(command);
  if (f.size() < 2) return {};
  const auto last = f.back();
  if (last.starts_with("-")) return {};
  const auto before = f[f.size() - 2];
  if (f.size() == 2) return std::string(last);
  constexpr std::string_view bare[] = {"-a",
                                       "--all",
                                       "-b",
                                       "--bidirectional",
                                       "-R",
                                       "--rdma_cm",
                                       "-z",
                                       "--report_gbits",
                                       "--run_infinitely",
                                       "-F",
                                       "--CPU-freq",
                                       "-H",
                                       "-U",
                                       "-N",
                                       "--noPeak",
                                       "-e",
                                       "--odp"};
  if (before.starts_with("-") &&
      std::find(std::begin(bare), std::end(bare), before) == std::end(bare))
    return {};
  return std::string(last);
}

}  // namespace

core::case_result perftest_case(const perftest_run& run, const import_options& o) {
  const auto& title = run.title;
  std::string tool = run.tool;
  if (tool.empty()) tool = fmt::format("ib_{}_{}", title.op, title.latency ? "lat" : "bw");
  core::import_source src{"perftest", "", run.command, o.name, tool};
  const auto setting = [&](const char* key) {
    const auto it = run.settings.find(key);
    return it == run.settings.end() ? std::string() : it->second;
  };
  src.version = setting("Version");
  // A post list of several messages a doorbell measures the message rate, not bandwidth.
  const auto post_list = to_count(setting("Post List"));
  const bool message_rate = !title.latency && (title.post_list || (post_list && *post_list > 1));
  core::case_result c = imported_case("perftest." + tool, core::network_kind("rdma", {"device"}),
                                      src, !title.latency);
  if (message_rate) {
    c.metric = "message_rate";
    c.unit = "Mpps";
  }
  c.params = {{"op", title.op}, {"memory", "host"}};
  if (const auto d = setting("Device"); !d.empty()) c.params["device"] = d;
  if (const auto q = to_count(setting("Number of qps"))) c.params["qps"] = *q;
  if (post_list) c.params["post_list"] = *post_list;
  if (const auto peer = peer_of(run.command); !peer.empty()) c.context["peer"] = peer;
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
  for (const auto& [bytes, same] : run.rows) {
    std::vector<double> values;
    if (title.latency) {
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
      continue;
    }
    // Each row is one report of the average (repeated rows: --run_infinitely's intervals).
    for (const auto& r : same)
      values.push_back(message_rate ? r[3] : r[2] * *run.factor);
    core::point_result p = point_of(bytes, values);
    const auto& r = same.front();
    p.extra = {{"iterations", static_cast<std::uint64_t>(r[0])}};
    if (message_rate)
      p.extra["bw_average_gbytes_per_s"] = r[2] * *run.factor;
    else
      p.extra["msg_rate_mpps"] = r[3];
    // A peak of 0 means "not measured" (--run_infinitely, -D), not a zero bandwidth.
    if (r[1] > 0) p.extra["bw_peak"] = r[1] * *run.factor;
    c.points.push_back(std::move(p));
  }
  return c;
}

core::result_file parse_perftest(std::string_view text, const import_options& o) {
  std::vector<perftest_run> runs;
  std::string command, tool;  // the command line above the next title, where one is
  std::string host;           // of the first shell prompt: what a report labels the run by
  bool in_command = false;
  std::size_t last = 0;
  const auto current = [&]() -> perftest_run* { return runs.empty() ? nullptr : &runs.back(); };
  for (const auto& line : split_lines(text)) {
    last = line.number;
    const auto t = trim(line.text);
    if (t.empty()) continue;
    if (const auto title = parse_title(t)) {
      perftest_run run;
      run.title = *title;
      run.line = line.number;
      run.command = std::move(command);
      run.tool = std::move(tool);
      command.clear();
      tool.clear();
      in_command = false;
      runs.push_back(std::move(run));
      continue;
    }
    auto* run = current();
    const bool between = !run || run->closed;
    if (between) {
      if (starts_with(t, "----")) {
        in_command = false;
        continue;
      }
      // A command line, possibly wrapped by the terminal over several lines: joined as typed.
      // A note perftest prints before its title ("WARNING: ...") ends the command.
      if (in_command && t.find(": ") == std::string_view::npos && !starts_with(t, "WARNING")) {
        command += std::string(line.text);
        continue;
      }
      in_command = false;
      for (const char* name : perftest_tools)
        if (t.find(name) != std::string_view::npos) {
          const auto at = line.text.find(name);
          command = std::string(line.text.substr(at));
          if (host.empty()) host = prompt_host(line.text.substr(0, at));
          tool = name;
          in_command = true;
          break;
        }
      continue;
    }
    if (starts_with(t, "----")) {
      if (run->table && !run->rows.empty()) run->closed = true;
      continue;
    }
    if (starts_with(t, "#bytes")) {
      run->factor = to_gbytes_factor(t);
      if (!run->title.latency && !run->factor)
        fail(o, line.number, "a bandwidth column in [Gb/sec] or [MB/sec]", line.text);
      run->table = true;
      continue;
    }
    if (!run->table) {
      if (t.find(':') != std::string_view::npos && !starts_with(t, "local address") &&
          !starts_with(t, "remote address") && !starts_with(t, "GID:"))
        parse_settings(t, run->settings);
      continue;
    }
    const auto f = split_fields(t);
    if (!to_count(f[0])) continue;  // warnings and notes perftest prints between rows
    const std::size_t want = run->title.latency ? 9 : 5;
    if (f.size() != want)
      fail(o, line.number,
           fmt::format("a result row of {} columns (#bytes, #iterations, ...)", want), line.text);
    std::vector<double> values;
    for (std::size_t i = 1; i < f.size(); ++i) {
      const auto v = to_number(f[i]);
      if (!v || *v < 0) fail(o, line.number, "numbers of 0 or more in every column", line.text);
      values.push_back(*v);
    }
    run->rows[*to_count(f[0])].push_back(std::move(values));
  }
  if (runs.empty())
    fail(o, 0, "a perftest title line ('RDMA_Write BW Test', 'Send Latency Test', ...)");
  core::result_file file = imported_file(o);
  if (!host.empty()) file.system["host"] = host;
  for (auto& run : runs) {
    if (!run.table)
      fail(o, run.line, "the perftest result table ('#bytes #iterations ...') of this run");
    if (run.rows.empty())
      fail(o, last, "a result row after the '#bytes' header (the output ends early)");
    // The terminal's wrapping is undone by joining the lines; runs of blanks are its padding.
    std::string joined;
    for (const auto field : split_fields(run.command))
      joined += (joined.empty() ? "" : " ") + std::string(field);
    run.command = joined;
    file.results.push_back(perftest_case(run, o));
  }
  // Two runs of one test in one session (the same tool, device and parameters): numbered.
  std::map<std::string, int> seen;  // benchmark and params -> runs so far
  for (auto& c : file.results)
    if (const int n =
            ++seen[c.benchmark + " " +
                   c.params.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)];
        n > 1)
      c.params["run"] = n;
  return file;
}

}  // namespace gpubench::reports::import
