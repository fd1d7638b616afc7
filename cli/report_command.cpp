// gpubench report RUN.json|TOOL-OUTPUT... [--history STORE] [--html F] [--pdf F] [--md F] [--csv F]
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/history_options.hpp"
#include "cli/store_location.hpp"
#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "history/database.hpp"
#include "history/store.hpp"
#include "reports/import/nccl_tests.hpp"
#include "reports/model/report_options.hpp"
#include "reports/page_one/findings/finding.hpp"
#include "reports/render/charts.hpp"
#include "reports/render/csv_writer.hpp"
#include "reports/render/html_writer.hpp"
#include "reports/render/markdown_writer.hpp"
#include "reports/report_builder.hpp"
#include "reports/views/trend_section.hpp"

namespace gpubench::cli {

namespace {

struct report_options {
  std::vector<std::string> files;
  std::string html;
  std::string pdf;
  std::string md;
  std::string csv;
  std::string step_time;  // --step-time, as typed (parsed in run_report: bad values exit 2)
  std::string overlap;
  std::string op;  // --op: the operation of an nccl-tests log that names none
  reports::model::training_text training;  // --strategy, --params, ... as typed
  std::string history;                     // --history STORE: the trend section
  bool trend_all = false;
  change_cli_options change;
};

// The trend section of the store's series (the statistics are history's).
reports::model::section trend_of(const report_options& o) {
  const auto options = analysis_options_of(o.change);
  require_store(o.history);
  const history::store store(o.history);
  const auto found = history::analyse(store.load(), store.fingerprints(), options);
  return reports::views::trend_section(found, {store.describe(), o.trend_all});
}

// A report of the store alone: its trends, beside the store (or here, for PostgreSQL).
reports::model::document history_report(const report_options& o) {
  reports::model::document doc;
  doc.title = "gpubench history";
  doc.sections.push_back(trend_of(o));
  return doc;
}

// "-" writes to standard output, for piping Markdown into a pull-request comment.
void emit(const std::string& target, const std::string& content) {
  if (target == "-") {
    std::fwrite(content.data(), 1, content.size(), stdout);
    return;
  }
  core::write_file_atomically(target, content);
  fmt::print(stderr, "# report: {}\n", target);
}

// Markdown written to a file gets its charts as SVG files in "<name>-charts/" beside it,
// linked relatively so the pair can be committed or uploaded together.
std::string markdown_report(const reports::model::document& doc, const std::string& target) {
  if (target == "-") return reports::render::to_markdown(doc);
  const std::filesystem::path md(target);
  const std::string folder = md.stem().string() + "-charts";
  int count = 0;
  return reports::render::to_markdown(doc, [&](const std::string& svg) {
    const std::string name = fmt::format("chart-{:02}.svg", ++count);
    std::filesystem::create_directories(md.parent_path() / folder);
    core::write_file_atomically(md.parent_path() / folder / name, svg);
    return folder + "/" + name;
  });
}

void write_outputs(const report_options& o, const reports::model::document& doc) {
  if (!o.html.empty()) emit(o.html, reports::render::to_html(doc));
  if (!o.md.empty()) emit(o.md, markdown_report(doc, o.md));
  if (!o.pdf.empty()) {
    reports::render::write_pdf(doc, o.pdf);
    fmt::print(stderr, "# report: {}\n", o.pdf);
  }
}

// One line per finding on standard error, so a terminal run shows the verdict too.
void print_findings(const std::vector<reports::model::run_input>& runs) {
  for (const auto& run : runs)
    for (const auto& f : reports::page_one::findings::evaluate(run))
      fmt::print(stderr, "# finding: {}: {}: {}: {} ({})\n", run.label,
                 reports::page_one::findings::to_string(f.level), f.subject, f.title, f.rule);
}

int run_report(report_options o) {
  if (o.pdf == "-") throw core::usage_error("--pdf needs a file name, not '-'");
  if (o.files.empty() && o.history.empty())
    throw core::usage_error("report: give result files, or --history STORE, or both");
  if (o.files.empty()) {
    const auto doc = history_report(o);
    if (o.html.empty() && o.pdf.empty() && o.md.empty() && o.csv.empty())
      o.html =
          history::is_postgresql(o.history)
              ? std::string("gpubench-history.html")
              : (std::filesystem::path(o.history).parent_path() / "gpubench-history.html").string();
    if (!o.csv.empty()) throw core::usage_error("--csv: needs result files, not a store alone");
    write_outputs(o, doc);
    return 0;
  }
  reports::model::report_options model;
  if (!o.step_time.empty())
    model.step_compute_seconds = reports::model::parse_step_time(o.step_time);
  if (!o.overlap.empty()) model.overlap = reports::model::parse_overlap(o.overlap);
  model.training = reports::model::parse_training_model(o.training);
  std::vector<std::filesystem::path> paths(o.files.begin(), o.files.end());
  if (!o.op.empty() && reports::import::nccl_tests_operation(o.op).empty())
    throw core::usage_error(fmt::format("--op: '{}' is no nccl-tests operation", o.op));
  const auto runs = reports::model::load_runs(paths, o.op);
  // With no output named, the HTML report goes next to the first result file.
  if (o.html.empty() && o.pdf.empty() && o.md.empty() && o.csv.empty())
    o.html = std::filesystem::path(paths.front()).replace_extension(".html").string();
  auto doc = reports::build_report(runs, reports::model::reference_set::builtin(), model);
  if (!o.history.empty()) doc.sections.push_back(trend_of(o));
  print_findings(runs);
  write_outputs(o, doc);
  if (!o.csv.empty()) emit(o.csv, reports::render::to_csv(runs));
  return 0;
}

}  // namespace

command setup_report(CLI::App& app, const environment&) {
  auto* sub = app.add_subcommand(
      "report",
      "Turn result files into an HTML, PDF, Markdown or CSV report (reads, never measures)");
  auto o = std::make_shared<report_options>();
  sub->add_option("files", o->files,
                  "Result files (gpubench.result/1.N), or nccl-tests, nvbandwidth, perftest or "
                  "iperf3 output (docs/import.md); several are compared");
  sub->add_option("--html", o->html,
                  "Self-contained HTML report (default: next to the first file)");
  sub->add_option("--pdf", o->pdf, "PDF report (cairo + pango)");
  sub->add_option("--md", o->md,
                  "Markdown report, charts as SVG files in <name>-charts/ beside it ('-' for "
                  "standard output, charts named only)");
  sub->add_option("--csv", o->csv, "CSV, one row per point ('-' for standard output)");
  sub->add_option("--op", o->op,
                  "nccl-tests logs that name no operation: which it is (all_reduce, alltoall, "
                  "...; docs/import.md)");
  sub->add_option("--step-time", o->step_time,
                  "Training projection: compute seconds per step on one node, e.g. 0.25 or "
                  "250ms (default 0.25 s)");
  sub->add_option(
      "--overlap", o->overlap,
      "Training projection: fraction of the communication hidden behind compute, 0 to 1 "
      "(default 0)");
  auto& t = o->training;
  sub->add_option("--strategy", t.strategy,
                  "Training projection: data-parallel (dp), sharded (fsdp, zero3) or moe "
                  "(default data-parallel)");
  sub->add_option("--params", t.parameters,
                  "Training projection: parameters of the model, e.g. 340M, 1.5B, 7e9 (default: "
                  "25 M, 350 M and 1.5 B side by side)");
  sub->add_option("--element-bytes", t.element_bytes,
                  "Training projection: bytes per parameter or activation element: 1, 2, 4, 8 or "
                  "fp8, bf16, fp16, fp32, fp64 (default 4)");
  sub->add_option("--bucket", t.bucket,
                  "Training projection: data-parallel gradient bucket, sharded unit size, e.g. "
                  "25MiB (default: the whole gradient at once)");
  sub->add_option("--moe-layers", t.moe_layers, "Training projection, moe: MoE layers");
  sub->add_option("--moe-tokens", t.moe_tokens,
                  "Training projection, moe: tokens per rank per step (micro-batch x sequence)");
  sub->add_option("--moe-hidden", t.moe_hidden, "Training projection, moe: hidden size");
  sub->add_option("--moe-top-k", t.moe_top_k,
                  "Training projection, moe: experts per token (default 1)");
  sub->add_option("--history", o->history,
                  "The results store (SQLite file or postgresql://...): add a trend section, a "
                  "chart per series that changed (docs/history.md); alone, a report of it");
  sub->add_flag("--trend-all", o->trend_all,
                "With --history: a chart for every series, also those without a change");
  add_change_options(*sub, o->change);
  return {sub, [o] { return run_report(*o); }};
}

}  // namespace gpubench::cli
