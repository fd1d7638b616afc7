// net.rdma.latency: perftest's ib_send_lat / ib_write_lat / ib_read_lat over an RC queue
// pair: one ping-pong (or one read) per sample, one-way = RTT/2 for send and write.
#include "benchmarks/network/rdma_common.hpp"
#include "transports/rdma/rdma_transport.hpp"

namespace gpubench::benchmarks::network {

void register_net_rdma_latency(core::registry& r) {
  add_rdma_options(r);
  // The family's part of the system block (rdma_devices, software.rdma_core), added once.
  r.add_system_probe(transports::rdma::add_rdma_system_info);
  core::benchmark_def def;
  def.id = "net.rdma.latency";
  def.kind = core::network_kind("rdma", {"peer", "device"});
  def.suites = {"network"};
  def.description = "RDMA verbs latency (send/write/read), one-way, perftest method";
  def.metric = core::latency_metric();
  def.sizes = {2, 8u << 20, 4u << 10};
  // One sample is one round trip (perftest's per-iteration times); 1000 give p99.9.
  def.criteria.min_samples = 1000;
  def.criteria.min_time = 0.01;
  def.criteria.max_noise = 0.005;
  def.criteria.timeout = 2.0;
  def.criteria.warmup_samples = 100;
  def.requirement = rdma_requirement;
  def.cases = [](const core::run_context& ctx) {
    return rdma_cases(ctx, transports::rdma::test_kind::latency);
  };
  def.body = [](core::case_state& state) {
    run_rdma_points(state, transports::rdma::test_kind::latency);
  };
  r.add(std::move(def));
}

}  // namespace gpubench::benchmarks::network
