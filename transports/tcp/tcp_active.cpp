// The client side of a TCP case: drives ping-pong samples, and streams that run for the whole
// of a bandwidth point, sampled in windows of fixed duration (the receiver's byte counts).
#include <algorithm>
#include <atomic>
#include <memory>

#include <fmt/format.h>

#include "core/timer.hpp"
#include "transports/net/interface_info.hpp"
#include "transports/tcp/data_path.hpp"
#include "transports/tcp/stream_team.hpp"
#include "transports/tcp/tally.hpp"
#include "transports/tcp/tcp_transport.hpp"

namespace gpubench::transports::tcp {

namespace {

// Receives land in a buffer at least this large, so the reader is never the bottleneck of a
// stream of small messages (the sender's message size is what the point measures).
constexpr std::size_t min_recv_buffer = 256u << 10;

class tcp_active final : public active_endpoint {
 public:
  explicit tcp_active(const endpoint_setup& setup)
      : m_settings(settings_from(setup.params)),
        m_params(setup.params),
        m_timeout(setup.io_timeout),
        m_peer(setup.oob->peer_name()),
        m_links(connect_streams(setup, m_settings.streams)) {
    for (auto& fd : m_fds)
      if (m_settings.busy_poll) m_kernel_busy_poll = net::set_busy_poll(fd.get(), 50);
    m_local = net::local_host(m_fds.front().get());
    m_interface = net::interface_for_address(m_local);
    if (m_fds.size() > 1) m_team = std::make_unique<stream_team>(m_fds.size());
  }

  ~tcp_active() override {
    // Streams still running (a sample failed): they end at the flag, then the team joins.
    m_stop = true;
    m_team.reset();
  }
  tcp_active(const tcp_active&) = delete;
  tcp_active& operator=(const tcp_active&) = delete;

  nlohmann::json describe() const override {
    nlohmann::json j = {
        {"transport", "tcp"}, {"local_address", m_local}, {"streams", m_fds.size()}};
    // Described before any point: the case's setting, or the rule that decides per point.
    if (m_settings.nodelay)
      j["nodelay"] = *m_settings.nodelay;
    else
      j["nodelay"] = "latency points only";
    // How this side waits for data, the counterpart of RDMA's poll | event: CPU cost is only
    // comparable between like modes. Bandwidth always blocks in poll(); latency spins with
    // --busy-poll on.
    j["completion_mode"] = m_settings.busy_poll ? "busy-poll" : "blocking";
    if (m_settings.busy_poll)
      j["busy_poll"] = m_kernel_busy_poll ? "spinning reads, SO_BUSY_POLL 50 us"
                                          : "spinning reads (the kernel refused SO_BUSY_POLL)";
    if (m_interface) j.update(net::to_json(*m_interface));
    return j;
  }

  std::optional<core::peak_info> peak() const override {
    if (!m_interface || m_interface->loopback) return std::nullopt;
    return net::line_rate(*m_interface, m_params.value("direction", "") == "bidir");
  }

  void prepare(const point_spec& spec) override {
    m_spec = spec;
    const bool latency = spec.kind == pattern::latency;
    if (latency && m_fds.size() != 1)
      throw std::runtime_error("a latency case uses one stream, this case has " +
                               std::to_string(m_fds.size()));
    if (!latency && !(spec.seconds > 0))
      throw std::runtime_error("a TCP bandwidth point needs samples of fixed duration");
    const bool spin = latency && m_settings.busy_poll;
    const bool nodelay = nodelay_for(m_settings, spec.kind);
    for (auto& fd : m_fds) {
      net::set_nonblocking(fd.get(), !latency || spin);
      set_io_timeout(fd.get(), m_timeout);
      set_nodelay(fd.get(), nodelay);
    }
    const std::size_t size = std::max<std::size_t>(spec.bytes, 1);
    m_send.assign(size, std::byte{0x5a});
    m_recv.resize(m_fds.size());
    for (auto& r : m_recv)
      r.resize(latency ? size : std::max(size, min_recv_buffer));
    // Error context is built here, never inside a timed sample.
    m_what.clear();
    for (std::size_t i = 0; i < m_fds.size(); ++i)
      m_what.push_back(latency ? fmt::format("{} B ping-pong with peer {}", spec.bytes, m_peer)
                               : fmt::format("stream {} ({}, {} B messages) with peer {}", i,
                                             to_string(spec.dir), spec.bytes, m_peer));
    m_bytes = m_messages = 0;
    m_counters = std::vector<stream_counters>(m_fds.size());
    m_streaming = false;
    if (!latency && !m_team) m_team = std::make_unique<stream_team>(m_fds.size());
    m_cpu_start = cpu_usage::this_thread();
    if (m_team) m_team->take_cpu();
  }

  void run_sample() override {
    if (m_spec.kind == pattern::latency) {
      ping_pong();
      return;
    }
    if (!m_streaming) start_streams();
    const auto window = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::duration<double>(m_spec.seconds));
    // The wait for the window is the wait for the streams: one that fails ends it at once.
    if (m_team->wait_for(window))
      throw net::socket_error(m_what.front() + ": the data streams ended before the point did");
    take_marks();
  }

  point_totals finish() override {
    point_totals t;
    if (m_spec.kind == pattern::bandwidth) end_streams();
    t.cpu = cpu_usage::this_thread() - m_cpu_start;
    if (m_team) t.cpu += m_team->take_cpu();
    t.bytes = m_bytes;
    t.messages = m_messages;
    return t;
  }

  bool counted_samples() const override { return true; }
  counted_sample last_sample() const override { return m_last; }

 private:
  void ping_pong() {
    const int fd = m_fds.front().get();
    const auto mode = m_settings.busy_poll ? wait_mode::spin : wait_mode::block;
    const std::string& what = m_what.front();
    const std::span<const std::byte> out(m_send.data(), m_spec.bytes);
    const std::span<std::byte> in(m_recv.front().data(), m_spec.bytes);
    for (std::uint64_t i = 0; i < m_spec.iterations; ++i) {
      send_exact(fd, out, m_timeout, what);
      recv_exact(fd, in, mode, m_timeout, what);
    }
    m_bytes += 2 * m_spec.bytes * m_spec.iterations;
    m_messages += 2 * m_spec.iterations;
  }

  bool sends() const { return m_spec.dir != direction::from_peer; }
  bool receives() const { return m_spec.dir != direction::to_peer; }

  // Every stream runs until end_streams(); a failing stream stops the others.
  void start_streams() {
    m_stop = false;
    m_team->start([this](std::size_t i) {
      try {
        stream_until(m_stop, m_fds[i].get(), m_send, m_spec.bytes, sends(), m_recv[i], receives(),
                     m_counters[i], m_timeout, m_what[i]);
      } catch (...) {
        m_stop = true;
        throw;
      }
    });
    m_streaming = true;
    mark(m_local_mark, m_remote_mark);
  }

  void mark(tally_mark& local, tally_mark& remote) {
    if (sends()) remote = request_mark(m_links.tally.get(), m_fds.size(), m_timeout, m_tally_what);
    if (receives()) local = local_mark(m_counters);
  }

  // The window since the last marks: each receiver's bytes over its own clock, summed.
  void take_marks() {
    tally_mark local, remote;
    mark(local, remote);
    counted_sample c;
    c.stream_bytes.assign(m_fds.size(), 0);
    const auto add = [&](const tally_mark& from, const tally_mark& to) {
      const window_delta d = delta(from, to);
      std::uint64_t sum = 0;
      for (std::size_t i = 0; i < d.bytes.size(); ++i) {
        c.stream_bytes[i] += d.bytes[i];
        sum += d.bytes[i];
      }
      c.bytes_per_second += static_cast<double>(sum) / d.seconds;
      c.seconds = std::max(c.seconds, d.seconds);
    };
    if (sends()) add(m_remote_mark, remote);
    if (receives()) add(m_local_mark, local);
    m_remote_mark = std::move(remote);
    m_local_mark = std::move(local);
    m_last = std::move(c);
  }

  // Stops the streams and drains them: the server is told what this side sent on each stream
  // and takes all of it in; it answers with what it sent, which this side then takes in, so
  // the next point starts on empty connections.
  void end_streams() {
    if (m_streaming) {
      m_stop = true;
      const core::stopwatch clock;
      while (!m_team->wait_for(std::chrono::milliseconds(100)))
        if (clock.seconds() * 1e3 > 2.0 * static_cast<double>(m_timeout.count()))
          throw net::socket_error(m_what.front() + ": a data stream did not stop");
      m_streaming = false;
    }
    std::vector<std::uint64_t> sent;
    for (const auto& c : m_counters)
      sent.push_back(c.sent.load());
    const auto theirs = request_end(m_links.tally.get(), sent, m_timeout, m_tally_what);
    std::vector<std::byte> none;
    for (std::size_t i = 0; i < m_fds.size(); ++i) {
      const std::uint64_t got = m_counters[i].received.load();
      if (theirs[i] < got)
        throw net::socket_error(fmt::format("{}: the server sent {} bytes, this side received {}",
                                            m_what[i], theirs[i], got));
      pump(m_fds[i].get(), none, 1, 0, m_recv[i], theirs[i] - got, m_timeout, m_what[i]);
      m_counters[i].received = theirs[i];
    }
    for (const auto& c : m_counters) {
      const std::uint64_t moved = c.sent.load() + c.received.load();
      m_bytes += moved;
      m_messages += (c.sent.load() + m_spec.bytes - 1) / m_spec.bytes +
                    (c.received.load() + m_spec.bytes - 1) / m_spec.bytes;
    }
  }

  tcp_settings m_settings;
  nlohmann::json m_params;
  std::chrono::milliseconds m_timeout;
  std::string m_peer;
  stream_set m_links;
  std::vector<net::unique_fd>& m_fds = m_links.data;
  std::string m_tally_what = "asking peer " + m_peer + " for its byte counts";
  bool m_kernel_busy_poll = false;
  std::string m_local;
  std::optional<net::interface_info> m_interface;
  std::unique_ptr<stream_team> m_team;
  point_spec m_spec;
  std::vector<std::byte> m_send;
  std::vector<std::vector<std::byte>> m_recv;
  std::vector<std::string> m_what;  // per stream: what an error message says was going on
  std::uint64_t m_bytes = 0, m_messages = 0;
  std::vector<stream_counters> m_counters;
  std::atomic<bool> m_stop{false};
  bool m_streaming = false;
  tally_mark m_local_mark, m_remote_mark;  // the marks that began the current window
  counted_sample m_last;
  cpu_usage m_cpu_start;
};

}  // namespace

std::unique_ptr<active_endpoint> make_tcp_active(const endpoint_setup& setup) {
  return std::make_unique<tcp_active>(setup);
}

}  // namespace gpubench::transports::tcp
