// The "rdma" transport: RC queue pairs driven the way perftest drives them. The active side
// runs ping-pongs (send, write) or reads for latency, and a window of work requests for
// bandwidth; the passive side answers ping-pongs, keeps receives posted for send bandwidth,
// and otherwise only waits, since RDMA reads and writes need no CPU on the target.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/errors.hpp"
#include "transports/rdma/bandwidth_flow.hpp"
#include "transports/rdma/cm_connector.hpp"
#include "transports/rdma/pingpong_poster.hpp"
#include "transports/rdma/point_events.hpp"
#include "transports/rdma/point_receive.hpp"
#include "transports/rdma/rdma_settings.hpp"
#include "transports/rdma/rdma_transport.hpp"
#include "transports/rdma/session_util.hpp"
#include "transports/rdma/warmup.hpp"

namespace gpubench::transports::rdma {

namespace {

using std::chrono::milliseconds;

// Write and read bandwidth leave the target's CPU out entirely: it only waits for the end of
// the point, at most this long.
constexpr milliseconds passive_point_limit{600'000};

endpoint_config config_for(const rdma_settings& s, const side_settings& side,
                           const endpoint_setup& setup) {
  if (s.test == test_kind::latency && s.op == rdma_op::write && s.memory == memory_kind::cuda)
    throw core::skip_case(
        "write latency polls the last byte of the buffer with the CPU, which GPU memory does "
        "not allow: use --rdma-op send or read with --rdma-memory cuda");
  // perftest refuses -e for ib_write_lat too: the reply is a write, which raises no
  // completion at the side that waits for it.
  if (s.test == test_kind::latency && s.op == rdma_op::write &&
      s.completion == completion_mode::event)
    throw core::skip_case(
        "write latency waits by polling the last byte of its buffer, which raises no "
        "completion event: --rdma-completion event applies to send and read latency and to "
        "bandwidth");
  endpoint_config c;
  c.test = s.test;
  c.op = s.op;
  c.memory = s.memory;
  c.max_size = s.max_bytes;
  c.tx_depth = s.tx_depth;
  c.inline_size = s.inline_size;
  c.device = side.device;
  c.port = side.port;
  c.gid_index = side.gid_index;
  c.gpu = side.gpu;
  c.completion = s.completion;
  c.tclass = s.tclass;
  c.sl = s.sl;
  c.pkey_index = side.pkey_index;
  c.relaxed_ordering = s.relaxed_ordering;
  if (setup.oob) c.local_address = setup.oob->local_address();
  return c;
}

// Swaps endpoint_info blobs over the control channel, moves the QP to RTS and pre-posts the
// receives. Both sides send first, then receive, so neither waits on the other.
void connect_over(endpoint& ep, const endpoint_setup& setup) {
  if (!setup.oob) throw std::logic_error("RDMA endpoint built without a control channel");
  if (ep.connector()) {  // --rdma-cm on
    connect_via_cm(ep, setup);
    return;
  }
  setup.oob->send_blob(encode(ep.local_info()));
  ep.connect(decode_endpoint_info(setup.oob->receive_blob(setup.io_timeout)));
  std::vector<std::uint64_t> ids(ep.rx_depth());
  for (std::uint32_t i = 0; i < ep.rx_depth(); ++i)
    ids[i] = i;
  ep.post_recvs(ids);  // one chained list
}

// Both sides check a point against the case: the passive side gets it from the network.
void check_point(const point_spec& spec, const rdma_settings& s, const endpoint& ep) {
  const std::uint64_t largest = std::min(s.max_bytes, ep.largest_message());
  if (spec.bytes == 0 || spec.bytes > largest)
    throw std::runtime_error("RDMA point of " + std::to_string(spec.bytes) +
                             " bytes: the case's buffers hold 1.." + std::to_string(largest));
  if (spec.kind != (s.test == test_kind::latency ? pattern::latency : pattern::bandwidth))
    throw std::runtime_error("RDMA point of the wrong kind for a " +
                             std::string(s.test == test_kind::latency ? "latency" : "bandwidth") +
                             " case");
  if (spec.kind == pattern::bandwidth && spec.dir != direction::bidir &&
      to_string(spec.dir) != uni_direction(s.op))
    throw std::runtime_error("RDMA " + to_string(s.op) + " moves data " + uni_direction(s.op) +
                             ", not " + to_string(spec.dir));
}

class rdma_active final : public active_endpoint {
 public:
  explicit rdma_active(const endpoint_setup& setup)
      : m_s(settings_from(setup.params)),
        m_bidir_case(setup.params.value("direction", "") == to_string(direction::bidir)),
        m_ep(config_for(m_s, m_s.client, setup), connector_for(m_s, setup, cm_role::active)),
        m_timeout(std::max(setup.io_timeout, milliseconds(1000))),
        m_flow(m_ep, m_s.op, signal_interval(m_s.cq_mod, m_ep.tx_depth()), m_timeout),
        m_pingpong(m_ep, "latency", m_timeout),
        m_events(m_ep) {
    connect_over(m_ep, setup);
  }

  nlohmann::json describe() const override {
    nlohmann::json j = m_ep.describe();
    j["transport"] = "rdma";
    j["completion_mode"] = to_string(m_s.completion);  // poll | event: what CPU cost compares with
    if (m_s.test == test_kind::latency)
      j["latency_basis"] = m_s.op == rdma_op::read
                               ? "one RDMA read is a full round trip: reported whole"
                               : "ping-pong round trip / 2";
    else
      j["timing"] = "requester: first post to last completion, one signalled WR every " +
                    std::to_string(signal_interval(m_s.cq_mod, m_ep.tx_depth())) +
                    "; bidirectional points: from the mark that starts the peer's burst to the "
                    "mark that ends it";
    if (m_s.test == test_kind::bandwidth)
      j["address_cycling"] =
          "work requests of up to half a page: local and remote addresses move on by the size "
          "rounded up to a cache line, within a page (perftest)";
    return j;
  }

  // The line rate is a bandwidth: latency cases have no peak in their unit. A both-ways case
  // is set against both directions of the port, as TCP's is.
  std::optional<core::peak_info> peak() const override {
    if (m_s.test == test_kind::latency) return std::nullopt;
    const auto one_way = m_ep.rate();
    if (!one_way) return std::nullopt;
    const auto r = for_directions(*one_way, m_bidir_case);
    return core::peak_info{r.gbyte_per_s, "GB/s", r.basis};
  }

  void prepare(const point_spec& spec) override {
    check_point(spec, m_s, m_ep);
    m_events.begin();
    m_spec = spec;
    m_mark = 0;
    if (m_s.test == test_kind::latency && m_s.op == rdma_op::write) {
      std::memset(m_ep.target(), 0, spec.bytes);
      std::memset(m_ep.source(), 0, spec.bytes);
    }
    // perftest's warm-up: one window at this size (at most 16 MiB, warmup.hpp) before anything
    // is timed, once per size: the calibration probes before a point are points too. Writes
    // and reads need nothing from the passive side, so it can run before the point begins
    // there; sends rely on the runner's warm-up sample instead (the receiver re-posts only
    // while serving).
    if (spec.kind == pattern::bandwidth && m_s.op != rdma_op::send &&
        spec.dir != direction::bidir && spec.bytes != m_warm_bytes) {
      explained(
          [&] { m_flow.burst(spec.bytes, warmup_messages(spec.bytes, m_ep.tx_depth()), false); });
      m_warm_bytes = spec.bytes;
    }
    m_totals = {};
    m_cpu0 = cpu_usage::this_thread();
  }

  void run_sample() override {
    explained([&] {
      if (m_spec.kind == pattern::latency) {
        for (std::uint64_t i = 0; i < m_spec.iterations; ++i)
          latency_round();
      } else if (m_spec.dir == direction::bidir) {
        bidirectional_sample();
      } else {
        m_flow.burst(m_spec.bytes, m_spec.iterations, false);
        count(m_spec.iterations);
      }
    });
  }

  point_totals finish() override {
    m_totals.cpu = cpu_usage::this_thread() - m_cpu0;
    m_events.end();
    return m_totals;
  }

  std::optional<std::uint64_t> sent_messages() const override { return m_totals.messages; }
  nlohmann::json point_facts() const override {
    nlohmann::json j = m_events.facts(m_bidir_case);
    // A latency has no line rate to be set against; a change is still said.
    if (m_s.test == test_kind::latency) j.erase("line_rate_gbyte_per_s");
    return j;
  }

  double latency_divisor() const override { return m_s.op == rdma_op::read ? 1 : 2; }

  std::optional<size_limit> message_limit() const override {
    if (m_ep.largest_message() >= m_s.max_bytes) return std::nullopt;
    return size_limit{m_ep.largest_message(), m_ep.size_limit_reason()};
  }

 private:
  void latency_round() {
    const std::uint64_t size = m_spec.bytes;
    switch (m_s.op) {
      case rdma_op::send: {
        m_pingpong.post(rdma_op::send, size);
        const ibv_wc reply = wait_recv(m_ep, "send latency", m_timeout);
        m_ep.post_recv(reply.wr_id);  // keep the receive queue full
        break;
      }
      case rdma_op::write: {
        m_mark = next_mark(m_mark);
        m_ep.source()[size - 1] = static_cast<std::byte>(m_mark);
        m_pingpong.post(rdma_op::write, size);
        const volatile std::uint8_t* last =
            reinterpret_cast<const volatile std::uint8_t*>(m_ep.target() + size - 1);
        spin_deadline deadline(m_timeout);
        while (*last != m_mark)
          if (deadline.expired())
            throw std::runtime_error("write latency: the peer's reply did not arrive within " +
                                     std::to_string(m_timeout.count()) + " ms");
        break;
      }
      case rdma_op::read:
        m_ep.post(rdma_op::read, size, ++m_wr, true);
        wait_send(m_ep, "read latency", m_timeout);
        break;
    }
    const bool one_way = m_s.op == rdma_op::read;
    m_totals.messages += one_way ? 1 : 2;
    m_totals.bytes += one_way ? size : 2 * size;
  }

  // Runs `work`; a failure is led by the asynchronous event that explains it, which may come
  // a while after the completion failed (point_events.cpp).
  template <typename F>
  void explained(F&& work) {
    try {
      work();
    } catch (const std::exception&) {
      m_events.failed(std::current_exception(), milliseconds(1000));
    }
  }

  // perftest -b: the peer starts its burst on the go mark while this side runs its own; the
  // sample ends when both are complete (the peer's done mark follows its last completion).
  void bidirectional_sample() {
    m_flow.send_mark(sync_tag::go);
    m_flow.burst(m_spec.bytes, m_spec.iterations, true);
    m_flow.wait_mark(sync_tag::done, "bidirectional bandwidth");
    count(2 * m_spec.iterations);
  }

  void count(std::uint64_t messages) {
    m_totals.messages += messages;
    m_totals.bytes += messages * m_spec.bytes;
  }

  rdma_settings m_s;
  bool m_bidir_case;  // the case's "direction" param: its peak counts both directions
  endpoint m_ep;
  milliseconds m_timeout;
  bandwidth_flow m_flow;
  pingpong_poster m_pingpong;
  point_spec m_spec;
  point_totals m_totals;
  cpu_usage m_cpu0;
  std::uint64_t m_wr = 0;
  std::uint64_t m_warm_bytes = 0;  // the size the warm-up last ran at
  std::uint8_t m_mark = 0;
  point_events m_events;
};

// The passive side's queue pair as the responder's waits see it.
class flow_queue final : public receive_queue {
 public:
  flow_queue(endpoint& ep, bandwidth_flow& flow) : m_ep(ep), m_flow(flow) {}
  int service() override { return m_flow.service_receives(); }
  std::uint64_t received() const override { return m_flow.tally().messages; }
  bool idle(milliseconds slice, int fd) override { return m_ep.idle(slice, fd); }

 private:
  endpoint& m_ep;
  bandwidth_flow& m_flow;
};

class rdma_passive final : public passive_endpoint {
 public:
  explicit rdma_passive(const endpoint_setup& setup)
      : m_s(settings_from(setup.params)),
        m_ep(config_for(m_s, m_s.server, setup), connector_for(m_s, setup, cm_role::passive)),
        m_timeout(std::max(setup.io_timeout, milliseconds(1000))),
        m_flow(m_ep, m_s.op, signal_interval(m_s.cq_mod, m_ep.tx_depth()), m_timeout),
        m_pingpong(m_ep, "latency", m_timeout),
        m_events(m_ep) {
    connect_over(m_ep, setup);
  }

  nlohmann::json describe() const override { return m_ep.describe(); }

  void prepare(const point_spec& spec) override {
    check_point(spec, m_s, m_ep);
    m_events.begin();
    m_spec = spec;
    if (m_s.test == test_kind::latency && m_s.op == rdma_op::write) {
      std::memset(m_ep.target(), 0, spec.bytes);
      std::memset(m_ep.source(), 0, spec.bytes);
    }
  }

  point_totals serve(point_control& control) override {
    const cpu_usage cpu0 = cpu_usage::this_thread();
    point_totals t;
    try {
      if (m_s.test == test_kind::latency && m_s.op == rdma_op::send)
        answer_sends(control, t);
      else if (m_s.test == test_kind::latency && m_s.op == rdma_op::write)
        answer_writes(control, t);
      else if (m_spec.dir == direction::bidir)
        answer_bursts(control, t);
      else if (m_s.op == rdma_op::send)
        receive_stream(control, t);
      else
        wait_for_end(control);
    } catch (const std::exception&) {
      // Briefly: the client that left must find the server free at once, and it names the
      // point's failure itself.
      m_events.failed(std::current_exception(), milliseconds(100));
    }
    m_events.end();
    t.cpu = cpu_usage::this_thread() - cpu0;
    return t;
  }

 private:
  // True when the point is over. Polling: looks at the control channel only after a stretch
  // of idle polls. Event mode: sleeps on the completion channel and the control connection
  // together, and looks after every sleep. Throws when the client has been silent for the
  // I/O timeout.
  bool idle_check(responder_watch& w) { return w.after_idle(m_ep.idle(event_slice, w.fd())); }

  void answer_sends(point_control& control, point_totals& t) {
    ibv_wc wc{};
    responder_watch w(control, m_timeout);
    for (;;) {
      if (m_ep.poll_recv({&wc, 1}) == 1) {
        m_ep.post_recv(wc.wr_id);
        m_pingpong.post(rdma_op::send, m_spec.bytes);
        t.messages += 2;
        t.bytes += 2 * m_spec.bytes;
        w.progress();
      } else if (idle_check(w)) {
        return;
      }
    }
  }

  void answer_writes(point_control& control, point_totals& t) {
    const std::uint64_t size = m_spec.bytes;
    const volatile std::uint8_t* last =
        reinterpret_cast<const volatile std::uint8_t*>(m_ep.target() + size - 1);
    std::uint8_t mark = 0;
    responder_watch w(control, m_timeout);
    for (;;) {
      const std::uint8_t want = next_mark(mark);
      if (*last == want) {
        mark = want;
        m_ep.source()[size - 1] = static_cast<std::byte>(mark);
        m_pingpong.post(rdma_op::write, size);
        t.messages += 2;
        t.bytes += 2 * size;
        w.progress();
      } else if (idle_check(w)) {
        return;
      }
    }
  }

  // Send bandwidth: re-post a receive for every one consumed, so the sender's window never
  // meets an empty receive queue (RNR) for long; the point ends on exactly the messages the
  // client sent (point_receive.hpp).
  void receive_stream(point_control& control, point_totals& t) {
    flow_queue q(m_ep, m_flow);
    const std::uint64_t n = receive_point(q, control, m_spec.iterations, m_timeout, drain_cap);
    t.messages += n;
    t.bytes += n * m_spec.bytes;
  }

  // Bidirectional bandwidth: on each go mark, the same burst back to the client, then the
  // done mark. Receives are kept posted throughout (send bandwidth consumes them). The
  // client ends the point only after the done mark of its last sample, so anything on the
  // control connection during a burst means it left: the burst watches it too.
  void answer_bursts(point_control& control, point_totals& t) {
    responder_watch w(control, m_timeout);
    for (;;) {
      const int n = m_flow.service_receives();
      if (m_flow.tally().go > 0) {
        --m_flow.tally().go;
        m_flow.burst(m_spec.bytes, m_spec.iterations, true, &w);
        m_flow.send_mark(sync_tag::done);
        t.messages += 2 * m_spec.iterations;
        t.bytes += 2 * m_spec.iterations * m_spec.bytes;
        w.progress();
      } else if (n > 0) {
        w.progress();
      } else if (idle_check(w)) {
        return;
      }
    }
  }

  void wait_for_end(point_control& control) {
    const auto end = std::chrono::steady_clock::now() + passive_point_limit;
    while (!control.wait(milliseconds(200)))
      if (std::chrono::steady_clock::now() > end)
        throw std::runtime_error("the point did not end within " +
                                 std::to_string(passive_point_limit.count() / 1000) + " s");
  }

  rdma_settings m_s;
  endpoint m_ep;
  milliseconds m_timeout;
  bandwidth_flow m_flow;
  pingpong_poster m_pingpong;
  point_spec m_spec;
  point_events m_events;
};

}  // namespace

transport_entry rdma_transport() {
  transport_entry e;
  e.name = "rdma";
  e.make_active = [](const endpoint_setup& s) -> std::unique_ptr<active_endpoint> {
    return std::make_unique<rdma_active>(s);
  };
  e.make_passive = [](const endpoint_setup& s) -> std::unique_ptr<passive_endpoint> {
    return std::make_unique<rdma_passive>(s);
  };
  if (auto why = rdma_unavailable_reason()) e.unavailable = *why;
  return e;
}

}  // namespace gpubench::transports::rdma
