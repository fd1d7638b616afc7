// The client side of a TCP case: drives ping-pong and streaming samples.
#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "transports/net/interface_info.hpp"
#include "transports/tcp/data_path.hpp"
#include "transports/tcp/stream_team.hpp"
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
        m_fds(connect_streams(setup, m_settings.streams)) {
    for (auto& fd : m_fds)
      if (m_settings.busy_poll) m_kernel_busy_poll = net::set_busy_poll(fd.get(), 50);
    m_local = net::local_host(m_fds.front().get());
    m_interface = net::interface_for_address(m_local);
    if (m_fds.size() > 1) m_team = std::make_unique<stream_team>(m_fds.size());
  }

  nlohmann::json describe() const override {
    nlohmann::json j = {{"transport", "tcp"},
                        {"local_address", m_local},
                        {"streams", m_fds.size()},
                        {"nodelay", true}};
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
    const bool spin = latency && m_settings.busy_poll;
    for (auto& fd : m_fds) {
      net::set_nonblocking(fd.get(), !latency || spin);
      set_io_timeout(fd.get(), m_timeout);
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
    m_cpu_start = cpu_usage::this_thread();
    if (m_team) m_team->take_cpu();
  }

  void run_sample() override {
    if (m_spec.kind == pattern::latency) {
      ping_pong();
      return;
    }
    if (m_team) {
      m_team->start([this](std::size_t i) { stream_sample(i); });
      while (!m_team->wait_for(std::chrono::milliseconds(1000))) {
      }
    } else {
      stream_sample(0);
    }
    const std::uint64_t per_stream = m_spec.dir == direction::bidir ? 2 : 1;
    m_messages += per_stream * m_spec.iterations * m_fds.size();
    m_bytes += per_stream * m_spec.iterations * m_spec.bytes * m_fds.size();
  }

  point_totals finish() override {
    point_totals t;
    t.cpu = cpu_usage::this_thread() - m_cpu_start;
    if (m_team) t.cpu += m_team->take_cpu();
    t.bytes = m_bytes;
    t.messages = m_messages;
    return t;
  }

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

  // One stream's share of a sample; the passive side acknowledges what it received with one
  // byte after it, so the sample ends when the data is at its receiver, not in a buffer.
  void stream_sample(std::size_t i) {
    const int fd = m_fds[i].get();
    const std::uint64_t total = m_spec.iterations * m_spec.bytes;
    const std::string& what = m_what[i];
    switch (m_spec.dir) {
      case direction::to_peer:
        pump(fd, m_send, m_spec.bytes, total, m_recv[i], 1, m_timeout, what);
        break;
      case direction::from_peer:
        pump(fd, m_send, 1, 1, m_recv[i], total, m_timeout, what);
        break;
      case direction::bidir:
        pump(fd, m_send, m_spec.bytes, total, m_recv[i], total + 1, m_timeout, what);
        break;
    }
  }

  tcp_settings m_settings;
  nlohmann::json m_params;
  std::chrono::milliseconds m_timeout;
  std::string m_peer;
  std::vector<net::unique_fd> m_fds;
  bool m_kernel_busy_poll = false;
  std::string m_local;
  std::optional<net::interface_info> m_interface;
  std::unique_ptr<stream_team> m_team;
  point_spec m_spec;
  std::vector<std::byte> m_send;
  std::vector<std::vector<std::byte>> m_recv;
  std::vector<std::string> m_what;  // per stream: what an error message says was going on
  std::uint64_t m_bytes = 0, m_messages = 0;
  cpu_usage m_cpu_start;
};

}  // namespace

std::unique_ptr<active_endpoint> make_tcp_active(const endpoint_setup& setup) {
  return std::make_unique<tcp_active>(setup);
}

}  // namespace gpubench::transports::tcp
