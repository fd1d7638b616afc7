#include "transports/tcp/data_path.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/timer.hpp"
#include "transports/net/socket.hpp"

namespace gpubench::transports::tcp {

namespace {

[[noreturn]] void fail(const std::string& what, int err) {
  if (err == EAGAIN || err == EWOULDBLOCK)
    throw net::socket_error(what + ": the peer did not answer in time (no progress)");
  if (err == ECONNRESET || err == EPIPE)
    throw net::socket_error(what + ": the peer reset the connection (it stopped or crashed)");
  throw net::socket_error(core::errno_message(what, err));
}

[[noreturn]] void closed(const std::string& what) {
  throw net::socket_error(what + ": the peer closed the connection (it stopped or crashed)");
}

}  // namespace

void set_io_timeout(int fd, std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

void send_exact(int fd, std::span<const std::byte> data, std::chrono::milliseconds timeout,
                const std::string& what) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      // A non-blocking (spinning) socket whose buffer is full: wait for room, bounded.
      pollfd p{fd, POLLOUT, 0};
      if (::poll(&p, 1, static_cast<int>(timeout.count())) == 0) fail(what, EAGAIN);
    } else if (n < 0 && errno != EINTR) {
      fail(what, errno);
    }
  }
}

void recv_exact(int fd, std::span<std::byte> data, wait_mode mode,
                std::chrono::milliseconds timeout, const std::string& what) {
  std::size_t done = 0;
  if (mode == wait_mode::block) {
    while (done < data.size()) {
      const ssize_t n = ::recv(fd, data.data() + done, data.size() - done, 0);
      if (n > 0) {
        done += static_cast<std::size_t>(n);
      } else if (n == 0) {
        closed(what);
      } else if (errno != EINTR) {
        fail(what, errno);
      }
    }
    return;
  }
  const double limit = static_cast<double>(timeout.count()) / 1e3;
  core::stopwatch idle;
  unsigned spins = 0;
  while (done < data.size()) {
    const ssize_t n = ::recv(fd, data.data() + done, data.size() - done, MSG_DONTWAIT);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      idle = core::stopwatch();
    } else if (n == 0) {
      closed(what);
    } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      fail(what, errno);
    } else if (++spins % 4096 == 0 && idle.seconds() > limit) {
      fail(what, EAGAIN);
    }
  }
}

void pump(int fd, std::span<const std::byte> send_buf, std::uint64_t message,
          std::uint64_t send_total, std::span<std::byte> recv_buf, std::uint64_t recv_total,
          std::chrono::milliseconds idle_timeout, const std::string& what) {
  std::uint64_t sent = 0, received = 0;
  while (sent < send_total || received < recv_total) {
    bool progress = false;
    bool want_out = false, want_in = false;
    if (sent < send_total) {
      // A call never crosses a message boundary: the message size is the unit of the test.
      const std::uint64_t in_message = sent % message;
      const std::uint64_t n =
          std::min({message - in_message, send_total - sent, std::uint64_t{send_buf.size()}});
      const ssize_t r = ::send(fd, send_buf.data(), n, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (r > 0) {
        sent += static_cast<std::uint64_t>(r);
        progress = true;
      } else if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        fail(what, errno);
      } else {
        want_out = true;
      }
    }
    if (received < recv_total) {
      const std::uint64_t n = std::min<std::uint64_t>(recv_total - received, recv_buf.size());
      const ssize_t r = ::recv(fd, recv_buf.data(), n, MSG_DONTWAIT);
      if (r > 0) {
        received += static_cast<std::uint64_t>(r);
        progress = true;
      } else if (r == 0) {
        closed(what);
      } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        fail(what, errno);
      } else {
        want_in = true;
      }
    }
    if (progress) continue;
    pollfd p{fd, static_cast<short>((want_out ? POLLOUT : 0) | (want_in ? POLLIN : 0)), 0};
    const int rc = ::poll(&p, 1, static_cast<int>(idle_timeout.count()));
    if (rc == 0)
      throw net::socket_error(
          fmt::format("{}: no progress for {:.1f} s ({} of {} bytes sent, {} of "
                      "{} received)",
                      what, static_cast<double>(idle_timeout.count()) / 1e3, sent, send_total,
                      received, recv_total));
    if (rc < 0 && errno != EINTR) fail(what, errno);
  }
}

void stream_until(const std::atomic<bool>& stop, int fd, std::span<const std::byte> send_buf,
                  std::uint64_t message, bool send, std::span<std::byte> recv_buf, bool receive,
                  stream_counters& counters, std::chrono::milliseconds idle_timeout,
                  const std::string& what) {
  constexpr int stop_check_ms = 50;
  std::uint64_t sent = 0;
  core::stopwatch idle;
  while (!stop.load(std::memory_order_relaxed)) {
    bool progress = false;
    if (send) {
      const std::uint64_t n = std::min({message - sent % message, std::uint64_t{send_buf.size()}});
      const ssize_t r = ::send(fd, send_buf.data(), n, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (r > 0) {
        sent += static_cast<std::uint64_t>(r);
        counters.sent.fetch_add(static_cast<std::uint64_t>(r), std::memory_order_relaxed);
        progress = true;
      } else if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        fail(what, errno);
      }
    }
    if (receive) {
      const ssize_t r = ::recv(fd, recv_buf.data(), recv_buf.size(), MSG_DONTWAIT);
      if (r > 0) {
        counters.received.fetch_add(static_cast<std::uint64_t>(r), std::memory_order_relaxed);
        progress = true;
      } else if (r == 0) {
        closed(what);
      } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        fail(what, errno);
      }
    }
    if (progress) {
      idle = core::stopwatch();
      continue;
    }
    if (idle.seconds() * 1e3 > static_cast<double>(idle_timeout.count()))
      throw net::socket_error(
          fmt::format("{}: no progress for {:.1f} s ({} bytes sent, {} received on this stream)",
                      what, static_cast<double>(idle_timeout.count()) / 1e3, counters.sent.load(),
                      counters.received.load()));
    pollfd p{fd, static_cast<short>((send ? POLLOUT : 0) | (receive ? POLLIN : 0)), 0};
    if (::poll(&p, 1, stop_check_ms) < 0 && errno != EINTR) fail(what, errno);
  }
}

}  // namespace gpubench::transports::tcp
