// net.rdma.bandwidth: perftest's ib_send_bw / ib_write_bw / ib_read_bw, one way and both ways
// (-b): a window of tx-depth outstanding work requests, selective signalling, bytes over
// first post to last completion; message rate and both sides' CPU cost beside it.
#include "benchmarks/network/rdma_common.hpp"

namespace gpubench::benchmarks::network {

void register_net_rdma_bandwidth(core::registry& r) {
  add_rdma_options(r);
  core::benchmark_def def;
  def.id = "net.rdma.bandwidth";
  def.kind = core::network_kind("rdma", {"peer", "device"});
  def.suites = {"network"};
  def.description = "RDMA verbs bandwidth (send/write/read), perftest method, with CPU cost";
  def.metric = core::bandwidth_metric();
  def.sizes = {2, 8u << 20, 1u << 20};
  def.criteria.min_samples = 5;
  def.criteria.min_time = 0.05;
  def.criteria.max_noise = 0.01;
  def.criteria.timeout = 2.0;
  // The calibration probes before each point (at least one burst) are perftest's warm-up.
  def.criteria.warmup_samples = 0;
  def.requirement = rdma_requirement;
  def.cases = [](const core::run_context& ctx) {
    return rdma_cases(ctx, transports::rdma::test_kind::bandwidth);
  };
  def.body = [](core::case_state& state) {
    run_rdma_points(state, transports::rdma::test_kind::bandwidth);
  };
  r.add(std::move(def));
}

}  // namespace gpubench::benchmarks::network
