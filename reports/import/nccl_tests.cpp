#include "reports/import/nccl_tests.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reports/import/nccl_tests_log.hpp"

namespace gpubench::reports::import {

namespace {

constexpr const char* known_operations[] = {
    "all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast",
    "reduce",     "sendrecv",   "gather",         "scatter",  "hypercube"};

// "Rank  0 Group  0 Pid 6899 on host device  0 [0000:04:00] NVIDIA H100 80GB HBM3" (the
// 2021 format has no Group).
std::optional<nccl_device> parse_rank_line(std::string_view body) {
  const auto f = split_fields(body);
  nccl_device d;
  if (f.size() < 2 || f[0] != "Rank") return std::nullopt;
  const auto rank = to_count(f[1]);
  if (!rank || *rank > 1000000) return std::nullopt;
  d.rank = static_cast<int>(*rank);
  std::size_t i = 2;
  while (i < f.size() && f[i] != "on")
    ++i;
  if (i + 4 > f.size() || f[i + 2] != "device") return std::nullopt;
  d.host = std::string(f[i + 1]);
  const auto device = to_count(f[i + 3]);
  if (!device || *device > 1000000) return std::nullopt;
  d.device = static_cast<int>(*device);
  i += 4;
  if (i < f.size() && f[i].front() == '[') {
    d.bus = std::string(f[i].substr(1, f[i].size() >= 2 ? f[i].size() - 2 : 0));
    ++i;
  }
  for (; i < f.size(); ++i)
    d.name += (d.name.empty() ? "" : " ") + std::string(f[i]);
  return d;
}

struct table_shape {
  std::vector<std::string> meta;  // the columns before the first "time": size, count, type...
  std::size_t groups = 0;         // 2: out-of-place and in-place
  std::size_t width = 4;          // columns a group: time algbw busbw #wrong (+ 4 with -I)
  bool timestamp = false;         // -S: each row ends with "YYYY-MM-DD HH:MM:SS"
};

constexpr const char* per_iter_columns[] = {"i_min", "i_max", "i_p99", "i_cv%"};
constexpr const char* per_iter_extra[] = {"iter_min_us", "iter_max_us", "iter_p99_us",
                                          "iter_cv_pct"};

// "#  size  count  type  redop  root  time  algbw  busbw #wrong  time ..." (old: "error").
std::optional<table_shape> parse_table_header(std::string_view body) {
  const auto f = split_fields(body);
  if (f.size() < 5 || f[0] != "size") return std::nullopt;
  table_shape s;
  std::size_t i = 0;
  const auto is_time = [](std::string_view c) { return c == "time" || c == "cputime"; };
  for (; i < f.size() && !is_time(f[i]); ++i)
    s.meta.emplace_back(f[i]);
  // -I adds i_min, i_max, i_p99, i_cv% after each group's #wrong.
  if (i + 7 < f.size() && f[i + 4] == per_iter_columns[0]) s.width = 8;
  for (; i + 3 < f.size() && is_time(f[i]); i += s.width) {
    if (f[i + 1] != "algbw" || f[i + 2] != "busbw") return std::nullopt;
    for (std::size_t k = 4; k < s.width; ++k)
      if (i + k >= f.size() || f[i + k] != per_iter_columns[k - 4]) return std::nullopt;
    ++s.groups;
  }
  s.timestamp = i < f.size() && f[i] == "timestamp";
  if (s.groups == 0 || s.groups > 2 || s.meta.size() < 2) return std::nullopt;
  return s;
}

// The figures are the last columns of a row; before them size and count, then what the
// operation prints of type, redop and root (older builds leave redop blank for alltoall).
[[noreturn]] void bad_row(const table_shape& shape, const text_line& line,
                          const import_options& o) {
  const std::size_t figures = shape.width * shape.groups;
  fail(o, line.number,
       fmt::format("a table row of {} to {} columns ({}, then {} x time, algbw, busbw, #wrong{})",
                   2 + figures, shape.meta.size() + figures, fmt::join(shape.meta, ", "),
                   shape.groups, shape.width > 4 ? ", i_min, i_max, i_p99, i_cv%" : ""),
       line.text);
}

nccl_size_row parse_row(std::vector<std::string_view> f, const table_shape& shape,
                        const text_line& line, const import_options& o) {
  // -S's time of the row ("2026-07-01 10:00:00") is no figure: kept aside.
  std::string stamp;
  if (shape.timestamp && f.size() >= 2 && f[f.size() - 2].find('-') != std::string_view::npos &&
      f.back().find(':') != std::string_view::npos) {
    stamp = std::string(f[f.size() - 2]) + " " + std::string(f.back());
    f.resize(f.size() - 2);
  }
  const std::size_t figures = shape.width * shape.groups;
  const auto bad = [&] { bad_row(shape, line, o); };
  if (f.size() < 2 + figures || f.size() > shape.meta.size() + figures) bad();
  nccl_size_row r;
  const auto bytes = to_count(f[0]);
  const auto count = to_count(f[1]);
  if (!bytes || !count) bad_row(shape, line, o);
  r.bytes = *bytes;
  r.count = *count;
  const std::size_t meta = f.size() - figures;
  if (meta > 2) r.type = std::string(f[2]);
  // The root is the last of the meta columns where the header has one; a blank redop (older
  // builds, nothing reduced) leaves one column fewer than the header.
  const auto has = [&](const char* name) {
    return std::find(shape.meta.begin(), shape.meta.end(), name) != shape.meta.end();
  };
  const bool rooted = has("root");
  if (rooted && meta > 3) {
    const auto field = f[meta - 1];
    const bool minus = field.starts_with("-");
    if (const auto v = to_count(minus ? field.substr(1) : field); v && *v < 1000000)
      r.root = minus ? -static_cast<long long>(*v) : static_cast<long long>(*v);
  }
  if (has("redop") && meta > (rooted ? 4u : 3u)) r.redop = std::string(f[3]);
  for (std::size_t g = 0; g < shape.groups; ++g) {
    const std::size_t at = meta + shape.width * g;
    const auto t = to_number(f[at]), a = to_number(f[at + 1]), b = to_number(f[at + 2]);
    if (!t || !a || !b || *t < 0 || *a < 0 || *b < 0) bad_row(shape, line, o);
    nccl_figures fig{*t, *a, *b, to_count(f[at + 3]), nlohmann::json::object()};
    if (!fig.wrong && f[at + 3] != "N/A") bad();
    for (std::size_t k = 4; k < shape.width; ++k) {
      const auto v = to_number(f[at + k]);
      if (!v) bad();
      fig.extra[per_iter_extra[k - 4]] = *v;
    }
    if (!stamp.empty()) fig.extra["timestamp"] = stamp;
    r.groups.push_back(fig);
  }
  return r;
}

// nccl-library=22809 is NCCL 2.28.9 (major * 10000 + minor * 100 + patch).
std::string nccl_version(std::string_view code) {
  const auto v = to_count(code);
  if (!v || *v < 10000) return std::string(code);
  return fmt::format("{}.{}.{}", *v / 10000, *v / 100 % 100, *v % 100);
}

// What NCCL's own INFO lines say of the run: the library, the network, GPUDirect RDMA and the
// algorithm. One line at a time; the first mention wins.
struct nccl_info {
  std::string version, network, net_device, gdr, algorithm, protocol;

  void read(std::string_view t) {
    const auto take = [&](std::string& field, std::string_view after, std::string_view stop) {
      const auto at = t.find(after);
      if (!field.empty() || at == std::string_view::npos) return;
      auto rest = trim(t.substr(at + after.size()));
      rest = rest.substr(0, rest.find_first_of(stop));
      field = std::string(trim(rest));
    };
    take(version, "NCCL version ", " +");
    take(network, "Using network ", " ");
    take(net_device, "NET/IB : Using ", ";");
    take(algorithm, "NCCL_ALGO set by environment to ", " ");
    take(protocol, "NCCL_PROTO set by environment to ", " ");
    // "Connected all rings, use ring PXN 0 GDR 0"; "via NET/IB/1/GDRDMA" where it is on.
    if (const auto at = t.find(" GDR "); gdr.empty() && at != std::string_view::npos) {
      const auto v = trim(t.substr(at + 5)).substr(0, 1);
      if (v == "0" || v == "1") gdr = std::string(v);
    }
    if (gdr.empty() && t.find("/GDRDMA") != std::string_view::npos) gdr = "1";
    if (!algorithm.empty() && algorithm.back() == '.') algorithm.pop_back();
    if (!protocol.empty() && protocol.back() == '.') protocol.pop_back();
  }

  void into(nlohmann::json& context) const {
    if (!version.empty()) context["nccl_version"] = version;
    if (!network.empty()) context["network"] = network;
    if (!net_device.empty()) context["net_device"] = net_device;
    if (!gdr.empty()) context["gdr"] = gdr == "1";
    if (!algorithm.empty()) context["algorithm"] = algorithm;
    if (!protocol.empty()) context["protocol"] = protocol;
  }
};

}  // namespace

bool looks_like_nccl_tests(std::string_view text) {
  for (const auto& line : split_lines(text.substr(0, 1 << 16))) {
    const auto t = trim(line.text);
    if (!starts_with(t, "#")) continue;
    const auto body = trim(t.substr(1));
    if (starts_with(body, "nThread ") || parse_table_header(body)) return true;
  }
  return false;
}

std::string nccl_tests_operation(std::string_view name) {
  std::string n(name);
  if (const auto slash = n.find_last_of('/'); slash != std::string::npos) n.erase(0, slash + 1);
  if (n.size() > 5 && n.ends_with("_perf")) n.resize(n.size() - 5);
  if (n == "allreduce") n = "all_reduce";
  if (n == "allgather") n = "all_gather";
  for (const char* op : known_operations)
    if (n == op) return n;
  return {};
}

core::result_file parse_nccl_tests(std::string_view text, const import_options& o) {
  const auto lines = split_lines(text);
  core::import_source src{"nccl-tests", "", "", o.name, ""};
  std::string op, nccl;
  std::optional<table_shape> shape;
  std::size_t shape_line = 0;
  std::optional<std::size_t> header_line, footer_line;
  std::optional<double> avg_busbw;
  std::vector<nccl_device> devices;
  std::vector<nccl_size_row> rows;
  std::size_t last = 0;
  nccl_info info;
  for (const auto& line : lines) {
    last = line.number;
    const auto t = trim(line.text);
    // NCCL's own log lines ("host:pid:tid [0] NCCL INFO ...") may interleave with the table;
    // what they say of the library and the network is kept.
    if (t.find("NCCL INFO") != std::string_view::npos ||
        t.find("NCCL WARN") != std::string_view::npos) {
      info.read(t);
      continue;
    }
    if (starts_with(t, "NCCL version "))
      info.read(t);  // printed without INFO under NCCL_DEBUG=WARN
    if (starts_with(t, "#")) {
      const auto body = trim(t.substr(1));
      const auto f = split_fields(body);
      if (starts_with(body, "nccl-tests version") && f.size() >= 3) {
        src.version = std::string(f[2]);
        for (const auto& field : f)
          if (starts_with(field, "nccl-library=")) nccl = nccl_version(field.substr(13));
      } else if ((starts_with(body, "Collective test starting:") ||
                  starts_with(body, "Collective test concluded:")) &&
                 f.size() >= 4 && op.empty()) {
        // Only a known operation's name becomes part of the benchmark id.
        op = nccl_tests_operation(f[3]);
        if (!op.empty()) src.test = op + "_perf";
      } else if (starts_with(body, "nThread ")) {
        if (header_line) fail(o, line.number, "one nccl-tests run per file (a second header)");
        header_line = line.number;
      } else if (auto d = parse_rank_line(body)) {
        devices.push_back(std::move(*d));
      } else if (auto s = parse_table_header(body)) {
        // Rows are read by the columns of the header above them: a second header of other
        // columns would leave earlier rows short of its groups.
        if (shape &&
            (s->groups != shape->groups || s->width != shape->width || s->meta != shape->meta))
          fail(o, line.number,
               "the table columns of the earlier header at line " + std::to_string(shape_line) +
                   " (one table per run)",
               line.text);
        shape = std::move(s);
        shape_line = line.number;
      } else if (starts_with(body, "Avg bus bandwidth")) {
        const auto colon = body.find(':');
        avg_busbw = colon == std::string_view::npos ? std::nullopt
                                                    : to_number(trim(body.substr(colon + 1)));
        if (!avg_busbw) fail(o, line.number, "'# Avg bus bandwidth : <GB/s>'", line.text);
        footer_line = line.number;
      }
      continue;
    }
    const auto f = split_fields(t);
    if (f.empty()) continue;
    if (shape && !footer_line && to_count(f[0])) {
      rows.push_back(parse_row(f, *shape, line, o));
      continue;
    }
    // A command line above the output names the test ("./build/all_reduce_perf -b 8 ...").
    if (src.command.empty() && !shape)
      for (const auto& field : f)
        if (const auto name = nccl_tests_operation(field);
            !name.empty() && field.ends_with("_perf")) {
          src.command = std::string(t);
          if (op.empty()) {
            op = name;
            src.test = op + "_perf";
          }
          break;
        }
  }
  if (!shape)
    fail(o, 0, "an nccl-tests table: its '#  size  count  type ... time  algbw  busbw' header");
  if (rows.empty()) fail(o, last, "a row of the nccl-tests table after its header (none found)");
  if (header_line && !footer_line)
    fail(o, last,
         "the '# Avg bus bandwidth' line that ends an nccl-tests run (the log ends early)");
  nccl_log log;
  log.src = src;
  log.op = op;
  log.nccl = nccl.empty() ? info.version : nccl;
  log.devices = std::move(devices);
  log.rows = std::move(rows);
  log.groups = shape->groups;
  log.avg_busbw = avg_busbw;
  info.into(log.context);
  log.last_line = last;
  return nccl_log_result(std::move(log), o);
}

}  // namespace gpubench::reports::import
