// gpubench compare BASE.json NEW.json [--threshold PCT|ID=PCT]... [--references F] [--format F],
// or compare --history STORE NEW.json: the CI regression gate. Exit 0: no regression; 1: a
// regression; 2: bad usage or input.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/compare_history.hpp"
#include "cli/store_location.hpp"
#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "reports/compare/comparison.hpp"
#include "reports/compare/formats.hpp"
#include "reports/compare/references.hpp"
#include "reports/compare/threshold_spec.hpp"
#include "reports/import/importers.hpp"
#include "reports/model/bands.hpp"
#include "reports/model/report_inputs.hpp"
#include "reports/page_one/band_checks.hpp"

namespace gpubench::cli {

namespace {

struct compare_options {
  std::vector<std::string> files;  // BASE NEW, or NEW alone with --references
  std::vector<std::string> thresholds;
  double alpha = 0.05;
  std::string references;
  std::string system;
  std::string format = "text";
  std::string out;
  std::string op;       // nccl-tests logs that name no operation
  std::string history;  // --history STORE: NEW against its series in the store
  std::size_t min_history = 5;
  bool fail_on_removed = false;
};

// Ids a threshold or a reference may name: this build's benchmarks and whatever the files hold
// (a file from a newer build may carry ids this one does not know).
std::vector<std::string> known_ids(const environment& env,
                                   std::initializer_list<const core::result_file*> files) {
  std::set<std::string> ids;
  for (const auto& b : env.registry.benchmarks())
    ids.insert(b.id);
  for (const auto* f : files)
    if (f)
      for (const auto& c : f->results)
        ids.insert(c.benchmark);
  return {ids.begin(), ids.end()};
}

void check_reference_ids(const reports::compare::reference_system& system,
                         const std::vector<std::string>& ids) {
  for (const auto& e : system.references)
    if (std::find(ids.begin(), ids.end(), e.benchmark) == ids.end())
      throw core::input_error(fmt::format(
          "{}.benchmark: unknown benchmark id '{}' (see `gpubench list`)", e.where, e.benchmark));
}

bool use_colour(const compare_options& o) {
  return o.out.empty() && o.format == "text" && ::isatty(STDOUT_FILENO) &&
         std::getenv("NO_COLOR") == nullptr;
}

// Text to stdout or --out; the exit code of the gate.
int emit(const compare_options& o, const reports::compare::comparison& result,
         reports::compare::output_format format) {
  const std::string text = reports::compare::render(result, format, use_colour(o));
  if (o.out.empty())
    fmt::print("{}", text);
  else
    try {
      core::write_file_atomically(o.out, text);
    } catch (const std::exception& e) {
      // Exit 1 means "regression" to a CI job; an unwritable --out is a usage problem.
      throw core::usage_error(fmt::format("--out {}: {}", o.out, e.what()));
    }
  return result.regressed() ? 1 : 0;
}

int run_compare_history(const compare_options& o, const environment& env,
                        reports::compare::output_format format) {
  if (o.files.size() != 1 || !o.references.empty())
    throw core::usage_error(
        "compare --history STORE: give NEW.json alone (no BASE, no --references)");
  if (!(o.alpha > 0 && o.alpha < 1))
    throw core::usage_error(fmt::format("--alpha: {} is not between 0 and 1", o.alpha));
  if (o.min_history < 2) throw core::usage_error("--min-history: at least 2 runs");
  reports::import::import_options read;
  read.operation = o.op;
  const core::result_file fresh = reports::import::load_result(o.files[0], read);
  require_store(o.history);
  history_gate_options options;
  options.store = o.history;
  options.alpha = o.alpha;
  options.min_history = o.min_history;
  options.threshold = reports::compare::parse_thresholds(o.thresholds);
  if (const auto unknown =
          reports::compare::unknown_threshold_keys(options.threshold, known_ids(env, {&fresh}));
      !unknown.empty())
    throw core::usage_error(
        fmt::format("--threshold: '{}' names no benchmark (see `gpubench list`)", unknown.front()));
  return emit(o, compare_with_history(fresh, o.files[0], options), format);
}

int run_compare(const compare_options& o, const environment& env) {
  const reports::compare::output_format format = reports::compare::parse_output_format(o.format);
  if (!o.history.empty()) return run_compare_history(o, env, format);
  if (o.files.size() == 1 && o.references.empty())
    throw core::usage_error(
        "compare: give BASE.json and NEW.json, or NEW.json with --references F");
  if (!o.system.empty() && o.references.empty())
    throw core::usage_error(
        "compare: --system selects a system of a reference file; add --references F");
  if (!(o.alpha > 0 && o.alpha < 1))
    throw core::usage_error(fmt::format("--alpha: {} is not between 0 and 1", o.alpha));

  std::optional<core::result_file> base;
  reports::import::import_options read;
  read.operation = o.op;
  if (o.files.size() == 2) base = reports::import::load_result(o.files[0], read);
  const std::string new_path = o.files.back();
  const core::result_file fresh = reports::import::load_result(new_path, read);

  reports::compare::compare_options options;
  options.alpha = o.alpha;
  options.fail_on_removed = o.fail_on_removed;
  options.threshold = reports::compare::parse_thresholds(o.thresholds);
  const auto ids = known_ids(env, {base ? &*base : nullptr, &fresh});
  if (const auto unknown = reports::compare::unknown_threshold_keys(options.threshold, ids);
      !unknown.empty())
    throw core::usage_error(
        fmt::format("--threshold: '{}' names no benchmark (see `gpubench list`)", unknown.front()));

  reports::compare::comparison result;
  if (base) {
    result = reports::compare::compare_results(*base, fresh, options, o.files[0], new_path);
  } else {
    result.options = options;
    result.new_name = new_path;
  }
  // The word `published` (where no such file exists): the expected bands built into gpubench.
  if (o.references == "published" && !std::filesystem::exists(o.references)) {
    if (!o.system.empty())
      throw core::usage_error(
          "compare: --system selects a system of a reference file; with --references published "
          "the system is chosen from the run's GPU and NIC names");
    reports::model::run_input run{new_path, fresh, new_path};
    auto rows = reports::page_one::band_rows(run, reports::model::band_table::builtin(), options);
    result.rows.insert(result.rows.end(), rows.begin(), rows.end());
    if (!base) result.base_name = "published bands";
  } else if (!o.references.empty()) {
    const reports::compare::reference_file refs =
        reports::compare::read_reference_file(o.references);
    const std::string host = fresh.system.is_object() ? fresh.system.value("host", "") : "";
    const auto& system = reports::compare::select_system(
        refs, host, o.system.empty() ? std::nullopt : std::optional<std::string>(o.system),
        o.references);
    check_reference_ids(system, ids);
    auto rows = reports::compare::check_references(system, fresh, options);
    result.rows.insert(result.rows.end(), rows.begin(), rows.end());
    if (!base) result.base_name = o.references;
  }

  return emit(o, result, format);
}

}  // namespace

command setup_compare(CLI::App& app, const environment& env) {
  auto* sub = app.add_subcommand(
      "compare",
      "Compare two result files (or one against a reference file or its history): the CI gate");
  auto o = std::make_shared<compare_options>();
  sub->add_option("files", o->files,
                  "BASE.json NEW.json, or NEW.json alone with --references or --history; "
                  "other tools' output is imported as it is read (docs/import.md)")
      ->required()
      ->expected(1, 2);
  sub->add_option("--threshold", o->thresholds,
                  "Allowed change before a point counts: PCT for all (default 5%), or "
                  "ID=PCT / PREFIX*=PCT for one benchmark or family; repeatable")
      ->allow_extra_args(false)
      ->take_all();
  sub->add_option("--alpha", o->alpha, "Significance level of the Mann-Whitney U test (0.05)");
  sub->add_option("--references", o->references,
                  "Reference file (gpubench.references/1): check NEW against expected bounds; "
                  "`published`: against the bands published for its hardware (docs/compare.md)");
  sub->add_option("--system", o->system,
                  "System label in the reference file (default: match NEW's host name)");
  sub->add_option("--format", o->format, "text, md, json or junit (default text)");
  sub->add_option("--out", o->out, "Write the output to this file instead of stdout");
  sub->add_option("--op", o->op,
                  "nccl-tests logs that name no operation: which it is (all_reduce, alltoall, "
                  "...; docs/import.md)");
  sub->add_option("--history", o->history,
                  "The results store (SQLite file or postgresql://...): judge NEW against the "
                  "latest segment of each of its series instead of a BASE file (docs/history.md)");
  sub->add_option("--min-history", o->min_history,
                  "With --history: fewest runs of a segment to judge against (default 5)");
  sub->add_flag("--fail-on-removed", o->fail_on_removed,
                "A case or size BASE had and NEW lacks fails the gate too");
  sub->footer(
      "Verdicts per point: FASTER / SLOWER (beyond the threshold and significant), SAME "
      "(within the threshold), NOISY (beyond it, not significant or too few samples), ADDED, "
      "REMOVED, LOST (BASE measured it, NEW skipped or failed it), UNMEASURED. Points of one "
      "value (imported logs) are judged by the sign test across their sweep or, alone, when "
      "they halved or doubled.\n"
      "Exit codes: 0 no regression; 1 a regression (SLOWER, LOST, outside a reference bound); "
      "2 bad usage or bad input.\n"
      "Example: gpubench compare base.json new.json --threshold 5% "
      "--threshold net.tcp.latency=10% --format junit --out compare.xml\n"
      "        gpubench compare --history results/gpubench.db new.json (against its series)");
  return {sub, [o, &env] { return run_compare(*o, env); }};
}

}  // namespace gpubench::cli
