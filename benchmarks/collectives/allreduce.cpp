// coll.allreduce: allreduce bus bandwidth over NCCL (GPU buffers) and MPI (host buffers),
// from 1 to N nodes in one MPI launch; self-launched on local ranks when not under MPI.
// This file depends on neither library: it talks to them through transports/collective.
#include <unistd.h>

#include <cstdio>

#include <map>
#include <memory>

#include <fmt/format.h>

#include "core/case_state.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"
#include "transports/collective/allreduce_driver.hpp"
#include "transports/collective/allreduce_math.hpp"
#include "transports/collective/launch_env.hpp"
#include "transports/collective/nccl_debug.hpp"
#include "transports/collective/net_interfaces.hpp"
#include "transports/collective/node_counts.hpp"
#include "transports/collective/runtimes.hpp"
#include "transports/collective/self_launch.hpp"
#include "transports/collective/transport_config.hpp"

namespace gpubench::benchmarks::collectives {

namespace {

// What the cases of one run share: the runtimes (MPI stays initialised across cases and is
// finalised when the registry goes away) and the scaling rows measured so far.
struct coll_session {
  coll::launch_env launch = coll::detect_launch();
  std::unique_ptr<coll::mpi_runtime> mpi = coll::make_mpi_runtime();
  std::unique_ptr<coll::nccl_runtime> nccl = coll::make_nccl_runtime();
  std::map<std::string, std::vector<coll::scaling_row>> rows;
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

double coll_timeout(const core::run_context& ctx) {
  const long long t = ctx.option_int("coll-timeout").value_or(120);
  if (t < 1) throw core::usage_error("--coll-timeout must be at least 1 second");
  return static_cast<double>(t);
}

coll::transport_choice transport_for(const std::string& backend, int nodes) {
  const auto env = coll::process_env();
  const bool rdma = coll::rdma_devices_present();
  return backend == "nccl" ? coll::nccl_transport(env, nodes, rdma)
                           : coll::mpi_transport(env, nodes, rdma);
}

std::vector<nlohmann::json> allreduce_cases(coll_session& s, const core::run_context& ctx) {
  // Every task of an srun without PMI would self-launch mpirun on its node: stop instead.
  if (s.launch.problem) throw core::usage_error(*s.launch.problem);
  const auto backends = selected_backends(ctx);
  const auto places = selected_places(ctx, s.launch.launched);
  const std::string type =
      coll::to_string(coll::parse_dtype(ctx.option("dtype").value_or("float32")));
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
    const coll::launch_layout layout = s.mpi->layout();
    const auto nodes = ctx.option("nodes")
                           ? coll::parse_node_counts(*ctx.option("nodes"), layout.nodes())
                           : coll::default_node_counts(layout.nodes());
    for (const auto& backend : backends)
      for (const int n : nodes)
        add(backend, n, layout.ranks_on_first(n));
    return out;
  }
  if (ctx.option("nodes") &&
      coll::parse_node_counts(*ctx.option("nodes"), 1) != std::vector<int>{1})
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
  const coll::transport_choice t = transport_for(backend, nodes);
  auto& ctx = state.context_info();
  ctx["transport"] = {{"label", t.label}, {"basis", t.basis}, {"settings", t.settings}};
  if (nodes < 2) return;
  // The link between nodes, as this host (rank 0's) sees it.
  const auto picked = coll::select_interfaces(coll::list_interfaces(), t.interfaces);
  nlohmann::json ifs = nlohmann::json::array();
  for (const auto& i : picked)
    ifs.push_back(coll::to_json(i));
  ctx["interfaces"] = ifs;
  if (t.label == "tcp" && picked.size() == 1 && picked[0].speed_mbps > 0) {
    const double gbs = static_cast<double>(picked[0].speed_mbps) / 8000.0;
    state.set_peak({gbs, "GB/s", coll::speed_peak_basis(picked[0])});
  }
}

// What NCCL itself chose (its NET debug lines), beside the label derived from the
// environment; a disagreement is flagged in the case's context and on stderr.
void record_nccl_choice(coll_session& s, core::case_state& state, int nodes) {
  auto& t = state.context_info()["transport"];
  const auto chose = coll::parse_nccl_net(s.nccl->debug_log());
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
  if (auto differ = coll::nccl_label_disagreement(label, *chose)) {
    t["disagreement"] = *differ;
    std::fprintf(stderr, "gpubench: coll.allreduce (nccl, %d nodes): %s\n", nodes, differ->c_str());
  }
}

void run_self_launched(coll_session& s, core::case_state& state,
                       const coll::allreduce_request& req) {
  const auto& ctx = state.context();
  if (auto why = s.mpi->unavailable()) throw core::skip_case(*why);
  const auto launcher = coll::find_launcher();
  if (!launcher)
    throw core::skip_case(
        "needs an MPI launcher to start local ranks: neither mpirun nor mpiexec "
        "in PATH");
  coll::self_launch_request r;
  r.self_exe = ctx.self_exe;
  r.ranks = self_launch_ranks(ctx);
  r.dtype = coll::to_string(req.type);
  r.in_place = req.in_place;
  r.check = req.check;
  r.sizes = ctx.sizes ? fmt::format("{}:{}", ctx.sizes->min, ctx.sizes->max)
                      : coll::default_self_launch_sizes(ctx.quick);
  r.timeout_s = coll_timeout(ctx);
  r.open_mpi = s.mpi->library_version().find("Open MPI") != std::string::npos;
  r.as_root = ::geteuid() == 0;
  r.interrupt = ctx.interrupt;
  core::case_result child = coll::run_self_launch(r, launcher->string());
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

void allreduce_body(coll_session& s, core::case_state& state) {
  const auto& params = state.params();
  const auto& ctx = state.context();
  coll::case_request req;
  req.backend = params.at("backend").get<std::string>();
  req.nodes = params.at("nodes").get<int>();
  req.allreduce.type = coll::parse_dtype(params.at("dtype").get<std::string>());
  req.allreduce.in_place = params.at("in_place").get<bool>();
  req.allreduce.check = ctx.option("check").value_or("") == "true";
  req.stall_timeout_s = coll_timeout(ctx);
  req.allreduce.sample_limit_s = req.stall_timeout_s / 4;
  describe_transport(state, req.backend, req.nodes);
  // Every rank sees the same parameters: all skip together, before any collective call.
  // (0 ranks: no local GPU, said below by the NCCL runtime.)
  if (const int ranks = params.at("ranks").get<int>(); ranks >= 1)
    if (auto why = coll::single_rank_reason(ranks)) throw core::skip_case(*why);

  if (!s.launch.launched) {
    if (req.backend == "mpi") return run_self_launched(s, state, req.allreduce);
    if (auto why = s.nccl->unavailable()) throw core::skip_case(*why);
    coll::solo_group solo;
    auto backend = s.nccl->local_backend(req.allreduce.type, req.stall_timeout_s);
    state.context_info()["backend"] = backend->describe();
    coll::measure_allreduce(state, *backend, solo, req.allreduce, {});
    record_nccl_choice(s, state, req.nodes);
    return;
  }
  coll::scaling_row row = s.mpi->run_case(state, req, *s.nccl);
  if (req.backend == "nccl") record_nccl_choice(s, state, req.nodes);
  auto& rows = s.rows[fmt::format("{}/{}/{}", req.backend, params.at("dtype").get<std::string>(),
                                  req.allreduce.in_place)];
  rows.push_back(row);
  state.context_info()["scaling"] = coll::scaling_table(rows);
}

}  // namespace

void register_coll_allreduce(core::registry& r) {
  auto session = std::make_shared<coll_session>();
  r.add_option({"backend", "coll.allreduce: nccl, mpi or all", "all", false,
                [](const core::run_context& ctx) { selected_backends(ctx); }});
  r.add_option({"nodes",
                "coll.allreduce under MPI: node counts to measure, e.g. 1,2,4 (default "
                "1,2,4,... up to all nodes of the launch)",
                "", false, [](const core::run_context& ctx) {
                  // The form only: how many nodes a launch has is known when cases are made.
                  if (auto v = ctx.option("nodes")) coll::parse_node_counts(*v, 1 << 20);
                }});
  r.add_option({"ranks", "coll.allreduce not launched by MPI: local MPI ranks to start", "2", false,
                [](const core::run_context& ctx) { self_launch_ranks(ctx); }});
  r.add_option({"dtype", "coll.allreduce data type: float32, float64, int32, int64", "float32",
                false, [](const core::run_context& ctx) {
                  coll::parse_dtype(ctx.option("dtype").value_or("float32"));
                }});
  r.add_option({"place",
                "coll.allreduce buffers: out (out-of-place), in (in-place) or both "
                "(default: both under MPI, out on one machine)",
                "", false, [](const core::run_context& ctx) { selected_places(ctx, false); }});
  r.add_option({"check", "coll.allreduce: verify every reduced result (outside timing)", "", true});
  r.add_option({"coll-timeout",
                "coll.allreduce: seconds a launch (or one sample) may take before "
                "it is declared dead",
                "120", false, [](const core::run_context& ctx) { coll_timeout(ctx); }});
  r.add_system_probe([session](nlohmann::json& system) {
    nlohmann::json& sw = system["software"];
    if (!sw.is_object()) sw = nlohmann::json::object();
    const std::string mpi = session->mpi->library_version();
    sw["mpi"] = mpi.empty() ? nlohmann::json(nullptr) : nlohmann::json(mpi);
    sw["nccl"] = session->nccl->describe();
  });

  core::benchmark_def def;
  def.id = "coll.allreduce";
  def.suites = {"collectives"};
  def.description = "allreduce bus bandwidth from 1 to N nodes (NCCL, MPI), over TCP and RDMA";
  def.metric = core::bandwidth_metric();
  def.sizes = {8, 1ull << 30, 64ull << 20};
  def.criteria.min_samples = 5;
  def.criteria.min_time = 0.02;
  def.criteria.max_noise = 0.02;
  def.criteria.timeout = 1.0;
  def.criteria.warmup_samples = 2;
  def.requirement = [session](const core::run_context&) {
    const auto mpi = session->mpi->unavailable();
    const auto nccl = session->nccl->unavailable();
    if (mpi && nccl) return core::requirement_status::missing(*mpi + "; " + *nccl);
    return core::requirement_status::ok();
  };
  def.cases = [session](const core::run_context& ctx) { return allreduce_cases(*session, ctx); };
  def.body = [session](core::case_state& state) { allreduce_body(*session, state); };
  r.add(std::move(def));
}

}  // namespace gpubench::benchmarks::collectives
