// The server side of a TCP case: echoes pings; for bandwidth, runs its streams for the whole
// point, answers the client's marks with its receive counts and drains the streams at the end.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
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

constexpr std::size_t min_recv_buffer = 256u << 10;
// Between samples the client only computes its statistics; longer silence means it is gone
// (a closed or reset connection is noticed at once, this bounds half-open ones).
constexpr std::chrono::milliseconds max_silence{30000};
constexpr std::chrono::milliseconds control_check{20};

class tcp_passive final : public passive_endpoint {
 public:
  explicit tcp_passive(const endpoint_setup& setup)
      : m_settings(settings_from(setup.params)),
        m_timeout(setup.io_timeout),
        m_peer(setup.oob->peer_name()),
        m_links(accept_streams(setup, m_settings.streams)) {
    for (auto& fd : m_fds)
      if (m_settings.busy_poll) net::set_busy_poll(fd.get(), 50);
    m_interface = net::interface_for_address(net::local_host(m_fds.front().get()));
    set_io_timeout(m_links.tally.get(), m_timeout);
  }

  ~tcp_passive() override {
    m_stop = true;
    m_team.reset();
  }
  tcp_passive(const tcp_passive&) = delete;
  tcp_passive& operator=(const tcp_passive&) = delete;

  nlohmann::json describe() const override {
    nlohmann::json j = {{"transport", "tcp"}};
    if (m_interface) j.update(net::to_json(*m_interface));
    return j;
  }

  void prepare(const point_spec& spec) override {
    m_spec = spec;
    const bool latency = spec.kind == pattern::latency;
    if (!latency && !(spec.seconds > 0))
      throw std::runtime_error("a TCP bandwidth point needs samples of fixed duration");
    const bool spin = latency && m_settings.busy_poll;
    const bool nodelay = nodelay_for(m_settings, spec.kind);
    for (auto& fd : m_fds) {
      net::set_nonblocking(fd.get(), !latency || spin);
      set_nodelay(fd.get(), nodelay);
      // The echo loop sleeps in recv itself (one system call per ping, as sockperf's server)
      // and looks at the control channel whenever a read has waited this long.
      set_io_timeout(fd.get(), latency ? control_check : m_timeout);
    }
    const std::size_t size = std::max<std::size_t>(spec.bytes, 1);
    m_send.assign(size, std::byte{0xa5});
    m_recv.resize(m_fds.size());
    for (auto& r : m_recv)
      r.resize(latency ? size : std::max(size, min_recv_buffer));
    m_counters = std::vector<stream_counters>(m_fds.size());
    m_round_trips = 0;
    if (!latency && !m_team) m_team = std::make_unique<stream_team>(m_fds.size());
    if (m_team) m_team->take_cpu();
    m_cpu_start = cpu_usage::this_thread();
  }

  point_totals serve(point_control& control) override {
    point_totals t;
    if (m_spec.kind == pattern::latency) {
      echo(control);
      t.bytes = 2 * m_round_trips * m_spec.bytes;
      t.messages = 2 * m_round_trips;
    } else {
      stream(control);
      for (const auto& c : m_counters) {
        t.bytes += c.sent.load() + c.received.load();
        t.messages += (c.sent.load() + m_spec.bytes - 1) / m_spec.bytes +
                      (c.received.load() + m_spec.bytes - 1) / m_spec.bytes;
      }
    }
    t.cpu = cpu_usage::this_thread() - m_cpu_start;
    if (m_team) t.cpu += m_team->take_cpu();
    return t;
  }

 private:
  std::string what() const {
    return fmt::format("serving {} B {} for client {}", m_spec.bytes,
                       m_spec.kind == pattern::latency ? "ping-pong" : to_string(m_spec.dir),
                       m_peer);
  }

  void echo(point_control& control) {
    const int fd = m_fds.front().get();
    const std::string doing = what();
    const std::span<std::byte> in(m_recv.front().data(), m_spec.bytes);
    const std::span<const std::byte> out(m_send.data(), m_spec.bytes);
    if (m_settings.busy_poll) {
      core::stopwatch idle;
      for (unsigned spins = 1;; ++spins) {
        const ssize_t n = ::recv(fd, in.data(), in.size(), MSG_DONTWAIT);
        if (n > 0) {
          recv_exact(fd, in.subspan(static_cast<std::size_t>(n)), wait_mode::spin, m_timeout,
                     doing);
          send_exact(fd, out, m_timeout, doing);
          ++m_round_trips;
          idle = core::stopwatch();
          continue;
        }
        if (n == 0) throw net::socket_error(doing + ": the client closed the data connection");
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
          throw net::socket_error(doing + ": " + std::strerror(errno));
        if (spins % 1024 == 0) {
          if (control.stop_requested()) return;
          if (idle.seconds() * 1e3 > static_cast<double>(max_silence.count()))
            throw net::socket_error(doing + ": the client went silent");
        }
      }
    }
    core::stopwatch idle;
    for (;;) {
      const ssize_t n = ::recv(fd, in.data(), in.size(), 0);
      if (n > 0) {
        const auto got = static_cast<std::size_t>(n);
        if (got < in.size()) net::recv_all(fd, in.subspan(got), m_timeout, doing);
        send_exact(fd, out, m_timeout, doing);
        ++m_round_trips;
        idle = core::stopwatch();
        continue;
      }
      if (n == 0) throw net::socket_error(doing + ": the client closed the data connection");
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK)
        throw net::socket_error(doing + ": " + std::strerror(errno));
      if (control.stop_requested()) return;
      if (idle.seconds() * 1e3 > static_cast<double>(max_silence.count()))
        throw net::socket_error(doing + ": the client went silent");
    }
  }

  bool sends() const { return m_spec.dir != direction::to_peer; }
  bool receives() const { return m_spec.dir != direction::from_peer; }

  // The streams run from here until the client's end; meanwhile this thread answers marks and
  // watches the control channel, the streams and the client's silence.
  void stream(point_control& control) {
    m_stop = false;
    m_team->start([this](std::size_t i) {
      try {
        stream_until(m_stop, m_fds[i].get(), m_send, m_spec.bytes, sends(), m_recv[i], receives(),
                     m_counters[i], m_timeout, what() + fmt::format(" (stream {})", i));
      } catch (...) {
        m_stop = true;
        throw;
      }
    });
    try {
      serve_tally(control);
    } catch (...) {
      stop_workers();
      throw;
    }
  }

  void serve_tally(point_control& control) {
    const int tally = m_links.tally.get();
    const std::string doing = what() + ": the tally connection";
    bool ended = false, stopped = false;
    core::stopwatch idle;
    while (!ended || !stopped) {
      pollfd p[2] = {{tally, POLLIN, 0},
                     {control.fd(), static_cast<short>(stopped ? 0 : POLLIN), 0}};
      if (::poll(p, 2, 100) < 0 && errno != EINTR)
        throw net::socket_error(doing + ": poll failed: " + std::strerror(errno));
      if (p[1].revents && control.stop_requested()) stopped = true;
      if (p[0].revents) {
        idle = core::stopwatch();
        if (read_request(tally, m_timeout, doing) == tally_request::mark) {
          const tally_mark m = local_mark(m_counters);
          std::vector<std::uint64_t> words{m.nanoseconds};
          words.insert(words.end(), m.received.begin(), m.received.end());
          send_words(tally, words, m_timeout, doing);
        } else {
          end_streams(tally, doing);
          ended = true;
        }
        continue;
      }
      if (!ended && m_team->wait_for(std::chrono::milliseconds(0)))
        throw net::socket_error(what() + ": the data streams ended before the point did");
      if (idle.seconds() * 1e3 > static_cast<double>(max_silence.count()))
        throw net::socket_error(doing + ": the client went silent");
    }
  }

  // The client's end: stop sending, take in all it sent, tell it what this side sent.
  void end_streams(int tally, const std::string& doing) {
    const auto theirs = read_words(tally, m_fds.size(), m_timeout, doing);
    stop_workers();
    std::vector<std::byte> none;
    std::vector<std::uint64_t> sent;
    for (std::size_t i = 0; i < m_fds.size(); ++i) {
      const std::uint64_t got = m_counters[i].received.load();
      if (theirs[i] < got)
        throw net::socket_error(fmt::format("{}: the client sent {} bytes on stream {}, {} arrived",
                                            what(), theirs[i], i, got));
      pump(m_fds[i].get(), none, 1, 0, m_recv[i], theirs[i] - got, m_timeout, doing);
      m_counters[i].received = theirs[i];
      sent.push_back(m_counters[i].sent.load());
    }
    send_words(tally, sent, m_timeout, doing);
  }

  void stop_workers() {
    m_stop = true;
    const core::stopwatch clock;
    // Each stream looks at the flag at least every 50 ms.
    while (!m_team->wait_for(std::chrono::milliseconds(100)))
      if (clock.seconds() * 1e3 > 2.0 * static_cast<double>(m_timeout.count()))
        throw net::socket_error(what() + ": a data stream did not stop");
  }

  tcp_settings m_settings;
  std::chrono::milliseconds m_timeout;
  std::string m_peer;
  stream_set m_links;
  std::vector<net::unique_fd>& m_fds = m_links.data;
  std::atomic<bool> m_stop{false};  // the point is over, the streams return
  std::optional<net::interface_info> m_interface;
  std::unique_ptr<stream_team> m_team;
  point_spec m_spec;
  std::vector<std::byte> m_send;
  std::vector<std::vector<std::byte>> m_recv;
  std::vector<stream_counters> m_counters;
  std::uint64_t m_round_trips = 0;
  cpu_usage m_cpu_start;
};

}  // namespace

std::unique_ptr<passive_endpoint> make_tcp_passive(const endpoint_setup& setup) {
  return std::make_unique<tcp_passive>(setup);
}

}  // namespace gpubench::transports::tcp
