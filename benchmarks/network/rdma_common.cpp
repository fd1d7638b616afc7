#include "benchmarks/network/rdma_common.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

#include "core/errors.hpp"
#include "transports/control/client.hpp"
#include "transports/control/server.hpp"
#include "transports/rdma/device_info.hpp"
#include "transports/rdma/params.hpp"
#include "transports/rdma/rdma_settings.hpp"
#include "transports/rdma/rdma_transport.hpp"

namespace gpubench::benchmarks {

namespace rdma = transports::rdma;
namespace control = transports::control;

namespace {

constexpr const char* loopback_label = "loopback (client and server on the same RDMA device)";

// The loopback's server: a control server on 127.0.0.1 hosting the RDMA transport, served on
// a thread for the case's lifetime and joined on destruction.
class loopback_server {
 public:
  loopback_server()
      : m_server(make_options(), m_table),
        m_thread([this] { m_server.serve([this] { return m_stop.load(); }); }) {}
  ~loopback_server() {
    m_stop = true;
    m_thread.join();
  }
  loopback_server(const loopback_server&) = delete;
  loopback_server& operator=(const loopback_server&) = delete;
  std::uint16_t port() const { return m_server.port(); }

 private:
  static control::server_options make_options() {
    control::server_options o;
    o.bind = "127.0.0.1";
    o.port = 0;
    o.once = true;
    return o;
  }
  transports::transport_table m_table = [] {
    transports::transport_table t;
    t.add(rdma::rdma_transport());
    return t;
  }();
  control::control_server m_server;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

rdma::rdma_settings settings_for(const core::case_state& state, rdma::test_kind test) {
  const auto& ctx = state.context();
  const auto o = rdma::parse_rdma_options(ctx);
  rdma::rdma_settings s;
  s.test = test;
  s.op = rdma::parse_ops(state.params().at("op").get<std::string>()).front();
  s.memory = rdma::parse_memory(state.params().at("memory").get<std::string>());
  const auto sizes = state.sizes();
  s.max_bytes = *std::max_element(sizes.begin(), sizes.end());
  if (s.max_bytes > rdma::max_transfer_bytes)
    throw core::usage_error("--sizes: RDMA messages are at most 1 GiB");
  s.tx_depth = o.tx_depth;
  s.cq_mod = o.cq_mod;
  s.inline_size = o.inline_size;
  s.client = {o.device, o.port, o.gid_index};
  // In loopback both sides use the same device, port and GID.
  s.server =
      ctx.peer ? rdma::side_settings{o.peer_device, o.peer_port, o.peer_gid_index} : s.client;
  return s;
}

void add_cpu_cost(core::point_result& p, const control::point_cost& cost) {
  const auto bytes = static_cast<double>(cost.client.bytes);
  if (!(bytes > 0)) return;
  const double gb = bytes / 1e9;
  p.extra["cpu_seconds_per_gb"] = (cost.client.cpu.total() + cost.server.cpu.total()) / gb;
  p.extra["cpu_seconds_per_gb_client"] = cost.client.cpu.total() / gb;
  p.extra["cpu_seconds_per_gb_server"] = cost.server.cpu.total() / gb;
}

}  // namespace

void add_rdma_options(core::registry& r) {
  r.add_option({"rdma-op", "RDMA operations: send, write, read (comma-separated) or all", "all"});
  r.add_option({"rdma-memory", "RDMA buffers: host, or cuda (GPUDirect RDMA)", "host"});
  r.add_option({"rdma-device", "RDMA device (default: the first with an active port)", ""});
  r.add_option({"rdma-port", "RDMA port number", "1"});
  r.add_option({"gid-index", "RoCE GID index (default: chosen, IPv4 RoCE v2 first)", ""});
  r.add_option({"peer-rdma-device", "RDMA device the --peer server uses (default: its first)", ""});
  r.add_option({"peer-rdma-port", "RDMA port the --peer server uses", "1"});
  r.add_option({"peer-gid-index", "RoCE GID index the --peer server uses", ""});
  r.add_option({"tx-depth", "RDMA bandwidth: outstanding work requests", "128"});
  r.add_option({"cq-mod", "RDMA bandwidth: one signalled completion every N work requests", "100"});
  r.add_option({"rdma-inline",
                "RDMA inline size in bytes (default: 220 write, 236 send latency; 0 bandwidth)",
                ""});
}

core::requirement_status rdma_requirement(const core::run_context&) {
  if (auto why = rdma::rdma_unavailable_reason()) return core::requirement_status::missing(*why);
  return core::requirement_status::ok();
}

std::vector<nlohmann::json> rdma_cases(const core::run_context& ctx) {
  const auto o = rdma::parse_rdma_options(ctx);
  std::string device;
  if (o.device) {
    device = *o.device;
  } else {
    // The device the endpoint will choose: the first whose port is active.
    const auto all = rdma::describe_devices();
    for (const auto& d : all)
      for (const auto& p : d.ports)
        if (device.empty() && p.number == o.port && p.state == "ACTIVE") device = d.name;
    if (device.empty() && !all.empty()) device = all.front().name;
  }
  std::vector<nlohmann::json> ops;
  for (auto op : o.ops)
    ops.emplace_back(rdma::to_string(op));
  return core::cartesian({{"device", {device}},
                          {"op", ops},
                          {"memory", {rdma::to_string(o.memory)}},
                          {"peer", {ctx.peer ? *ctx.peer : std::string(loopback_label)}}});
}

void run_rdma_points(core::case_state& state, rdma::test_kind test) {
  const auto& ctx = state.context();
  const auto settings = settings_for(state, test);
  std::unique_ptr<loopback_server> loopback;
  transports::net::endpoint_address to;
  if (ctx.peer) {
    to = transports::net::parse_endpoint(*ctx.peer, control::default_port);
  } else {
    loopback = std::make_unique<loopback_server>();
    to = transports::net::parse_endpoint("127.0.0.1", loopback->port());
  }
  control::client_options co;
  co.interrupted = [&ctx] { return ctx.interrupted(); };
  control::client_session session(to, co);
  session.open_case(rdma::rdma_transport(), rdma::to_params(settings));
  auto& ep = session.endpoint();

  auto& info = state.context_info();
  info.update(ep.describe());
  info["peer"] = ctx.peer ? *ctx.peer : std::string(loopback_label);
  info["server"] = session.server_context();
  if (test == rdma::test_kind::bandwidth)
    if (auto peak = ep.peak()) state.set_peak(*peak);

  for (const std::uint64_t size : state.sizes()) {
    transports::point_spec spec;
    spec.kind = test == rdma::test_kind::latency ? transports::pattern::latency
                                                 : transports::pattern::bandwidth;
    spec.dir = transports::direction::to_peer;
    spec.bytes = size;
    // Latency: one round trip per sample, so every sample is one of perftest's iterations.
    spec.iterations =
        test == rdma::test_kind::latency ? 1 : rdma::bw_iterations(size, settings.tx_depth);
    session.begin_point(spec);
    core::sample_spec sample;
    sample.bytes = static_cast<double>(size * spec.iterations);
    sample.operations = static_cast<double>(spec.iterations);
    sample.latency_divisor = ep.latency_divisor();
    auto& p = state.measure(size, sample, [&] { ep.run_sample(); });
    add_cpu_cost(p, session.end_point());
    if (test == rdma::test_kind::bandwidth) {
      p.extra["iterations_per_sample"] = spec.iterations;
      // GB/s over bytes per message: millions of messages per second at the median.
      p.extra["message_rate_mpps"] = p.stats.median * 1e9 / static_cast<double>(size) / 1e6;
    }
  }
  session.close_case();
}

}  // namespace gpubench::benchmarks
