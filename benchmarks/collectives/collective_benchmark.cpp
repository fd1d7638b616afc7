// The shared part of the coll.* benchmarks. It depends on neither MPI nor NCCL: it talks to
// them through transports/mpi/mpi_runtime.hpp and transports/nccl/nccl_runtime.hpp.
#include "benchmarks/collectives/collective_benchmark.hpp"

#include <unistd.h>

#include <cstdio>

#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchmarks/collectives/collective_driver.hpp"
#include "benchmarks/collectives/collective_math.hpp"
#include "benchmarks/collectives/nccl_debug.hpp"
#include "benchmarks/collectives/node_counts.hpp"
#include "benchmarks/collectives/scaling.hpp"
#include "benchmarks/collectives/self_launch.hpp"
#include "benchmarks/collectives/transport_config.hpp"
#include "core/case_state.hpp"
#include "core/errors.hpp"
#include "transports/mpi/launch_env.hpp"
#include "transports/mpi/mpi_runtime.hpp"
#include "transports/nccl/nccl_runtime.hpp"
#include "transports/net/net_interfaces.hpp"

namespace gpubench::benchmarks::collectives {

struct collective_session {
  transports::mpi::launch_env launch = transports::mpi::detect_launch();
  std::unique_ptr<transports::mpi::runtime> mpi = transports::mpi::make_runtime();
  std::unique_ptr<transports::nccl::runtime> nccl = transports::nccl::make_runtime();
  std::map<std::string, std::vector<scaling_row>> rows;
};

namespace {

namespace mpi = transports::mpi;
namespace net = transports::net;

// One case of one collective: what its parameters and the run's options say.
struct case_request {
  std::string backend;  // "mpi" | "nccl"
  int nodes = 1;
  measure_request measure;
  double stall_timeout_s = 120;
};

std::vector<std::string> selected_backends(const core::run_context& ctx) {
  const std::string b = ctx.option("backend").value_or("all");
  if (b == "all") return {"nccl", "mpi"};
  if (b == "nccl" || b == "mpi") return {b};
  throw core::usage_error("--backend '" + b + "': expected nccl, mpi or all");
}

// Under an MPI launch both placements by default (nccl-tests measures both); on one machine
// only out-of-place, so the single-machine suite stays quick.
std::vector<bool> selected_places(const core::run_context& ctx, bool launched) {
  const std::string p = ctx.option("place").value_or(launched ? "both" : "out");
  if (p == "both") return {false, true};
  if (p == "out") return {false};
  if (p == "in") return {true};
  throw core::usage_error("--place '" + p + "': expected out, in or both");
}

int self_launch_ranks(const core::run_context& ctx) {
  const long long r = ctx.option_int("ranks").value_or(2);
  if (r < 1 || r > 1024)
    throw core::usage_error("--ranks " + std::to_string(r) + ": expected 1 to 1024");
  return static_cast<int>(r);
}

// The data check runs unless --no-check (as nccl-tests' -c 1); --check, once needed to turn
// it on, is still accepted and changes nothing; both together are a contradiction.
bool data_check_on(const core::run_context& ctx) {
  const bool on = ctx.option("check").value_or("") == "true";
  const bool off = ctx.option("no-check").value_or("") == "true";
  if (on && off) throw core::usage_error("--check and --no-check together: choose one");
  return !off;
}

// --coll-timeout, else 120 s (cluster mode sets it to --cluster-timeout when not given).
double coll_timeout(const core::run_context& ctx) {
  const long long t = ctx.option_int("coll-timeout").value_or(120);
  if (t < 1) throw core::usage_error("--coll-timeout must be at least 1 second");
  return static_cast<double>(t);
}

transport_choice transport_for(const std::string& backend, int nodes) {
  const auto env = mpi::process_env();
  const bool rdma = net::rdma_devices_present();
  return backend == "nccl" ? nccl_transport(env, nodes, rdma) : mpi_transport(env, nodes, rdma);
}

std::vector<nlohmann::json> collective_cases(collective_session& s, const collective_op& op,
                                             const core::run_context& ctx) {
  // Every task of an srun without PMI would self-launch mpirun on its node: stop instead (the
  // CLI refuses such a launch before the run; this guards any other caller).
  if (auto why = mpi::launch_problem(s.launch, s.mpi->library_version()))
    throw core::usage_error(*why);
  const auto backends = selected_backends(ctx);
  auto places = selected_places(ctx, s.launch.launched);
  if (!op.supports_in_place()) std::erase(places, true);
  const std::string type = to_string(parse_dtype(ctx.option("dtype").value_or("float32")));
  coll_timeout(ctx);
  std::vector<nlohmann::json> out;
  auto add = [&](const std::string& backend, int nodes, int ranks) {
    const std::string transport = transport_for(backend, nodes).label;
    for (const bool in_place : places)
      out.push_back({{"backend", backend},
                     {"nodes", nodes},
                     {"ranks", ranks},
                     {"transport", transport},
                     {"dtype", type},
                     {"in_place", in_place}});
  };
  if (s.launch.launched) {
    const mpi::launch_layout layout = s.mpi->layout();
    const auto nodes = ctx.option("nodes") ? parse_node_counts(*ctx.option("nodes"), layout.nodes())
                                           : default_node_counts(layout.nodes());
    for (const auto& backend : backends)
      for (const int n : nodes)
        add(backend, n, layout.ranks_on_first(n));
    return out;
  }
  if (ctx.option("nodes") && parse_node_counts(*ctx.option("nodes"), 1) != std::vector<int>{1})
    throw core::usage_error("--nodes: more than one node needs an MPI launch (mpirun/srun)");
  for (const auto& backend : backends) {
    if (backend == "mpi") {
      add(backend, 1, self_launch_ranks(ctx));
    } else {
      std::string why;
      add(backend, 1, s.nccl->local_gpus(why));
    }
  }
  return out;
}

void describe_transport(core::case_state& state, const std::string& backend, int nodes) {
  const transport_choice t = transport_for(backend, nodes);
  auto& ctx = state.context_info();
  ctx["transport"] = {{"label", t.label}, {"basis", t.basis}, {"settings", t.settings}};
  if (nodes < 2) return;
  // The link between nodes, as this host (rank 0's) sees it.
  const auto picked = net::select_interfaces(net::list_interfaces(), t.interfaces);
  nlohmann::json ifs = nlohmann::json::array();
  for (const auto& i : picked)
    ifs.push_back(net::to_json(i));
  ctx["interfaces"] = ifs;
  if (t.label == "tcp" && picked.size() == 1 && picked[0].speed_mbps > 0) {
    const double gbs = static_cast<double>(picked[0].speed_mbps) / 8000.0;
    state.set_peak({gbs, "GB/s", net::speed_peak_basis(picked[0])});
  }
}

// What NCCL itself chose (its NET debug lines), beside the label derived from the
// environment; a disagreement is flagged in the case's context and on stderr.
void record_nccl_choice(collective_session& s, core::case_state& state, const std::string& id,
                        int nodes) {
  auto& t = state.context_info()["transport"];
  const auto chose = parse_nccl_net(s.nccl->debug_log());
  if (!chose) {
    t["nccl_chose"] = nullptr;
    t["nccl_chose_basis"] =
        nodes < 2 ? "one node: no network between nodes"
                  : "NCCL's NET debug lines were not captured (NCCL_DEBUG or NCCL_DEBUG_FILE set "
                    "by the user) or name no network";
    return;
  }
  t["nccl_chose"] = {{"network", chose->network},
                     {"label", chose->label},
                     {"devices", chose->devices},
                     {"evidence", chose->evidence}};
  if (nodes < 2) return;
  const std::string label = t.value("label", "");
  if (auto differ = nccl_label_disagreement(label, *chose)) {
    t["disagreement"] = *differ;
    std::fprintf(stderr, "gpubench: %s (nccl, %d nodes): %s\n", id.c_str(), nodes, differ->c_str());
  }
}

void run_self_launched(collective_session& s, core::case_state& state, const std::string& id,
                       const measure_request& req) {
  const auto& ctx = state.context();
  if (auto why = s.mpi->unavailable()) throw core::skip_case(*why);
  const auto launcher = find_launcher();
  if (!launcher)
    throw core::skip_case(
        "needs an MPI launcher to start local ranks: neither mpirun nor mpiexec "
        "in PATH");
  self_launch_request r;
  r.benchmark = id;
  r.self_exe = ctx.self_exe;
  r.ranks = self_launch_ranks(ctx);
  r.dtype = to_string(req.type);
  r.in_place = req.in_place;
  r.check = req.check;
  r.sizes = ctx.sizes ? ctx.sizes->text() : default_self_launch_sizes(ctx.quick);
  r.timeout_s = coll_timeout(ctx);
  r.open_mpi = s.mpi->library_version().find("Open MPI") != std::string::npos;
  r.as_root = ::geteuid() == 0;
  r.interrupt = ctx.interrupt;
  core::case_result child = run_self_launch(r, launcher->string());
  for (auto& p : child.points)
    state.add_measured_point(std::move(p));
  auto& info = state.context_info();
  for (auto& [k, v] : child.context.items())
    info[k] = v;
  info["self_launch"] = {{"launcher", launcher->string()},
                         {"ranks", r.ranks},
                         {"sizes", r.sizes},
                         {"basis", "not launched by MPI: gpubench started itself on local ranks"}};
  if (child.peak) state.set_peak(*child.peak);
}

// One member of the case's sub-communicator under an MPI launch: makes the backend on it
// (skipping collectively when NCCL is missing anywhere) and measures.
scaling_row measure_member(collective_session& s, core::case_state& state, const collective_op& op,
                           const case_request& req, mpi::member& m) {
  std::unique_ptr<transports::collective_backend> backend;
  if (req.backend == "mpi") {
    backend = m.host_backend(req.measure.type);
  } else {
    // Skipping must be collective: every member learns whether any member cannot run.
    std::string why;
    if (auto u = s.nccl->unavailable()) why = *u;
    const bool missing = m.group().any(!why.empty());
    if (missing)
      throw core::skip_case(why.empty() ? "NCCL is unavailable on another rank of this launch"
                                        : why);
    m.progress("initialising NCCL");
    backend =
        s.nccl->rank_backend(m.group(), m.node_index(), req.measure.type, req.stall_timeout_s);
  }
  const mpi::launch_layout l = s.mpi->layout();
  auto& ctx = state.context_info();
  ctx["launch"] = {
      {"launcher", mpi::detect_launch().launcher},
      {"world_size", l.world_size},
      {"nodes_in_launch", l.nodes()},
      {"ranks_per_node",
       std::vector<int>(l.ranks_per_node.begin(), l.ranks_per_node.begin() + req.nodes)},
      {"hosts", std::vector<std::string>(l.hosts.begin(), l.hosts.begin() + req.nodes)}};
  ctx["backend"] = backend->describe(op.call());
  return measure_collective(state, op, *backend, m.group(), req.measure,
                            [&m](const std::string& what) { m.progress(what); });
}

void measure_case(collective_session& s, const collective_op& op, const std::string& id,
                  core::case_state& state, const case_request& req) {
  const auto& params = state.params();
  // Every rank sees the same parameters: all skip together, before any collective call.
  // (0 ranks: no local GPU, said below by the NCCL runtime.)
  if (const int ranks = params.at("ranks").get<int>(); ranks >= 1)
    if (auto why = op.no_bandwidth(ranks)) throw core::skip_case(*why);

  if (!s.launch.launched) {
    if (req.backend == "mpi") return run_self_launched(s, state, id, req.measure);
    if (auto why = s.nccl->unavailable()) throw core::skip_case(*why);
    transports::solo_group solo;
    auto backend = s.nccl->local_backend(req.measure.type, req.stall_timeout_s);
    state.context_info()["backend"] = backend->describe(op.call());
    measure_collective(state, op, *backend, solo, req.measure, {});
    record_nccl_choice(s, state, id, req.nodes);
    return;
  }
  scaling_row row;
  const auto& ctx = state.context();
  const mpi::case_hooks hooks{ctx.stop, ctx.interrupt, ctx.save_partial};
  s.mpi->run_case(req.nodes, req.stall_timeout_s, id, hooks,
                  [&](mpi::member& m) { row = measure_member(s, state, op, req, m); });
  row.nodes = req.nodes;
  if (req.backend == "nccl") record_nccl_choice(s, state, id, req.nodes);
  auto& rows = s.rows[fmt::format("{}/{}/{}/{}", id, req.backend,
                                  params.at("dtype").get<std::string>(), req.measure.in_place)];
  rows.push_back(row);
  state.context_info()["scaling"] = scaling_table(rows);
}

// A failed NCCL case says what NCCL itself said (its WARN lines: "unhandled system error"
// alone names neither the interface nor the peer), and keeps its debug log for the operator.
void collective_body(collective_session& s, const collective_op& op, const std::string& id,
                     core::case_state& state) {
  const auto& params = state.params();
  const auto& ctx = state.context();
  case_request req;
  req.backend = params.at("backend").get<std::string>();
  req.nodes = params.at("nodes").get<int>();
  req.measure.type = parse_dtype(params.at("dtype").get<std::string>());
  req.measure.in_place = params.at("in_place").get<bool>();
  req.measure.check = data_check_on(ctx);
  req.stall_timeout_s = coll_timeout(ctx);
  req.measure.sample_limit_s = req.stall_timeout_s / 4;
  describe_transport(state, req.backend, req.nodes);
  if (req.backend != "nccl") return measure_case(s, op, id, state, req);
  try {
    measure_case(s, op, id, state, req);
  } catch (const core::skip_case&) {
    throw;
  } catch (const core::stop_run&) {
    throw;
  } catch (const core::interrupted&) {
    throw;
  } catch (const core::usage_error&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(
        explain_nccl_failure(e.what(), s.nccl->debug_log(), s.nccl->keep_debug_log()));
  }
}

}  // namespace

std::shared_ptr<collective_session> add_collective_family(core::registry& r) {
  auto session = std::make_shared<collective_session>();
  r.add_option({"backend", "coll.*: nccl, mpi or all", "all", false,
                [](const core::run_context& ctx) { selected_backends(ctx); }});
  r.add_option({"nodes",
                "coll.* under MPI: node counts to measure, e.g. 1,2,4 (default "
                "1,2,4,... up to all nodes of the launch)",
                "", false, [](const core::run_context& ctx) {
                  // The form only: how many nodes a launch has is known when cases are made.
                  if (auto v = ctx.option("nodes")) parse_node_counts(*v, 1 << 20);
                }});
  r.add_option({"ranks", "coll.* not launched by MPI: local MPI ranks to start", "2", false,
                [](const core::run_context& ctx) { self_launch_ranks(ctx); }});
  r.add_option(
      {"dtype", "coll.* data type: float32, float64, int32, int64", "float32", false,
       [](const core::run_context& ctx) { parse_dtype(ctx.option("dtype").value_or("float32")); }});
  r.add_option({"place",
                "coll.* buffers: out (out-of-place), in (in-place) or both "
                "(default: both under MPI, out on one machine)",
                "", false, [](const core::run_context& ctx) { selected_places(ctx, false); }});
  r.add_option({"check",
                "coll.*: verify every result (outside timing); the default, kept so older command "
                "lines work",
                "", true, [](const core::run_context& ctx) { data_check_on(ctx); }});
  r.add_option({"no-check",
                "coll.*: skip the data check (by default one untimed operation per size is "
                "checked on every rank, as nccl-tests' -c 1)",
                "", true, [](const core::run_context& ctx) { data_check_on(ctx); }});
  r.add_option({"coll-timeout",
                "coll.*: seconds a launch (or one sample) may take before "
                "it is declared dead (default 120; in cluster mode --cluster-timeout)",
                "", false, [](const core::run_context& ctx) { coll_timeout(ctx); }});
  r.add_system_probe([session](nlohmann::json& system) {
    nlohmann::json& sw = system["software"];
    if (!sw.is_object()) sw = nlohmann::json::object();
    const std::string library = session->mpi->library_version();
    sw["mpi"] = library.empty() ? nlohmann::json(nullptr) : nlohmann::json(library);
    sw["nccl"] = session->nccl->describe();
  });
  return session;
}

core::benchmark_def collective_def(std::shared_ptr<collective_session> session,
                                   std::shared_ptr<const collective_op> op) {
  core::benchmark_def def;
  def.id = "coll." + op->name();
  def.suites = {"collectives"};
  def.description = op->description();
  def.metric = core::bandwidth_metric();
  def.sizes = {8, 1ull << 30, 64ull << 20};
  def.criteria.min_samples = 5;
  def.criteria.min_time = 0.02;
  def.criteria.max_noise = 0.02;
  def.criteria.timeout = 1.0;
  def.criteria.warmup_samples = 2;
  // A case's whole sweep (docs/collectives.md, "How long it takes"): a 1 GiB point over a
  // 1 Gbit/s link takes minutes by itself; the quick sweep also ends once bandwidth-bound.
  def.criteria.case_budget = 600;
  def.criteria.quick_case_budget = 6;
  // Every collective is the same kind of measurement: a group of ranks, named by node count.
  def.kind = core::collective_kind(op->name(), {"nodes"});
  def.requirement = [session](const core::run_context&) {
    const auto mpi = session->mpi->unavailable();
    const auto nccl = session->nccl->unavailable();
    if (mpi && nccl) return core::requirement_status::missing(*mpi + "; " + *nccl);
    return core::requirement_status::ok();
  };
  def.cases = [session, op](const core::run_context& ctx) {
    return collective_cases(*session, *op, ctx);
  };
  def.body = [session, op, id = def.id](core::case_state& state) {
    collective_body(*session, *op, id, state);
  };
  return def;
}

}  // namespace gpubench::benchmarks::collectives
