// net.rdma.bandwidth: perftest's ib_send_bw / ib_write_bw / ib_read_bw: a window of
// tx-depth outstanding work requests, selective signalling, bytes over first post to last
// completion; message rate and both sides' CPU cost beside it.
#include "benchmarks/network/rdma_common.hpp"

namespace gpubench::benchmarks {

namespace {

namespace rdma = transports::rdma;

void rdma_bandwidth_body(core::case_state& state) {
  auto client = open_rdma_case(state, rdma::test_kind::bandwidth);
  for (const std::uint64_t size : state.sizes()) {
    const std::uint32_t iterations = rdma::bw_iterations(size, client->tx_depth());
    client->begin_point(size);
    core::sample_spec spec;
    spec.bytes = static_cast<double>(size) * iterations;
    spec.operations = iterations;
    auto& p = state.measure(size, spec, [&] { client->bandwidth_burst(iterations); });
    add_cpu_cost(p, client->end_point());
    p.extra["iterations_per_sample"] = iterations;
    // GB/s over bytes per message: millions of messages per second at the median.
    p.extra["message_rate_mpps"] = p.stats.median * 1e9 / static_cast<double>(size) / 1e6;
  }
}

}  // namespace

void register_net_rdma_bandwidth(core::registry& r) {
  add_rdma_options(r);
  core::benchmark_def def;
  def.id = "net.rdma.bandwidth";
  def.suites = {"network"};
  def.description = "RDMA verbs bandwidth (send/write/read), perftest method, with CPU cost";
  def.metric = core::bandwidth_metric();
  def.sizes = {2, 8u << 20, 1u << 20};
  def.criteria.min_samples = 5;
  def.criteria.min_time = 0.05;
  def.criteria.max_noise = 0.01;
  def.criteria.timeout = 2.0;
  // One burst (at least tx-depth work requests) before timing: perftest's warm-up.
  def.criteria.warmup_samples = 1;
  def.requirement = rdma_requirement;
  def.cases = rdma_cases;
  def.body = rdma_bandwidth_body;
  r.add(std::move(def));
}

}  // namespace gpubench::benchmarks
