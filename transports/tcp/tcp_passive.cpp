// The server side of a TCP case: echoes pings and serves streaming samples until the client
// ends the point over the control channel.
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "core/timer.hpp"
#include "transports/net/interface_info.hpp"
#include "transports/tcp/data_path.hpp"
#include "transports/tcp/stream_team.hpp"
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
        m_fds(accept_streams(setup, m_settings.streams)),
        m_stop(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
    if (!m_stop) throw std::runtime_error("eventfd failed: cannot serve TCP streams");
    for (auto& fd : m_fds)
      if (m_settings.busy_poll) net::set_busy_poll(fd.get(), 50);
    m_interface = net::interface_for_address(net::local_host(m_fds.front().get()));
    m_samples.assign(m_fds.size(), 0);
  }

  nlohmann::json describe() const override {
    nlohmann::json j = {{"transport", "tcp"}};
    if (m_interface) j.update(net::to_json(*m_interface));
    return j;
  }

  void prepare(const point_spec& spec) override {
    m_spec = spec;
    const bool latency = spec.kind == pattern::latency;
    const bool spin = latency && m_settings.busy_poll;
    for (auto& fd : m_fds) {
      net::set_nonblocking(fd.get(), !latency || spin);
      // The echo loop sleeps in recv itself (one system call per ping, as sockperf's server)
      // and looks at the control channel whenever a read has waited this long.
      set_io_timeout(fd.get(), latency ? control_check : m_timeout);
    }
    const std::size_t size = std::max<std::size_t>(spec.bytes, 1);
    m_send.assign(size, std::byte{0xa5});
    m_recv.resize(m_fds.size());
    for (auto& r : m_recv)
      r.resize(latency ? size : std::max(size, min_recv_buffer));
    std::fill(m_samples.begin(), m_samples.end(), 0);
    m_round_trips = 0;
    std::uint64_t drained = 0;
    while (::read(m_stop.get(), &drained, sizeof drained) > 0) {
    }
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
      const std::uint64_t per = m_spec.dir == direction::bidir ? 2 : 1;
      for (const auto n : m_samples) {
        t.bytes += per * n * m_spec.iterations * m_spec.bytes;
        t.messages += per * n * m_spec.iterations;
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

  void stream(point_control& control) {
    m_team->start([this](std::size_t i) { stream_worker(i); });
    try {
      while (!control.wait(std::chrono::milliseconds(100)))
        if (m_team->wait_for(std::chrono::milliseconds(0)))
          throw net::socket_error(what() + ": the data streams ended before the point did");
    } catch (...) {
      stop_workers();
      throw;
    }
    stop_workers();
  }

  void stop_workers() {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto ignored = ::write(m_stop.get(), &one, sizeof one);
    const core::stopwatch clock;
    // Workers finish the sample in hand (bounded by io_timeout), then see the stop.
    while (!m_team->wait_for(std::chrono::milliseconds(100)))
      if (clock.seconds() * 1e3 > 2.0 * static_cast<double>(m_timeout.count()))
        throw net::socket_error(what() + ": a data stream did not stop");
  }

  // Serves samples on stream i until told to stop; throws on a broken or silent stream.
  void stream_worker(std::size_t i) {
    const int fd = m_fds[i].get();
    const std::uint64_t total = m_spec.iterations * m_spec.bytes;
    const std::string doing = what() + fmt::format(" (stream {})", i);
    auto& recv = m_recv[i];
    for (;;) {
      pollfd p[2] = {{fd, POLLIN, 0}, {m_stop.get(), POLLIN, 0}};
      const int rc = ::poll(p, 2, static_cast<int>(max_silence.count()));
      if (rc == 0) throw net::socket_error(doing + ": the client went silent");
      if (rc < 0 && errno != EINTR)
        throw net::socket_error(doing + ": poll failed: " + std::strerror(errno));
      if (p[1].revents) return;
      if (!p[0].revents) continue;
      switch (m_spec.dir) {
        case direction::to_peer:
          pump(fd, m_send, 1, 0, recv, total, m_timeout, doing);
          pump(fd, m_send, 1, 1, recv, 0, m_timeout, doing);
          break;
        case direction::from_peer:
          pump(fd, m_send, 1, 0, recv, 1, m_timeout, doing);
          pump(fd, m_send, m_spec.bytes, total, recv, 0, m_timeout, doing);
          break;
        case direction::bidir:
          pump(fd, m_send, m_spec.bytes, total, recv, total, m_timeout, doing);
          pump(fd, m_send, 1, 1, recv, 0, m_timeout, doing);
          break;
      }
      ++m_samples[i];
    }
  }

  tcp_settings m_settings;
  std::chrono::milliseconds m_timeout;
  std::string m_peer;
  std::vector<net::unique_fd> m_fds;
  net::unique_fd m_stop;  // eventfd: the point is over, workers return
  std::optional<net::interface_info> m_interface;
  std::unique_ptr<stream_team> m_team;
  point_spec m_spec;
  std::vector<std::byte> m_send;
  std::vector<std::vector<std::byte>> m_recv;
  std::vector<std::uint64_t> m_samples;  // per stream, written only by its worker
  std::uint64_t m_round_trips = 0;
  cpu_usage m_cpu_start;
};

}  // namespace

std::unique_ptr<passive_endpoint> make_tcp_passive(const endpoint_setup& setup) {
  return std::make_unique<tcp_passive>(setup);
}

}  // namespace gpubench::transports::tcp
