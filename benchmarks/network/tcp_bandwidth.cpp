// net.tcp.bandwidth: TCP streaming from 4 KiB to 4 MiB messages, to and from the peer and
// both ways at once, on 1 stream and on N parallel streams, with the CPU cost of both sides.
#include "benchmarks/network/p2p_driver.hpp"
#include "benchmarks/network/stream_default.hpp"
#include "core/registry.hpp"
#include "transports/tcp/tcp_transport.hpp"

namespace gpubench::benchmarks::network {

void register_net_tcp_bandwidth(core::registry& r) {
  network::add_p2p_options(r);
  core::benchmark_def def;
  def.id = "net.tcp.bandwidth";
  def.kind = core::network_kind("tcp", {"peer"});
  def.suites = {"network"};
  def.description = "TCP streaming bandwidth, to/from the peer and bidirectional, 1 and N streams";
  def.metric = core::bandwidth_metric();
  def.sizes = {4u << 10, 4u << 20, 1u << 20};
  // A sample is a window of 50 ms in which every stream's delivered bytes are summed (as
  // iperf3 -P), after one window of warm-up; a point takes its 5 samples in about 0.25 s and
  // stops at 0.4 s when the rate keeps moving.
  def.criteria.min_samples = 5;
  def.criteria.min_time = 0.2;
  def.criteria.max_noise = 0.02;
  def.criteria.timeout = 0.4;
  def.criteria.warmup_samples = 0;
  def.cases = [](const core::run_context& ctx) {
    network::check_p2p_options(ctx);
    // The default count says how it was chosen in the case's params ("streams_rule").
    std::optional<network::default_streams> chosen;
    if (!ctx.option("streams")) chosen = network::default_stream_count(ctx);
    std::vector<nlohmann::json> cases;
    for (const unsigned n : network::stream_counts(ctx))
      for (const char* dir : {"to_peer", "from_peer", "bidir"}) {
        nlohmann::json p = {{"peer", network::peer_param(ctx)},
                            {"streams", n},
                            {"direction", dir},
                            {"nodelay", false}};  // Nagle on, as iperf3 without -N
        if (chosen && n == chosen->count && n > 1) p["streams_rule"] = chosen->rule;
        cases.push_back(std::move(p));
      }
    return cases;
  };
  def.body = [](core::case_state& state) {
    const auto& params = state.params();
    const std::string peer = params.at("peer").get<std::string>();
    network::run_guarded(state, peer, [&] {
      transports::transport_table table;
      table.add(transports::tcp::tcp_transport());
      network::p2p_link link(state, table, "tcp", params);
      network::run_bandwidth_points(
          state, link, transports::parse_direction(params.at("direction").get<std::string>()),
          params.at("streams").get<unsigned>(), [] {
            // The streams run for the whole point; a sample is a window of this many seconds
            // on the receiver's clock, in which every stream's bytes are counted.
            network::sample_target t;
            t.seconds = 0.05;
            return t;
          }());
    });
  };
  r.add(std::move(def));
}

}  // namespace gpubench::benchmarks::network
