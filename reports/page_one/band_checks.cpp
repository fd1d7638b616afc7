#include "reports/page_one/band_checks.hpp"

#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "reports/model/report_inputs.hpp"
#include "reports/model/series.hpp"
#include "reports/model/text_format.hpp"
#include "reports/page_one/headline_table.hpp"
#include "reports/page_one/path_figure.hpp"

namespace gpubench::reports::page_one {

using namespace model;

namespace {

std::string param_string(const core::case_result& c, const char* key) {
  if (!c.params.contains(key)) return "";
  const auto& v = c.params.at(key);
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// A figure a band may cover, before the band is chosen.
struct band_candidate {
  std::string metric;
  std::string path;
  const core::case_result* result = nullptr;
  path_figure figure;
  band_context context;
  std::string note;
};

// The port speed of a network case from its line rate (a 400 Gb/s port: 50 GB/s).
std::optional<double> case_port_gbps(const core::case_result& c) {
  if (c.peak && c.peak->unit == "GB/s" && c.peak->value > 0) return c.peak->value * 8;
  return std::nullopt;
}

std::string case_link_layer(const core::case_result& c) {
  if (c.context.is_object() && c.context.contains("link_layer") &&
      c.context.at("link_layer").is_string())
    return c.context.at("link_layer").get<std::string>();
  return "";
}

// The worst (or best) figure among the cases `keep` accepts.
std::optional<std::pair<const core::case_result*, path_figure>> pick_case(
    const core::result_file& f, bool best, const auto& keep) {
  std::optional<std::pair<const core::case_result*, path_figure>> out;
  for (const auto& c : f.results) {
    if (!keep(c)) continue;
    const auto fig = headline_figure(c);
    if (!fig) continue;
    const bool better = fig->higher_is_better ? fig->value > (out ? out->second.value : 0)
                                              : !out || fig->value < out->second.value;
    const bool take = !out || (best ? better : !better);
    if (take) out = std::make_pair(&c, *fig);
  }
  return out;
}

void from_headline(const run_input& run, std::vector<band_candidate>& out) {
  const auto& f = run.file;
  for (const auto& row : headline_rows(run)) {
    if (row.path.find("SM copy") != std::string::npos) continue;
    std::string metric;
    if (row.key == "host_gpu to_gpu bandwidth") metric = "h2d";
    if (row.key == "host_gpu to_host bandwidth") metric = "d2h";
    if (row.key.rfind("gpu_gpu", 0) == 0 && row.key != "gpu_gpu latency" &&
        row.key != "gpu_gpu pcie")
      metric = "gpu_pair_uni";
    if (metric.empty()) continue;
    out.push_back({metric, row.path, row.result, row.figure, {&f.system, {}, {}}, ""});
  }
}

void pairs_both_ways(const core::result_file& f, std::vector<band_candidate>& out) {
  const auto found = pick_case(f, false, [](const core::case_result& c) {
    const std::string measured = param_string(c, "measured");
    return c.kind.is(core::paths::gpu_gpu) && c.metric == "bandwidth" &&
           param_string(c, "direction") == "bidir" && param_string(c, "engine") != "sm" &&
           (measured.empty() || measured == "total");
  });
  if (found)
    out.push_back({"gpu_pair_bidir",
                   "GPU to GPU, both ways together: slowest pair",
                   found->first,
                   found->second,
                   {&f.system, {}, {}},
                   ""});
}

bool out_of_place(const core::case_result& c) {
  return !c.params.value("in_place", false);
}

void allreduce_one_node(const core::result_file& f, const band_table& bands,
                        std::vector<band_candidate>& out) {
  const auto found = pick_case(f, true, [](const core::case_result& c) {
    return c.kind.is(core::paths::collective) && c.kind.operation == "allreduce" &&
           out_of_place(c) && c.params.value("nodes", 1) <= 1 && c.params.value("ranks", 0) == 8;
  });
  if (!found) return;
  const auto& c = *found->first;
  const std::string algorithm = c.context.is_object() && c.context.contains("algorithm") &&
                                        c.context.at("algorithm").is_string()
                                    ? c.context.at("algorithm").get<std::string>()
                                    : "";
  const band_context ctx{&f.system, {}, {}};
  std::string metric, note;
  if (algorithm.find("NVLS") != std::string::npos) {
    metric = "allreduce_8gpu_nvls";
  } else if (!algorithm.empty()) {
    metric = "allreduce_8gpu_ring";
  } else {
    // The log does not say which algorithm ran: NVLS where the figure reaches its band's
    // neighbourhood, else the ring's band, and the other band is named.
    const auto* nvls = bands.find("allreduce_8gpu_nvls", ctx);
    const auto* ring = bands.find("allreduce_8gpu_ring", ctx);
    const bool as_nvls = nvls && (!ring || found->second.value >= 0.9 * nvls->low);
    metric = as_nvls ? "allreduce_8gpu_nvls" : "allreduce_8gpu_ring";
    const auto* other = as_nvls ? ring : nvls;
    note = "algorithm not recorded";
    if (other) note += fmt::format("; {}: {}", as_nvls ? "ring" : "NVLS", band_text(*other));
  }
  out.push_back({metric, "Allreduce, 8 GPUs in one node (" + param_string(c, "backend") + ")", &c,
                 found->second, ctx, note});
}

void per_nic(const core::result_file& f, std::vector<band_candidate>& out) {
  const auto found = pick_case(f, true, [](const core::case_result& c) {
    return c.kind.is(core::paths::collective) && c.kind.operation == "allreduce" &&
           out_of_place(c) && c.params.value("nodes", 0) >= 2 && nics_per_node(c) > 0;
  });
  if (!found) return;
  const std::size_t nics = nics_per_node(*found->first);
  path_figure fig = found->second;
  fig.value /= static_cast<double>(nics);
  out.push_back(
      {"nic_busbw",
       fmt::format("Allreduce across {} nodes, per NIC", param_string(*found->first, "nodes")),
       found->first,
       fig,
       {&f.system, {}, {}},
       fmt::format("busbw / {} NIC{} per node", nics, nics == 1 ? "" : "s")});
}

void rdma(const core::result_file& f, std::vector<band_candidate>& out) {
  const auto write = pick_case(f, true, [](const core::case_result& c) {
    return c.kind.is(core::paths::network) && c.kind.transport == "rdma" &&
           c.metric == "bandwidth" && param_string(c, "op") == "write" && c.unit == "GB/s" &&
           model::largest_point(c) && model::largest_point(c)->bytes >= 65536;
  });
  if (write)
    out.push_back({"ib_write_bw",
                   "RDMA write bandwidth (one port)",
                   write->first,
                   write->second,
                   {&f.system, case_port_gbps(*write->first), case_link_layer(*write->first)},
                   ""});
  const auto lat = pick_case(f, true, [](const core::case_result& c) {
    const std::string op = param_string(c, "op");
    return c.kind.is(core::paths::network) && c.kind.transport == "rdma" && c.metric == "latency" &&
           (op == "send" || op == "write") && model::smallest_point(c) &&
           model::smallest_point(c)->bytes <= 64;
  });
  if (lat)
    out.push_back({"rc_latency",
                   "RDMA latency, small messages, p50",
                   lat->first,
                   lat->second,
                   {&f.system, case_port_gbps(*lat->first), case_link_layer(*lat->first)},
                   ""});
}

}  // namespace

std::vector<band_check> band_checks(const run_input& run, const band_table& bands) {
  const auto& f = run.file;
  std::vector<band_candidate> found;
  from_headline(run, found);
  pairs_both_ways(f, found);
  allreduce_one_node(f, bands, found);
  per_nic(f, found);
  rdma(f, found);
  std::vector<band_check> out;
  for (const auto& c : found) {
    const auto* b = bands.find(c.metric, c.context);
    if (!b) continue;
    const auto value = in_band_unit(c.figure.value, c.figure.unit, *b);
    if (!value) continue;
    band_check k{
        c.metric, c.path, c.result, *value, b, bands.system_of(*b).name, band_position::within,
        c.note};
    const bool higher = c.figure.higher_is_better;
    if (*value < b->low) k.position = higher ? band_position::below : band_position::above;
    if (*value > b->high) k.position = higher ? band_position::above : band_position::below;
    out.push_back(std::move(k));
  }
  return out;
}

std::string band_sentence(const band_check& c) {
  const std::string where =
      fmt::format("the band published for {}: {}", c.system, band_text(*c.band));
  switch (c.position) {
    case band_position::within:
      return "within " + where;
    case band_position::above:
      return "better than " + where;
    case band_position::below: {
      const bool latency = c.band->unit == "us";
      const double ratio = latency ? c.band->high / c.value : c.value / c.band->low;
      std::string s = fmt::format("below {}; {:.0f} % of its {} end", where, ratio * 100,
                                  latency ? "high" : "low");
      if (c.band->floor && !latency && c.value < *c.band->floor)
        s += fmt::format(", under the floor of {:g}", *c.band->floor);
      return s;
    }
  }
  return where;
}

table bands_table(const std::vector<band_check>& checks) {
  table t;
  t.caption =
      "Is it normal? The figures above against the bands others published for the same "
      "hardware (references, not measurements; the system chosen from the GPU and NIC names "
      "the run carries)";
  t.header = {"path", "measured", "verdict", "source; date"};
  t.numeric = {false, true, false, false};
  for (const auto& c : checks) {
    std::string measured = format_value(c.value) + " " + c.band->unit;
    if (!c.note.empty()) measured += " (" + c.note + ")";
    t.rows.push_back({c.path, measured, band_sentence(c), c.band->source + "; " + c.band->date});
  }
  return t;
}

std::vector<compare::comparison_row> band_rows(const run_input& run, const band_table& bands,
                                               const compare::compare_options& options) {
  std::vector<compare::comparison_row> rows;
  for (const auto& c : band_checks(run, bands)) {
    compare::comparison_row r;
    r.basis = compare::row_basis::reference;
    r.benchmark = c.result->benchmark;
    r.params = c.result->params;
    r.metric = c.result->metric;
    r.unit = c.band->unit;
    r.better = c.band->unit == "us" ? "lower" : "higher";
    r.base_value = (c.band->low + c.band->high) / 2;
    r.new_value = c.value;
    r.ratio = c.value / *r.base_value;
    r.threshold = options.threshold.for_benchmark(r.benchmark);
    r.reference = compare::reference_bounds{"published: " + c.system, *r.base_value, c.band->low,
                                            c.band->high};
    const bool latency = r.better == "lower";
    const double edge = latency ? c.band->high : c.band->low;
    const double short_by = latency ? c.value / edge - 1 : 1 - c.value / edge;
    r.result = c.position == band_position::above    ? compare::verdict::faster
               : c.position == band_position::within ? compare::verdict::same
               : short_by > r.threshold              ? compare::verdict::slower
                                                     : compare::verdict::same;
    r.regression = r.result == compare::verdict::slower;
    r.note = band_sentence(c) + "; source: " + c.band->source + "; " + c.band->date;
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace gpubench::reports::page_one
