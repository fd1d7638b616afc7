// net.rdma.latency: perftest's ib_send_lat / ib_write_lat / ib_read_lat over an RC queue
// pair: one ping-pong (or one read) per sample, one-way = RTT/2 for send and write.
#include "benchmarks/network/rdma_common.hpp"

namespace gpubench::benchmarks {

namespace {

namespace rdma = transports::rdma;

void rdma_latency_body(core::case_state& state) {
  auto client = open_rdma_case(state, rdma::test_kind::latency);
  const bool read = state.params().at("op").get<std::string>() == "read";
  for (const std::uint64_t size : state.sizes()) {
    client->begin_point(size);
    core::sample_spec spec;
    spec.bytes = static_cast<double>(size);
    spec.operations = 1;
    // A read is a round trip in itself; a send or write ping-pong is two one-way trips.
    spec.latency_divisor = read ? 1 : 2;
    auto& p = state.measure(size, spec, [&] { client->latency_round(); });
    add_cpu_cost(p, client->end_point());
  }
}

}  // namespace

void register_net_rdma_latency(core::registry& r) {
  add_rdma_options(r);
  r.add_system_probe(rdma::add_rdma_system_info);
  core::benchmark_def def;
  def.id = "net.rdma.latency";
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
  def.cases = rdma_cases;
  def.body = rdma_latency_body;
  r.add(std::move(def));
}

}  // namespace gpubench::benchmarks
