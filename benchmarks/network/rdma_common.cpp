#include "benchmarks/network/rdma_common.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "transports/rdma/device_info.hpp"

namespace gpubench::benchmarks {

namespace rdma = transports::rdma;

void add_rdma_options(core::registry& r) {
  r.add_option({"rdma-op", "RDMA operations: send, write, read (comma-separated) or all", "all"});
  r.add_option({"rdma-memory", "RDMA buffers: host, or cuda (GPUDirect RDMA)", "host"});
  r.add_option({"rdma-device", "RDMA device (default: the first with an active port)", ""});
  r.add_option({"rdma-port", "RDMA port number", "1"});
  r.add_option({"gid-index", "GID index for RoCE (default: chosen, IPv4 RoCE v2 first)", ""});
  r.add_option({"tx-depth", "RDMA bandwidth: outstanding work requests", "128"});
  r.add_option({"cq-mod", "RDMA bandwidth: one signalled completion every N work requests", "100"});
  r.add_option({"rdma-inline",
                "RDMA inline size in bytes (default: 220 write, 236 send "
                "latency; 0 bandwidth)",
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
    // The device open_port will choose: the first whose port is active.
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
                          {"peer", {ctx.peer ? *ctx.peer : std::string("loopback")}}});
}

std::unique_ptr<rdma::rdma_client> open_rdma_case(core::case_state& state, rdma::test_kind test) {
  const auto& ctx = state.context();
  rdma::client_request req;
  req.test = test;
  req.options = rdma::parse_rdma_options(ctx);
  req.op = rdma::parse_ops(state.params().at("op").get<std::string>()).front();
  req.options.memory = rdma::parse_memory(state.params().at("memory").get<std::string>());
  const auto sizes = state.sizes();
  req.max_size = *std::max_element(sizes.begin(), sizes.end());
  if (req.max_size > rdma::max_transfer_bytes)
    throw core::usage_error("--sizes: RDMA messages are at most 1 GiB");
  std::unique_ptr<rdma::rdma_client> client;
  if (ctx.peer)
    throw core::skip_case(
        "net.rdma with --peer needs the peer's control channel, which this "
        "build does not have yet; run without --peer for loopback");
  client = rdma::open_loopback_client(req);
  state.context_info().update(client->context());
  if (test == rdma::test_kind::bandwidth)
    if (auto peak = client->peak()) state.set_peak(*peak);
  return client;
}

void add_cpu_cost(core::point_result& p, const rdma::point_cost& cost) {
  if (!(cost.bytes > 0)) return;
  const double gb = cost.bytes / 1e9;
  p.extra["cpu_seconds_per_gb"] = (cost.client_cpu_seconds + cost.server_cpu_seconds) / gb;
  p.extra["cpu_seconds_per_gb_client"] = cost.client_cpu_seconds / gb;
  p.extra["cpu_seconds_per_gb_server"] = cost.server_cpu_seconds / gb;
}

}  // namespace gpubench::benchmarks
