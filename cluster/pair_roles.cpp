#include "cluster/pair_roles.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <stdexcept>
#include <thread>

#include "cluster/cluster_work.hpp"
#include "cluster/mpi_messages.hpp"
#include "core/cluster.hpp"
#include "core/runner.hpp"
#include "core/stop_watch.hpp"
#include "transports/control/server.hpp"
#include "transports/mpi/watchdog.hpp"
#include "transports/net/net_interfaces.hpp"

namespace gpubench::cluster {

namespace {

deadline deadline_after(std::chrono::milliseconds wait) {
  return std::chrono::steady_clock::now() + wait;
}

bool keeps(const nlohmann::json& params, const char* key, const char* value) {
  return !params.contains(key) || params.at(key) == value;
}

bool param_is(const nlohmann::json& params, const char* key, const char* value) {
  return params.contains(key) && params.at(key) == value;
}

}  // namespace

std::string node_address() {
  // Bridges of containers and VMs (docker0 172.17.0.1, virbr0 192.168.122.1) are up on every
  // node with the same address: a partner told that address would reach its own bridge.
  const std::vector<std::string> not_the_fabric = {"^docker", "^virbr",   "^br-",  "^veth",
                                                   "^cni",    "^flannel", "^cali", "^lxc"};
  auto usable =
      transports::net::select_interfaces(transports::net::list_interfaces(), not_the_fabric);
  std::sort(usable.begin(), usable.end(),
            [](const auto& x, const auto& y) { return x.name < y.name; });
  for (const auto& i : usable)
    if (!i.ipv4.empty()) return i.ipv4.front();
  return "127.0.0.1";
}

pair_server::pair_server(transports::transport_table table, std::chrono::milliseconds wait,
                         const std::string& token)
    : m_table(std::move(table)), m_wait(wait) {
  if (token.empty()) throw std::logic_error("a pair server needs the launch secret");
  transports::control::server_options o;
  o.bind = "0.0.0.0";
  o.port = 0;
  o.token = token;
  // A client that stops answering between points is dropped after `wait`.
  o.idle_timeout = wait;
  o.io_timeout = std::min(o.io_timeout, wait);
  m_server = std::make_unique<transports::control::control_server>(o, m_table);
  m_thread = std::thread([this] { m_server->serve([this] { return m_stop.load(); }); });
}

pair_server::~pair_server() {
  m_stop = true;
  m_thread.join();
}

std::optional<std::string> pair_server::serve(int client_rank,
                                              const std::function<void()>& waiting) {
  const std::string address = node_address() + ":" + std::to_string(m_server->port());
  if (!send_json(client_rank, tag_peer, {{"peer", address}}, deadline_after(m_wait)))
    return "rank " + std::to_string(client_rank) + " did not take the server's address";
  const auto pass = [&waiting] {
    if (waiting) waiting();
    return false;
  };
  if (!receive_json(client_rank, tag_peer, deadline_after(m_wait), pass))
    return "rank " + std::to_string(client_rank) + " did not finish within " +
           std::to_string(m_wait.count() / 1000) + " s";
  return std::nullopt;
}

bool pair_keeps(const nlohmann::json& params, const std::string& direction) {
  if (!keeps(params, "memory", "host")) return false;
  if (!params.contains("direction"))  // latency: one round trip has no way
    return direction.empty() && keeps(params, "op", "write");
  const bool to_peer = param_is(params, "direction", "to_peer");
  const bool from_peer = param_is(params, "direction", "from_peer");
  if (!to_peer && !from_peer) return false;  // bidir: both ways summed into one figure
  if (!direction.empty() && params.at("direction") != direction) return false;
  // RDMA: write moves b -> a (to_peer), read pulls a -> b (from_peer); send is a third op of
  // the same way as write.
  return !params.contains("op") || (to_peer && param_is(params, "op", "write")) ||
         (from_peer && param_is(params, "op", "read"));
}

core::benchmark_def pair_variant(const core::benchmark_def& def, const std::string& direction) {
  core::benchmark_def v = def;
  v.cases = [inner = def.cases, direction](const core::run_context& ctx) {
    std::vector<nlohmann::json> kept;
    for (auto& p : inner(ctx))
      if (pair_keeps(p, direction)) kept.push_back(std::move(p));
    return kept;
  };
  return v;
}

nlohmann::json measure_pair(int server_rank, const std::vector<const core::benchmark_def*>& defs,
                            const core::run_context& ctx, const std::vector<std::uint64_t>& sizes,
                            bool keep_samples, std::chrono::milliseconds wait,
                            const std::string& token, const std::string& direction) {
  const auto peer = receive_json(server_rank, tag_peer, deadline_after(wait));
  if (!peer)
    throw std::runtime_error("no address from rank " + std::to_string(server_rank) + " within " +
                             std::to_string(wait.count() / 1000) + " s");
  std::optional<std::runtime_error> overran;
  nlohmann::json cases;
  try {
    cases = measure_against(peer->doc.at("peer").get<std::string>(), defs, ctx, sizes, keep_samples,
                            wait, token, direction);
  } catch (const std::runtime_error& e) {
    overran = e;
  }
  // The server waits for this word whether or not the measurement ran over.
  send_json(server_rank, tag_peer, {{"done", true}}, deadline_after(wait));
  if (overran) throw *overran;
  return cases;
}

nlohmann::json measure_against(const std::string& peer,
                               const std::vector<const core::benchmark_def*>& defs,
                               const core::run_context& ctx,
                               const std::vector<std::uint64_t>& sizes, bool keep_samples,
                               std::chrono::milliseconds wait, const std::string& token,
                               const std::string& direction) {
  if (token.empty()) throw std::logic_error("a pair client needs the launch secret");
  // The measurement is bounded too: at `wait` the runner stops as on an interrupt (a stopped
  // server would otherwise cost every case its own network timeout).
  std::atomic<bool> expired{false};
  transports::mpi::watchdog timer(wait, [&expired](const std::string&) { expired = true; });
  // An interrupt of the run stops it the same way; what was measured before it is kept.
  std::optional<core::stop_watch> relay;
  if (ctx.interrupt)
    relay.emplace(
        *ctx.interrupt, wait, [&expired] { expired = true; }, nullptr);
  core::run_context pair_ctx = ctx;
  pair_ctx.interrupt = &expired;
  pair_ctx.peer = peer;
  pair_ctx.peer_token = token;
  pair_ctx.options["streams"] = "1";
  nlohmann::json cases = nlohmann::json::array();
  for (const auto* def : defs) {
    const bool latency = def->metric.name == "latency";
    const core::benchmark_def variant = pair_variant(*def, direction);
    for (const auto size : sizes) {
      if (latency != (size < pair_bandwidth_from)) continue;
      pair_ctx.sizes = core::size_range{size, size};
      core::result_file scratch;
      core::runner(pair_ctx, {}).run({&variant}, scratch);
      if (ctx.interrupted()) return cases;  // the interrupted case is no pair failure
      for (const auto& c : scratch.results) {
        nlohmann::json params = c.params;
        params.erase("peer");
        nlohmann::json points = nlohmann::json::array();
        for (const auto& p : c.points) {
          nlohmann::json point = {{"bytes", p.bytes},
                                  {"median", p.stats.median},
                                  {"p99", p.stats.p99},
                                  {"count", p.samples.size()}};
          if (keep_samples) point["samples"] = p.samples;
          points.push_back(std::move(point));
        }
        cases.push_back({{"benchmark", c.benchmark},
                         {"params", params},
                         {"status", core::to_string(c.status)},
                         {"reason", c.reason},
                         {"metric", c.metric},
                         {"unit", c.unit},
                         {"better", c.better},
                         {"points", points}});
      }
    }
  }
  if (expired)
    throw std::runtime_error("measuring against " + peer + " took over " +
                             std::to_string(wait.count() / 1000) + " s");
  return cases;
}

void merge_pair(core::cluster_section& cluster, std::size_t a, std::size_t b,
                const nlohmann::json& cases, const core::slot_lookup* slots) {
  const auto slot = slots ? slots->find(a, b) : core::slot_lookup(cluster).find(a, b);
  if (!slot)
    throw std::out_of_range("merge_pair: the pair " + std::to_string(a) + "-" + std::to_string(b) +
                            " is not one of the sweep's pairs");
  const std::size_t at = *slot, entries = core::slot_count(cluster);
  for (const auto& c : cases) {
    const std::string benchmark = c.at("benchmark").get<std::string>();
    const std::string status = c.at("status").get<std::string>();
    if (status == "failed") {
      cluster.failures.push_back({a, b, benchmark, c.at("reason").get<std::string>()});
      continue;
    }
    if (status != "ok") continue;  // skipped (no RDMA device on an end): nothing measured
    for (const auto& p : c.at("points")) {
      const auto bytes = p.at("bytes").get<std::uint64_t>();
      core::pair_measurement* m = nullptr;
      for (auto& existing : cluster.pairs)
        if (existing.benchmark == benchmark && existing.params == c.at("params") &&
            existing.bytes == bytes)
          m = &existing;
      if (!m) {
        auto& fresh = cluster.pairs.emplace_back();
        fresh.benchmark = benchmark;
        fresh.params = c.at("params");
        fresh.bytes = bytes;
        fresh.metric = c.at("metric").get<std::string>();
        fresh.unit = c.at("unit").get<std::string>();
        fresh.better = c.at("better").get<std::string>();
        fresh.median.assign(entries, std::nullopt);
        fresh.p99.assign(entries, std::nullopt);
        fresh.count.assign(entries, 0);
        m = &fresh;
      }
      m->median[at] = p.at("median").get<double>();
      m->p99[at] = p.at("p99").get<double>();
      m->count[at] = p.at("count").get<std::uint32_t>();
      if (p.contains("samples")) {
        if (m->samples.empty()) m->samples.assign(entries, {});
        m->samples[at] = p.at("samples").get<std::vector<double>>();
      }
    }
  }
}

}  // namespace gpubench::cluster
