// net.tcp.latency: TCP ping-pong with TCP_NODELAY, one-way latency (round trip / 2) from 1 B
// to 1 MiB, every round trip a sample, with the CPU cost of both sides.
#include "benchmarks/network/p2p_driver.hpp"
#include "core/registry.hpp"
#include "transports/tcp/tcp_transport.hpp"

namespace gpubench::benchmarks::network {

void register_net_tcp_latency(core::registry& r) {
  network::add_p2p_options(r);
  core::benchmark_def def;
  def.id = "net.tcp.latency";
  def.kind = core::network_kind("tcp", {"peer"});
  def.suites = {"network"};
  def.description = "TCP ping-pong latency, one-way, with CPU cost of both sides";
  def.metric = core::latency_metric();
  def.sizes = {1, 1u << 20, 64u << 10};
  // One round trip per sample: 1000 samples give p99.9; a point lasts 20 ms to 0.5 s.
  def.criteria.min_samples = 1000;
  def.criteria.min_time = 0.02;
  def.criteria.max_noise = 0.01;
  def.criteria.timeout = 0.5;
  def.criteria.warmup_samples = 100;
  def.cases = [](const core::run_context& ctx) {
    network::check_p2p_options(ctx);  // a bad value stops the run before anything runs
    return std::vector<nlohmann::json>{
        {{"peer", network::peer_param(ctx)}, {"streams", 1}, {"nodelay", true}}};
  };
  def.body = [](core::case_state& state) {
    const std::string peer = state.params().at("peer").get<std::string>();
    network::run_guarded(state, peer, [&] {
      transports::transport_table table;
      table.add(transports::tcp::tcp_transport());
      nlohmann::json params = state.params();
      if (network::busy_poll_requested(state.context())) params["busy_poll"] = true;
      network::p2p_link link(state, table, "tcp", params);
      network::run_latency_points(state, link);
    });
  };
  r.add(std::move(def));
}

}  // namespace gpubench::benchmarks::network
