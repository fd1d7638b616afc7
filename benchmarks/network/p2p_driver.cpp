#include "benchmarks/network/p2p_driver.hpp"

#include "benchmarks/network/stream_default.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <thread>

#include <fmt/format.h>

#include "benchmarks/network/cpu_cost.hpp"
#include "core/errors.hpp"
#include "core/timer.hpp"
#include "core/units.hpp"
#include "transports/control/auth.hpp"

namespace gpubench::benchmarks::network {

namespace {

using namespace std::chrono_literals;
namespace control = transports::control;

std::chrono::milliseconds io_timeout(const core::run_context& ctx) {
  const long long s = ctx.option_int("io-timeout").value_or(5);
  if (s < 1 || s > 3600) throw core::usage_error("--io-timeout: expected 1 to 3600 seconds");
  return std::chrono::milliseconds(s * 1000);
}

std::string token(const core::run_context& ctx) {
  if (!ctx.peer_token.empty()) return ctx.peer_token;
  const auto path = ctx.option("token-file");
  return path ? control::read_token_file(*path) : std::string();
}

void check_on_error(const core::run_context& ctx) {
  const auto on_error = ctx.option("on-error").value_or("continue");
  if (on_error != "continue" && on_error != "stop")
    throw core::usage_error("--on-error: expected continue or stop, got '" + on_error + "'");
}

}  // namespace

void add_p2p_options(core::registry& r) {
  r.add_option({"streams",
                "Parallel streams of the bandwidth cases besides 1, e.g. 4 or 2,8 (default: 1 per "
                "10 Gbit/s of the link, 2 to 16; 4 when its speed is unknown)",
                "", false, [](const core::run_context& ctx) { stream_counts(ctx); }});
  r.add_option({"on-error",
                "continue (default): a failed network case is recorded and the run goes on; "
                "stop: the run ends there",
                "continue", false, check_on_error});
  r.add_option({"busy-poll", "on: latency reads spin instead of sleeping (one core busy)", "off",
                false, [](const core::run_context& ctx) { busy_poll_requested(ctx); }});
  r.add_option({"token-file", "File holding the token shared with `gpubench serve --token-file`",
                "", false, [](const core::run_context& ctx) { token(ctx); }});
  r.add_option({"io-timeout", "Seconds a network wait may make no progress before the case fails",
                "5", false, [](const core::run_context& ctx) { io_timeout(ctx); }});
}

std::string peer_param(const core::run_context& ctx) {
  return ctx.peer ? transports::net::parse_endpoint(*ctx.peer, control::default_port).text()
                  : loopback_label;
}

void check_p2p_options(const core::run_context& ctx) {
  busy_poll_requested(ctx);
  io_timeout(ctx);
  token(ctx);
  stream_counts(ctx);
  check_on_error(ctx);
  peer_param(ctx);
}

bool busy_poll_requested(const core::run_context& ctx) {
  const auto v = ctx.option("busy-poll").value_or("off");
  if (v != "on" && v != "off") throw core::usage_error("--busy-poll: expected on or off");
  return v == "on";
}

std::vector<unsigned> stream_counts(const core::run_context& ctx) {
  std::vector<unsigned> out{1};
  const auto text = ctx.option("streams");
  if (!text) {
    out.push_back(default_stream_count(ctx).count);
  } else {
    std::size_t start = 0;
    while (start <= text->size()) {
      const auto end = std::min(text->find(',', start), text->size());
      const std::string item = text->substr(start, end - start);
      unsigned v = 0;
      auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
      if (ec != std::errc{} || p != item.data() + item.size() || v < 1 || v > 1024)
        throw core::usage_error("--streams: '" + item + "' is not a stream count from 1 to 1024");
      out.push_back(v);
      start = end + 1;
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

class p2p_link::loopback_server {
 public:
  loopback_server(const transports::transport_table& table, const std::string& token,
                  std::chrono::milliseconds timeout)
      : m_server(
            [&] {
              control::server_options o;
              o.bind = "127.0.0.1";
              o.port = 0;
              o.token = token;
              o.io_timeout = timeout;
              return o;
            }(),
            table),
        m_thread([this] { m_server.serve([this] { return m_stop.load(); }); }) {}
  ~loopback_server() {
    m_stop = true;
    m_thread.join();
  }
  loopback_server(const loopback_server&) = delete;
  loopback_server& operator=(const loopback_server&) = delete;
  std::uint16_t port() const { return m_server.port(); }

 private:
  control::control_server m_server;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

p2p_link::p2p_link(core::case_state& state, const transports::transport_table& transports,
                   const std::string& transport, const nlohmann::json& params) {
  const auto& ctx = state.context();
  const transports::transport_entry* entry = transports.find(transport);
  if (!entry) throw std::logic_error("transport not registered: " + transport);
  if (!entry->unavailable.empty()) throw core::skip_case(entry->unavailable);

  control::client_options options;
  options.token = token(ctx);
  options.io_timeout = io_timeout(ctx);
  options.interrupted = [&ctx] { return ctx.interrupted(); };
  transports::net::endpoint_address address;
  if (ctx.peer) {
    address = transports::net::parse_endpoint(*ctx.peer, control::default_port);
    m_peer_label = address.text();
  } else {
    m_loopback = std::make_unique<loopback_server>(transports, options.token, options.io_timeout);
    address = {"127.0.0.1", m_loopback->port()};
    m_peer_label = loopback_label;
  }
  m_session = std::make_unique<control::client_session>(address, options);
  m_session->open_case(*entry, params);

  auto& info = state.context_info();
  info["peer"] = m_peer_label;
  info["server_version"] = m_session->server_version();
  info.update(m_session->endpoint().describe());
  info["server"] = m_session->server_context();
  if (auto peak = m_session->endpoint().peak()) state.set_peak(*peak);
}

p2p_link::~p2p_link() = default;

void run_guarded(core::case_state& state, const std::string& peer,
                 const std::function<void()>& body) {
  try {
    body();
  } catch (const core::skip_case&) {
    throw;
  } catch (const core::interrupted&) {
    throw;
  } catch (const core::usage_error&) {
    throw;
  } catch (const core::input_error&) {
    throw;
  } catch (const control::authentication_error& e) {
    // Results from a peer that has not proven the token cannot be trusted: stop, whatever
    // --on-error says.
    throw core::stop_run(fmt::format("{} {} with peer {}: {} (the run ends here)",
                                     state.definition().id, state.params().dump(), peer, e.what()));
  } catch (const std::exception& e) {
    const std::string why =
        fmt::format("{} {} with peer {} failed (earlier points are kept): {}",
                    state.definition().id, state.params().dump(), peer, e.what());
    if (state.context().option("on-error").value_or("continue") == "stop")
      throw core::stop_run(why + " (--on-error stop: the run ends here)");
    throw std::runtime_error(why);
  }
}

namespace {

// A point's CPU costs, the messages each end counted (equal wherever the server takes part;
// a server that only waits counts 0), what the endpoint met during the point beside its
// samples (RDMA: asynchronous events, a line rate that changed) and, where the point has a
// line rate of its own, its median set against it: a port that renegotiated is judged by the
// rate it ran at.
void add_point_facts(core::point_result& point, const transports::control::point_cost& cost,
                     const transports::active_endpoint& endpoint) {
  add_cpu_costs(point, cost);
  point.extra["messages_client"] = cost.client.messages;
  point.extra["messages_server"] = cost.server.messages;
  const auto facts = endpoint.point_facts();
  point.extra.update(facts);
  if (const auto it = facts.find("line_rate_gbyte_per_s"); it != facts.end() && it->is_number())
    if (const double rate = it->get<double>(); rate > 0)
      point.extra["fraction_of_line_rate"] = point.stats.median / rate;
}

}  // namespace

void run_latency_points(core::case_state& state, p2p_link& link) {
  run_latency_points(state, link, state.sizes());
}

void run_latency_points(core::case_state& state, p2p_link& link,
                        const std::vector<std::uint64_t>& sizes) {
  auto& session = link.session();
  for (const std::uint64_t size : sizes) {
    transports::point_spec spec;
    spec.kind = transports::pattern::latency;
    spec.bytes = size;
    spec.iterations = 1;  // one round trip per sample: percentiles of single round trips
    core::sample_spec sample;
    sample.bytes = static_cast<double>(2 * size);
    sample.operations = 1;
    sample.latency_divisor = session.endpoint().latency_divisor();
    session.begin_point(spec);
    auto& point = state.measure(size, sample, [&] { session.endpoint().run_sample(); });
    add_point_facts(point, session.end_point(), session.endpoint());
  }
}

namespace {

// Runs calibration probes of `spec` (each its own point on both sides, its cost not counted)
// until `cal` has the rate; they are the point's warm-up.
void calibrate(core::case_state& state, control::client_session& session,
               transports::point_spec spec, sample_calibration& cal) {
  while (!cal.done()) {
    if (state.context().interrupted()) throw core::interrupted();
    spec.iterations = cal.probe();
    session.begin_point(spec);
    core::steady_timer t;
    t.start();
    session.endpoint().run_sample();
    t.stop();
    session.end_point();
    cal.add(t.seconds());
  }
}

// A point of an endpoint with counted samples (TCP, as iperf3 -P): its streams run for the
// whole point, each sample is a window of `target.seconds` in which the bytes every stream
// delivered are summed; one window before the first sample is the warm-up. The point's extra
// gets each stream's share of the bytes of all its samples, the least and the most.
core::point_result& run_counted_point(core::case_state& state, control::client_session& session,
                                      transports::point_spec spec, unsigned streams,
                                      const sample_target& target) {
  spec.seconds = target.seconds;
  spec.iterations = 1;
  core::sample_spec sample;
  const auto& rule = state.definition().criteria;
  sample.point_limit_s = bandwidth_point_limit_s(target.seconds, rule.min_samples, rule.timeout);
  auto& endpoint = session.endpoint();
  std::vector<double> stream_bytes(streams, 0);
  std::vector<double> windows;
  session.begin_point(spec);
  endpoint.run_sample();
  auto& point = state.measure_value(spec.bytes, sample, [&] {
    endpoint.run_sample();
    const auto c = endpoint.last_sample();
    if (c.stream_bytes.size() != streams)
      throw std::logic_error(
          fmt::format("a sample counted {} streams of {}", c.stream_bytes.size(), streams));
    for (std::size_t i = 0; i < streams; ++i)
      stream_bytes[i] += static_cast<double>(c.stream_bytes[i]);
    windows.push_back(c.seconds);
    return c.bytes_per_second / 1e9;
  });
  add_cpu_costs(point, session.end_point());
  double total = 0;
  for (const double b : stream_bytes)
    total += b;
  if (total > 0) {
    const double fair = total / static_cast<double>(streams);
    const auto [lo, hi] = std::minmax_element(stream_bytes.begin(), stream_bytes.end());
    point.extra["stream_share_min"] = *lo / fair;
    point.extra["stream_share_max"] = *hi / fair;
  }
  std::sort(windows.begin(), windows.end());
  const double window = windows.empty() ? target.seconds : windows[windows.size() / 2];
  point.extra["sample_seconds"] = window;
  point.extra["bytes_per_sample"] = point.stats.median * 1e9 * window;
  point.extra["messages_per_sample"] =
      point.stats.median * 1e9 * window / static_cast<double>(spec.bytes);
  return point;
}

}  // namespace

void run_bandwidth_points(core::case_state& state, p2p_link& link, transports::direction dir,
                          unsigned streams, const sample_target& target) {
  run_bandwidth_points(state, link, dir, streams, target, state.sizes());
}

void run_bandwidth_points(core::case_state& state, p2p_link& link, transports::direction dir,
                          unsigned streams, const sample_target& target,
                          const std::vector<std::uint64_t>& sizes) {
  auto& session = link.session();
  for (const std::uint64_t size : sizes) {
    transports::point_spec spec;
    spec.kind = transports::pattern::bandwidth;
    spec.dir = dir;
    spec.bytes = size;
    if (session.endpoint().counted_samples()) {
      auto& point = run_counted_point(state, session, spec, streams, target);
      point.extra["gbit_per_s"] = point.stats.median * 8;
      point.extra["message_rate_mpps"] = point.stats.median * 1e3 / static_cast<double>(size);
      continue;
    }
    sample_calibration cal(target, size);
    calibrate(state, session, spec, cal);
    spec.iterations = cal.messages();
    core::sample_spec sample;
    const double ways = dir == transports::direction::bidir ? 2 : 1;
    sample.bytes = ways * static_cast<double>(spec.iterations * size * streams);
    sample.operations = ways * static_cast<double>(spec.iterations * streams);
    // Long enough for the rule's minimum of samples of the size just chosen; a point still
    // cut short records extra "min_samples" (the runner does).
    const auto& rule = state.definition().criteria;
    sample.point_limit_s =
        bandwidth_point_limit_s(static_cast<double>(spec.iterations) / cal.messages_per_second(),
                                rule.min_samples, rule.timeout);
    session.begin_point(spec);
    auto& point = state.measure(size, sample, [&] { session.endpoint().run_sample(); });
    add_point_facts(point, session.end_point(), session.endpoint());
    point.extra["gbit_per_s"] = point.stats.median * 8;
    // GB/s over the message size: millions of messages per second, all streams and ways.
    point.extra["message_rate_mpps"] = point.stats.median * 1e3 / static_cast<double>(size);
    point.extra["messages_per_sample"] = sample.operations;
    point.extra["bytes_per_sample"] = sample.bytes;
    point.extra["sample_seconds"] = sample.bytes / (point.stats.median * 1e9);
    point.extra["calibration_probes"] = cal.probes();
  }
}

}  // namespace gpubench::benchmarks::network
