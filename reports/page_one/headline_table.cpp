#include "reports/page_one/headline_table.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "reports/model/kind_text.hpp"
#include "reports/model/text_format.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"

namespace gpubench::reports::page_one {

using namespace model;

namespace {

std::string param(const core::case_result& c, const char* key) {
  return c.params.contains(key) ? param_text(c.params.at(key)) : "";
}

// Which headline path a case belongs to, where in the table, and whether the row shows the
// worst case of the path (GPUs and GPU pairs: the weakest link) or the best (network: what the
// machine can reach).
struct path_kind {
  int order = 0;
  std::string key;
  std::string title;
  bool worst = false;
  bool fallback = false;  // shown only where the path has no case of the preferred kind
};

std::optional<path_kind> kind_of(const core::case_result& c) {
  const auto& k = c.kind;
  const bool latency = c.metric == "latency";
  const bool pinned_ce = param(c, "memory") != "pageable" && param(c, "engine") != "sm";
  if (k.is(core::paths::host_memory)) return path_kind{0, k.path, "Host memory copy", false};
  if (k.is(core::paths::host_gpu)) {
    const std::string key = k.path + " " + k.direction + " " + c.metric;
    if (latency) return path_kind{4, key, "GPU to host memory latency", true};
    // An SM copy stands in where no copy-engine case was measured (an imported nvbandwidth
    // run of *_sm testcases only), and says so.
    const bool sm = param(c, "memory") != "pageable" && param(c, "engine") == "sm";
    if (!pinned_ce && !sm) return std::nullopt;
    const std::string how = pinned_ce ? "" : ", SM copy";
    if (k.direction == core::directions::to_gpu)
      return path_kind{1, key, "Host to GPU (pinned" + how + ")", true, sm};
    if (k.direction == core::directions::to_host)
      return path_kind{2, key, "GPU to host (pinned" + how + ")", true, sm};
    if (k.direction == core::directions::both)
      return path_kind{3, key, "Host and GPU, both directions" + how, true, sm};
    return std::nullopt;
  }
  if (k.is(core::paths::gpu_gpu)) {
    if (latency) return path_kind{6, k.path + " latency", "GPU to GPU latency", true};
    if (param(c, "direction") == "bidir") return std::nullopt;
    const auto link = param(c, "link");
    // As for host copies: the copy engine's figure, SM copies only where no CE pair was
    // measured (nvbandwidth's *_sm testcases beside its *_ce ones would mix two methods).
    const bool sm = param(c, "engine") == "sm";
    return path_kind{
        5, k.path + " " + link,
        "GPU to GPU" + (link.empty() ? std::string() : " over " + link) + (sm ? ", SM copy" : ""),
        true, sm};
  }
  if (k.is(core::paths::network)) {
    const auto name = transport_title(k.transport);
    const int order = 7 + 2 * transport_rank(k.transport) + (latency ? 1 : 0);
    // A run held to a sender's set rate (iperf3 -b) measured that rate, not the path's
    // capacity: it stands in only where nothing else was measured, and says so.
    const auto capped_it = c.context.is_object() ? c.context.find("rate_capped") : c.context.end();
    const bool capped =
        capped_it != c.context.end() && capped_it->is_boolean() && capped_it->get<bool>();
    const std::string what = latency                      ? " latency, p50"
                             : c.metric == "message_rate" ? " message rate"
                             : capped ? " throughput at the sender's set rate (not capacity)"
                                      : " bandwidth";
    return path_kind{order, k.path + " " + k.transport + " " + c.metric, name + what, false,
                     capped};
  }
  if (k.is(core::paths::collective)) {
    // An imported nccl-tests log names no transport: "nccl", not "nccl/".
    const auto transport = param(c, "transport");
    const auto how = param(c, "backend") + (transport.empty() ? "" : "/" + transport);
    // The out-of-place figure: nccl-tests validates it, and for all-to-all the in-place
    // columns are not validated at all (#wrong N/A). In-place only where it is all there is.
    const bool in_place = c.params.value("in_place", false);
    return path_kind{13, k.path + " " + k.operation + " " + how,
                     operation_title(k.operation) + " " + how, false, in_place};
  }
  return std::nullopt;
}

// What tells the chosen case apart from its siblings: "GPU 2", "GPU 0 to 3", "8 streams".
std::string which(const core::case_result& c) {
  const auto& k = c.kind;
  if (k.is(core::paths::gpu_gpu))
    return "GPU " + endpoint_text(c, 0) + " to " + endpoint_text(c, 1);
  if (k.is(core::paths::host_gpu) && !endpoint_text(c, 0).empty())
    return "GPU " + endpoint_text(c, 0);
  if (k.is(core::paths::collective)) {
    if (!endpoint_text(c, 0).empty()) return endpoint_text(c, 0) + " nodes";
    return c.params.contains("ranks") ? param(c, "ranks") + " ranks" : "";
  }
  std::string out;
  for (const char* key : {"streams", "op", "memory", "direction"})
    if (c.params.contains(key))
      out += (out.empty() ? "" : ", ") + std::string(key) + "=" + param(c, key);
  return out;
}

// Host memory on another NUMA node than the GPU: a path the NUMA finding reports, not the
// GPU's own. Cases that do not record it count as local.
bool remote_numa(const core::case_result& c) {
  if (!c.context.is_object()) return false;
  const auto it = c.context.find("numa_local");
  return it != c.context.end() && it->is_boolean() && !it->get<bool>();
}

bool better(const path_figure& a, const path_figure& b) {
  return a.higher_is_better ? a.value > b.value : a.value < b.value;
}

}  // namespace

std::size_t nics_per_node(const core::case_result& c) {
  if (!c.context.is_object()) return 0;
  if (const auto it = c.context.find("nics_per_node");
      it != c.context.end() && it->is_number_integer() && it->get<long long>() > 0)
    return static_cast<std::size_t>(it->get<long long>());
  if (const auto it = c.context.find("interfaces"); it != c.context.end() && it->is_array())
    return it->size();
  return 0;
}

namespace {

// A collective whose tool did not check its data (nccl-tests' #wrong N/A, `-c 0`).
bool unvalidated(const core::case_result& c, std::uint64_t bytes) {
  if (!c.imported || !c.kind.is(core::paths::collective)) return false;
  for (const auto& p : c.points)
    if (p.bytes == bytes) return !p.extra.contains("wrong");
  return false;
}

std::string percent(double fraction) {
  return std::isfinite(fraction) ? fmt::format("{:.0f} %", fraction * 100.0) : "-";
}

}  // namespace

std::vector<headline_row> headline_rows(const run_input& run) {
  struct group {
    path_kind kind;
    headline_row row;
    std::size_t count = 0;  // the cases of the row's locality
    bool remote = true;     // the row's case has remote host memory
    int nodes = -1;
  };
  std::map<std::pair<int, std::string>, group> groups;
  for (const auto& c : run.file.results) {
    const auto kind = kind_of(c);
    if (!kind) continue;
    const auto f = headline_figure(c);
    if (!f) continue;
    auto& g = groups[{kind->order, kind->key}];
    if (g.row.result && kind->fallback && !g.kind.fallback) continue;
    if (g.row.result && !kind->fallback && g.kind.fallback) g = group{};
    // The worst GPU path among host memory local to the GPU: a remote-NUMA case is the
    // slowest only when no local one was measured.
    const bool remote = remote_numa(c);
    if (g.row.result && remote && !g.remote) continue;
    const bool first_local = g.row.result && g.remote && !remote;
    if (first_local) g.count = 0;
    ++g.count;
    bool take = !g.row.result || first_local;
    const bool collective = c.kind.is(core::paths::collective);
    if (!take && collective) {
      // The most nodes measured: what the cluster does at its scale.
      const int nodes = c.params.value("nodes", 0);
      take = nodes > g.nodes || (nodes == g.nodes && better(*f, g.row.figure));
    } else if (!take) {
      take = kind->worst ? better(g.row.figure, *f) : better(*f, g.row.figure);
    }
    if (!take) continue;
    g.kind = *kind;
    g.remote = remote;
    g.row = {kind->key, kind->title, &c, *f};
    if (collective) g.nodes = c.params.value("nodes", 0);
  }
  std::vector<headline_row> out;
  for (auto& [order, g] : groups) {
    auto w = which(*g.row.result);
    if (g.remote) w += (w.empty() ? "" : ", ") + std::string("host memory on a remote NUMA node");
    if (g.kind.worst && g.count > 1)
      g.row.path += ": slowest of " + std::to_string(g.count) + (w.empty() ? "" : " (" + w + ")");
    else if (!w.empty())
      g.row.path += " (" + w + ")";
    out.push_back(std::move(g.row));
  }
  return out;
}

std::string verdict(const path_figure& f, const std::vector<const reference_figure*>& refs) {
  if (std::isfinite(f.fraction)) {
    if (f.fraction >= good_fraction) return "at line rate";
    if (f.fraction >= fair_fraction) return "below line rate";
    return "far below line rate";
  }
  for (const auto* r : refs) {
    if (r->unit != f.unit) continue;
    const double edge = f.higher_is_better ? r->low : r->high;
    const double ratio = f.higher_is_better ? f.value / edge : edge / f.value;
    if (ratio >= 0.9) return "as published";
    return fmt::format("{:.0f} % of published", ratio * 100.0);
  }
  return "no line rate recorded";
}

table headline_table(const run_input& run, const reference_set& refs) {
  table t;
  t.caption =
      "Headline: the slowest GPU or GPU pair, the best network case, each collective at the "
      "most nodes (bandwidth: median at the largest size; latency: p50 at the smallest)";
  t.header = {
      "path",   "measured", "line rate", "% of line", "published reference (measured elsewhere)",
      "verdict"};
  t.numeric = {false, true, false, true, false, false};
  for (const auto& row : headline_rows(run)) {
    const auto& c = *row.result;
    std::string rate = "-";
    if (c.peak && c.peak->unit == row.figure.unit)
      rate = format_value(c.peak->value) + " " + c.peak->unit + " (" + c.peak->basis + ")";
    const auto matched = refs.matching(c, run.file.system);
    std::string ref = "-";
    for (const auto* r : matched)
      if (r->unit == row.figure.unit) {
        ref = "reference: " + figure_text(*r) + ", " + r->what + " (source: " + r->source + ")";
        break;
      }
    const auto at = row.figure.bytes ? " at " + format_size(row.figure.bytes) : std::string();
    // Network people and their tools (perftest, iperf3) speak in Gb/s: both, so a figure can
    // be checked against the port speed and the tool's own output at a glance.
    // A collective across nodes: its busbw is what a node sends, shared by its NICs; in Gb/s
    // per NIC (against the port speed) only where the NIC count is known, else not at all.
    std::string bits;
    if (row.figure.unit == "GB/s" && c.kind.is(core::paths::network))
      bits = " (" + format_value(row.figure.value * 8) + " Gb/s)";
    const std::size_t nics = nics_per_node(c);
    if (row.figure.unit == "GB/s" && c.kind.is(core::paths::collective) &&
        c.params.value("nodes", 0) >= 2 && nics > 0)
      bits = nics == 1 ? " (" + format_value(row.figure.value * 8) + " Gb/s on its one NIC)"
                       : fmt::format(" ({} Gb/s per NIC, {} NICs)",
                                     format_value(row.figure.value * 8 / static_cast<double>(nics)),
                                     nics);
    std::string path = row.path;
    if (unvalidated(c, row.figure.bytes)) path += ", data not checked (#wrong N/A)";
    t.rows.push_back({path, figure_text(row.figure, false) + bits + at, rate,
                      percent(row.figure.fraction), ref, verdict(row.figure, matched)});
  }
  return t;
}

namespace {

// The headline rows of every run, and the paths in first-seen order (key, title).
struct runs_rows {
  std::vector<std::vector<headline_row>> per_run;
  std::vector<std::pair<std::string, std::string>> keys;
};
runs_rows rows_of(const std::vector<run_input>& runs) {
  runs_rows out;
  for (const auto& r : runs) {
    out.per_run.push_back(headline_rows(r));
    for (const auto& row : out.per_run.back())
      if (std::none_of(out.keys.begin(), out.keys.end(),
                       [&](const auto& k) { return k.first == row.key; }))
        out.keys.emplace_back(row.key, kind_of(*row.result)->title);
  }
  return out;
}

const headline_row* find_row(const std::vector<headline_row>& rows, const std::string& key) {
  const auto it =
      std::find_if(rows.begin(), rows.end(), [&](const headline_row& r) { return r.key == key; });
  return it == rows.end() ? nullptr : &*it;
}

std::string ratio_text(const headline_row* base, const headline_row* later) {
  if (!base || !later || base->figure.unit != later->figure.unit || !(base->figure.value > 0))
    return "-";
  const double ratio = later->figure.value / base->figure.value;
  const bool improved = later->figure.higher_is_better ? ratio > 1 : ratio < 1;
  return format_ratio(ratio) + (std::fabs(ratio - 1) < 0.05 ? "" : improved ? " better" : " worse");
}

// Many runs: a column each would not fit a page. The first run's figure, then the range of all
// of them: lowest and highest (with the run), the median, and the spread (range / median).
table across_runs_table(const std::vector<run_input>& runs, const runs_rows& all) {
  table t;
  t.caption = "The headline of " + std::to_string(runs.size()) +
              " runs (bandwidth: median at the largest size; latency: p50 at the smallest "
              "size), the first run's figure and the range of all of them";
  t.header = {"path",          runs.front().label, "lowest (run)", "median",
              "highest (run)", "spread",           "runs"};
  t.numeric = {false, true, true, true, true, true, true};
  for (const auto& [key, title] : all.keys) {
    std::vector<std::pair<double, std::size_t>> values;  // figure, run index
    std::string unit;
    for (std::size_t i = 0; i < runs.size(); ++i)
      if (const auto* row = find_row(all.per_run[i], key);
          row && std::isfinite(row->figure.value) && (unit.empty() || unit == row->figure.unit)) {
        unit = row->figure.unit;
        values.emplace_back(row->figure.value, i);
      }
    if (values.empty()) continue;
    std::sort(values.begin(), values.end());
    std::vector<double> figures;
    for (const auto& v : values)
      figures.push_back(v.first);
    const double median = findings::median_of(std::move(figures));
    const auto* first = find_row(all.per_run.front(), key);
    auto with_run = [&](const std::pair<double, std::size_t>& v) {
      return format_value(v.first) + " " + unit + " (" + runs[v.second].label + ")";
    };
    t.rows.push_back(
        {title, first ? figure_text(first->figure, false) : "-", with_run(values.front()),
         format_value(median) + " " + unit, with_run(values.back()),
         median > 0
             ? fmt::format("{:.1f} %", (values.back().first - values.front().first) / median * 100)
             : "-",
         std::to_string(values.size())});
  }
  return t;
}

}  // namespace

table side_by_side_table(const std::vector<run_input>& runs) {
  const auto all = rows_of(runs);
  if (runs.size() > side_by_side_runs) return across_runs_table(runs, all);
  table t;
  t.caption =
      "The runs side by side (bandwidth: median at the largest size, % of line rate in "
      "brackets; latency: p50 at the smallest size); ratio: later run over " +
      (runs.empty() ? std::string("the first") : runs.front().label);
  t.header = {"path"};
  for (const auto& r : runs)
    t.header.push_back(r.label);
  for (std::size_t i = 1; i < runs.size(); ++i)
    t.header.push_back(runs.size() > 2 ? "ratio " + runs[i].label : "ratio");
  t.numeric.assign(t.header.size(), true);
  t.numeric[0] = false;
  for (const auto& [key, title] : all.keys) {
    std::vector<std::string> cells = {title};
    std::vector<const headline_row*> found;
    for (const auto& rows : all.per_run) {
      found.push_back(find_row(rows, key));
      if (!found.back()) {
        cells.push_back("-");
        continue;
      }
      auto text = figure_text(found.back()->figure, false);
      if (std::isfinite(found.back()->figure.fraction))
        text += " (" + percent(found.back()->figure.fraction) + ")";
      cells.push_back(text);
    }
    for (std::size_t i = 1; i < found.size(); ++i)
      cells.push_back(ratio_text(found[0], found[i]));
    t.rows.push_back(std::move(cells));
  }
  return t;
}

}  // namespace gpubench::reports::page_one
