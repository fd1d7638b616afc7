// gpubench store add FILE... [--store S] [--op OP]: result files and other tools' output
// (docs/import.md) added to the results store; gpubench store info: what the store holds.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/store_location.hpp"
#include "core/errors.hpp"
#include "history/schema.hpp"
#include "history/store.hpp"
#include "reports/import/importers.hpp"
#include "reports/import/nccl_tests.hpp"

namespace gpubench::cli {

namespace {

struct store_options {
  std::vector<std::string> files;
  std::string store = default_store;
  std::string op;
};

int run_store_add(const store_options& o) {
  if (!o.op.empty() && reports::import::nccl_tests_operation(o.op).empty())
    throw core::usage_error(fmt::format("--op: '{}' is no nccl-tests operation", o.op));
  // Every file is read before the store is touched: a bad file adds nothing.
  std::vector<core::result_file> files;
  for (const auto& name : o.files) {
    reports::import::import_options options;
    options.name = name;
    options.operation = o.op;
    files.push_back(reports::import::load_result(name, options));
  }
  history::store s(o.store);
  std::size_t added = 0, known = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    (s.add(files[i], o.files[i]).added ? added : known) += 1;
  }
  fmt::print("# store: {} run{} added, {} already there; {} runs in {}\n", added,
             added == 1 ? "" : "s", known, s.run_count(), s.describe());
  return 0;
}

int run_store_info(const store_options& o) {
  require_store(o.store);
  history::store s(o.store);
  const auto series = s.load();
  std::size_t points = 0;
  for (const auto& x : series)
    points += x.points.size();
  fmt::print("store: {}\nschema version: {}\nruns: {}\nseries: {}\npoints: {}\n", s.describe(),
             history::schema_version, s.run_count(), series.size(), points);
  return 0;
}

}  // namespace

command setup_store(CLI::App& app, const environment&) {
  auto* sub = app.add_subcommand("store", "The results store every run is added to");
  sub->require_subcommand(1);
  auto o = std::make_shared<store_options>();
  auto* add = sub->add_subcommand(
      "add",
      "Add result files, or nccl-tests, nvbandwidth, perftest or iperf3 output, to the store");
  add->add_option("files", o->files, "Result files or other tools' output (docs/import.md)")
      ->required();
  add_store_option(*add, o->store);
  add->add_option("--op", o->op, "nccl-tests logs that name no operation: which it is");
  auto* info = sub->add_subcommand("info", "Say what the store holds: runs, series, points");
  add_store_option(*info, o->store);
  return {sub, [o, add] { return add->parsed() ? run_store_add(*o) : run_store_info(*o); }};
}

}  // namespace gpubench::cli
