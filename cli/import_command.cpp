// gpubench import FILE... --out RUN.json [--op OPERATION]: other tools' output (nccl-tests,
// nvbandwidth, perftest, iperf3) as one gpubench result file (docs/import.md).
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "core/version.hpp"
#include "reports/import/importers.hpp"
#include "reports/import/nccl_tests.hpp"

namespace gpubench::cli {

namespace {

struct import_options {
  std::vector<std::string> files;
  std::string out;
  std::string op;
};

int run_import(const import_options& o, const environment& env) {
  if (!o.op.empty() && reports::import::nccl_tests_operation(o.op).empty())
    throw core::usage_error(fmt::format(
        "--op: '{}' is no nccl-tests operation (all_reduce, all_gather, reduce_scatter, "
        "alltoall, broadcast, reduce, sendrecv, gather, scatter, hypercube)",
        o.op));
  std::vector<core::result_file> files;
  for (const auto& name : o.files) {
    reports::import::import_options options;
    options.name = name;
    options.operation = o.op;
    core::result_file f = reports::import::load_result(name, options);
    // A gpubench result file is no import: merging it would relabel measured cases.
    if (f.run.suite != "import" || f.results.empty() ||
        std::any_of(f.results.begin(), f.results.end(), [](const auto& c) { return !c.imported; }))
      throw core::input_error(name +
                              ": a gpubench result file; give it to report or compare "
                              "as it is, beside the imported file");
    files.push_back(std::move(f));
  }
  // Everything is read before anything is written: a bad file leaves no output behind.
  core::result_file merged = reports::import::merge_imports(files, o.files);
  merged.tool = {"gpubench", core::tool_version, core::tool_git};
  merged.run.argv = env.argv;
  core::write_result_file(o.out, merged);
  std::size_t cases = merged.results.size();
  fmt::print(stderr, "# import: {} case{} from {} file{} -> {}\n", cases, cases == 1 ? "" : "s",
             o.files.size(), o.files.size() == 1 ? "" : "s", o.out);
  return 0;
}

}  // namespace

command setup_import(CLI::App& app, const environment& env) {
  auto* sub = app.add_subcommand(
      "import",
      "Read other tools' output (nccl-tests, nvbandwidth text or JSON, perftest, iperf3 -J) "
      "into a result file that report and compare take beside gpubench's own");
  auto o = std::make_shared<import_options>();
  sub->add_option("files", o->files, "The tools' output files; the format is recognised")
      ->required();
  sub->add_option("--out", o->out, "The result file to write (gpubench.result/1.N)")->required();
  sub->add_option("--op", o->op,
                  "nccl-tests: the operation (all_reduce, alltoall, ...), for a log that names "
                  "none (no '# Collective test starting' or command line)");
  return {sub, [o, &env] { return run_import(*o, env); }};
}

}  // namespace gpubench::cli
