// gpubench run --suite S [--filter REGEX] [--out FILE] [--metrics FILE] [--peer HOST[:PORT]]
// [--quick] [--quiet]
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/run_cluster.hpp"
#include "cli/run_setup.hpp"
#include "cli/run_stop.hpp"
#include "cli/store_location.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/reporters/console_reporter.hpp"
#include "core/reporters/json_file_reporter.hpp"
#include "core/result_json.hpp"
#include "core/runner.hpp"
#include "core/system/system_probe.hpp"
#include "core/version.hpp"
#include "transports/mpi/launch_env.hpp"
#include "transports/mpi/mpi_runtime.hpp"

namespace gpubench::cli {

namespace {

struct run_options {
  std::string suite;
  std::string filter;
  std::string out;
  std::string metrics;
  std::string peer;
  std::string sizes;
  std::string store;  // empty: gpubench.db beside the result file
  bool no_store = false;
  bool quick = false;
  bool quiet = false;
  double point_timeout = 0;                   // 0: each benchmark's own limit
  std::map<std::string, std::string> family;  // options added by benchmark families
  cluster_cli_options cluster;
};

// Anything a node measures by itself or with its peers: cluster mode's reason to exist.
bool has_node_work(const std::vector<const core::benchmark_def*>& selected) {
  for (const auto* d : selected)
    if (!d->kind.is(core::paths::collective)) return true;
  return false;
}

// An srun step whose tasks have no PMI would be N worlds of one, each believing it is rank 0:
// refused before anything is measured or written (exit 2), with the srun --mpi that works
// with this build's MPI library. Whatever the selection: collectives and pairs need one job,
// and node-local benchmarks need the ranks to know each other to measure each node once and
// leave the file to rank 0.
void refuse_broken_launch() {
  const auto why = transports::mpi::launch_problem(
      transports::mpi::detect_launch(), transports::mpi::make_runtime()->library_version());
  if (why) throw core::usage_error(*why + "; nothing was run, no result file written");
}

// Rank 0's (or a lone process's) last steps: --metrics, then the result added to the store
// unless --no-store. Returns the run's exit code, 1 where --metrics or a named --store
// failed after a good run.
int after_run(const run_options& o, const std::filesystem::path& out, int code) {
  code = write_run_metrics(o.metrics, out, code);
  if (o.no_store || transports::mpi::detect_launch().rank > 0) return code;
  return store_run_result(run_store_location(o.store, out), out, code, !o.store.empty());
}

int run_run(const run_options& o, const environment& env) {
  core::interrupt_guard guard;
  core::run_context ctx;
  ctx.quick = o.quick;
  ctx.point_timeout = o.point_timeout;
  if (!o.peer.empty()) ctx.peer = o.peer;
  if (!o.sizes.empty()) ctx.sizes = core::parse_size_range(o.sizes);
  ctx.options = o.family;
  ctx.self_exe = self_executable();
  ctx.interrupt = &guard.flag();
  // Every option, also of benchmarks the filter leaves out: a typo is an error, not ignored.
  env.registry.check_options(ctx);
  // Cluster mode's options too, launch or not (the topology file is read by the rank that
  // plans the pairs: world rank 0, or the process itself outside a launch).
  auto settings = cluster_settings(o.cluster, transports::mpi::detect_launch().rank == 0);

  const auto selected = env.registry.select(o.suite, o.filter);
  if (selected.empty())
    throw core::usage_error("no benchmark of suite '" + o.suite + "' matches --filter '" +
                            o.filter + "'");
  refuse_broken_launch();

  core::result_file file;
  file.tool = {"gpubench", core::tool_version, core::tool_git};
  file.system = core::describe_system(env.registry);
  file.run.id = make_run_id(file.system.value("host", "host"));
  file.run.started = core::rfc3339_now();
  file.run.argv = env.argv;
  file.run.suite = o.suite;
  const std::filesystem::path out =
      o.out.empty() ? default_result_path(o.suite, file.system.value("host", "host"))
                    : std::filesystem::path(o.out);
  if (!o.metrics.empty() && transports::mpi::detect_launch().rank == 0)
    check_result_path(o.metrics, "--metrics");

  // An interrupt stops every rank of a launch within seconds, rank 0 writing what it has.
  run_stop stop(guard, out, transports::mpi::detect_launch());
  // Under an MPI launch: over two or more nodes with anything but collectives selected, cluster
  // mode; otherwise every rank runs the selection, the node-local benchmarks once per node (by
  // its leader). The launch (MPI) stays open for the rest of the run either way.
  std::unique_ptr<cluster::launch> launch;
  if (transports::mpi::detect_launch().launched) {
    launch = cluster::open_launch(settings.timeout_s);
    if (launch) ctx.shared_node = launch->share();
    if (launch && launch->cluster() && has_node_work(selected)) {
      stop.join(ctx, startup_limit(settings.timeout_s));
      settings.out = out;
      settings.quiet = o.quiet;
      settings.partial = &stop.file();
      const int code =
          stop.end(launch->run(selected, ctx, env.registry, std::move(file), settings));
      return after_run(o, out, code);
    }
  }

  core::console_reporter console(stdout, stderr,
                                 o.quiet                   ? core::progress_style::none
                                 : ::isatty(STDERR_FILENO) ? core::progress_style::live
                                                           : core::progress_style::lines);
  core::json_file_reporter json(stop.file());
  // Under mpirun/srun every rank runs this command: rank 0 alone prints and writes the file.
  const bool follower = transports::mpi::detect_launch().rank > 0;
  if (!follower) check_result_path(out);  // exit 2 before anything runs, not 1 after
  if (!follower && ctx.shared_node && ctx.shared_node->ranks_on_node > 1)
    fmt::print(
        "# {} ranks on node {}: rank {} measures the node-local benchmarks once for the "
        "node, the others skip them; every rank takes part in collectives\n",
        ctx.shared_node->ranks_on_node, ctx.shared_node->node, ctx.shared_node->leader);
  stop.join(ctx, startup_limit(o.cluster.cluster_timeout));
  core::runner runner(ctx, follower ? std::vector<core::reporter*>{}
                                    : std::vector<core::reporter*>{&console, &json});
  runner.run(selected, file);

  if (!follower) fmt::print("# results: {}\n", out.string());
  int code = 0;
  for (const auto& c : file.results)
    if (c.status == core::case_status::failed) code = 1;
  return after_run(o, out, stop.end(code));
}

}  // namespace

command setup_run(CLI::App& app, const environment& env) {
  auto* sub = app.add_subcommand("run", "Run a suite of benchmarks and write a result file");
  auto o = std::make_shared<run_options>();
  sub->add_option("--suite", o->suite, "memory, gpu, network, collectives or interconnect (all)")
      ->required();
  sub->add_option("--filter", o->filter,
                  "Only benchmarks whose id matches this regular expression");
  sub->add_option("--out", o->out, "Result file (default: results/gpubench-SUITE-HOST-TIME.json)");
  sub->add_option(
      "--metrics", o->metrics,
      "Also write the run's headline figures to this file in the OpenMetrics text "
      "format, for node_exporter's textfile collector (a *.prom file; docs/metrics.md)");
  sub->add_option("--peer", o->peer, "HOST[:PORT] of a `gpubench serve` for network benchmarks");
  sub->add_option("--sizes", o->sizes,
                  "Message sizes MIN:MAX[:FACTOR]: MIN, MIN*FACTOR, ... up to MAX (FACTOR 2 unless "
                  "given), e.g. 4K:64M or 2:1M:8");
  auto* store = sub->add_option("--store", o->store,
                                "The results store the result is added to: an SQLite file, or "
                                "postgresql://... (default: gpubench.db beside the result file; "
                                "docs/history.md)");
  sub->add_flag("--no-store", o->no_store, "Do not add the result to the store")->excludes(store);
  sub->add_flag("--quick", o->quick, "Smaller size sweeps, for a fast look");
  sub->add_flag("--quiet", o->quiet, "No progress lines");
  sub->add_option("--point-timeout", o->point_timeout,
                  "Seconds a measured point may take at most, where its benchmark allows more "
                  "(0.4-5 s): fewer samples per point, a faster look")
      ->check(CLI::Range(0.001, 3600.0));
  add_cluster_options(*sub, o->cluster);
  for (const auto& spec : env.registry.options()) {
    o->family[spec.name] = spec.default_value;
    if (spec.flag)
      sub->add_flag_function(
          "--" + spec.name, [o, name = spec.name](std::int64_t) { o->family[name] = "true"; },
          spec.help);
    else
      sub->add_option("--" + spec.name, o->family[spec.name], spec.help);
  }
  return {sub, [o, &env] { return run_run(*o, env); }};
}

}  // namespace gpubench::cli
