#include "transports/net/socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/timer.hpp"

namespace gpubench::transports::net {

namespace {

using std::chrono::milliseconds;

int poll_ms(milliseconds m) {
  return static_cast<int>(std::max<long long>(0, m.count()));
}

std::string host_of(const sockaddr_storage& ss) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (ss.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&ss);
    ::inet_ntop(AF_INET, &a->sin_addr, buf, sizeof buf);
  } else if (ss.ss_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&ss);
    ::inet_ntop(AF_INET6, &a->sin6_addr, buf, sizeof buf);
  }
  return buf;
}

std::uint16_t port_of(const sockaddr_storage& ss) {
  if (ss.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in*>(&ss)->sin_port);
  if (ss.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&ss)->sin6_port);
  return 0;
}

sockaddr_storage name_of(int fd, bool peer) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  const int rc = peer ? ::getpeername(fd, reinterpret_cast<sockaddr*>(&ss), &len)
                      : ::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
  if (rc != 0) ss.ss_family = AF_UNSPEC;
  return ss;
}

std::string join_host_port(const std::string& host, std::uint16_t port) {
  if (host.find(':') != std::string::npos) return fmt::format("[{}]:{}", host, port);
  return fmt::format("{}:{}", host, port);
}

struct addrinfo_list {
  addrinfo* head = nullptr;
  ~addrinfo_list() {
    if (head) ::freeaddrinfo(head);
  }
};

void set_int_option(int fd, int level, int name, int value) {
  ::setsockopt(fd, level, name, &value, sizeof value);
}

}  // namespace

void unique_fd::reset(int fd) {
  if (m_fd >= 0) ::close(m_fd);
  m_fd = fd;
}

std::string endpoint_address::text() const {
  return join_host_port(host, port);
}

endpoint_address parse_endpoint(const std::string& text, std::uint16_t default_port) {
  endpoint_address a;
  std::string port_text;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos) throw core::usage_error("peer '" + text + "': missing ']'");
    a.host = text.substr(1, close - 1);
    if (close + 1 < text.size()) {
      if (text[close + 1] != ':') throw core::usage_error("peer '" + text + "': expected ':PORT'");
      port_text = text.substr(close + 2);
    }
  } else if (const auto colon = text.rfind(':');
             colon != std::string::npos && text.find(':') == colon) {
    a.host = text.substr(0, colon);
    port_text = text.substr(colon + 1);
  } else {
    a.host = text;  // a bare IPv6 address or a host name
  }
  if (a.host.empty()) throw core::usage_error("peer '" + text + "': no host");
  a.port = default_port;
  if (!port_text.empty()) {
    unsigned v = 0;
    auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), v);
    if (ec != std::errc{} || end != port_text.data() + port_text.size() || v == 0 || v > 65535)
      throw core::usage_error("peer '" + text + "': port '" + port_text +
                              "' is not a number from 1 to 65535");
    a.port = static_cast<std::uint16_t>(v);
  }
  return a;
}

std::optional<std::string> local_address_towards(const endpoint_address& to) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo_list list;
  const std::string port = std::to_string(to.port);
  if (::getaddrinfo(to.host.c_str(), port.c_str(), &hints, &list.head) != 0) return std::nullopt;
  for (addrinfo* ai = list.head; ai; ai = ai->ai_next) {
    unique_fd fd(::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol));
    // A UDP connect only looks the route up: nothing is sent.
    if (fd && ::connect(fd.get(), ai->ai_addr, ai->ai_addrlen) == 0) return local_host(fd.get());
  }
  return std::nullopt;
}

unique_fd connect_tcp(const endpoint_address& to, milliseconds timeout,
                      const cancel_check& cancelled) {
  const std::string where = "connecting to " + to.text();
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo_list list;
  const std::string port = std::to_string(to.port);
  if (const int rc = ::getaddrinfo(to.host.c_str(), port.c_str(), &hints, &list.head); rc != 0)
    throw socket_error(where + ": cannot resolve '" + to.host + "': " + ::gai_strerror(rc));

  const core::stopwatch clock;
  std::string last_error = "no address";
  for (addrinfo* ai = list.head; ai; ai = ai->ai_next) {
    unique_fd fd(::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol));
    if (!fd) {
      last_error = std::strerror(errno);
      continue;
    }
    set_nonblocking(fd.get(), true);
    int rc = ::connect(fd.get(), ai->ai_addr, ai->ai_addrlen);
    if (rc != 0 && errno != EINPROGRESS) {
      last_error = std::strerror(errno);
      continue;
    }
    bool connected = rc == 0;
    while (!connected) {
      const auto left = timeout - std::chrono::duration_cast<milliseconds>(
                                      std::chrono::duration<double>(clock.seconds()));
      if (left.count() <= 0) {
        last_error = "no answer";
        break;
      }
      if (cancelled && cancelled()) throw socket_error(where + ": interrupted");
      pollfd p{fd.get(), POLLOUT, 0};
      rc = ::poll(&p, 1, poll_ms(std::min(left, milliseconds(100))));
      if (rc < 0 && errno != EINTR) {
        last_error = std::strerror(errno);
        break;
      }
      if (rc > 0) {
        int err = 0;
        socklen_t len = sizeof err;
        ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
        if (err != 0) {
          last_error = std::strerror(err);
          break;
        }
        connected = true;
      }
    }
    if (!connected) continue;
    set_nonblocking(fd.get(), false);
    return fd;
  }
  throw socket_error(fmt::format("{}: {} after {:.1f} s", where, last_error, clock.seconds()));
}

unique_fd listen_tcp(const std::string& bind_host, std::uint16_t port, int backlog) {
  const std::string where = "listening on " + join_host_port(bind_host, port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST;
  addrinfo_list list;
  const std::string port_text = std::to_string(port);
  if (const int rc = ::getaddrinfo(bind_host.c_str(), port_text.c_str(), &hints, &list.head);
      rc != 0)
    throw core::usage_error(where + ": '" + bind_host +
                            "' is not a numeric address: " + ::gai_strerror(rc));
  unique_fd fd(::socket(list.head->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) throw socket_error(core::errno_message(where, errno));
  set_int_option(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1);
  if (::bind(fd.get(), list.head->ai_addr, list.head->ai_addrlen) != 0)
    throw socket_error(core::errno_message(where, errno));
  if (::listen(fd.get(), backlog) != 0) throw socket_error(core::errno_message(where, errno));
  return fd;
}

std::uint16_t local_port(int fd) {
  return port_of(name_of(fd, false));
}
std::string local_host(int fd) {
  return host_of(name_of(fd, false));
}
std::string peer_host(int fd) {
  return host_of(name_of(fd, true));
}
std::string peer_text(int fd) {
  const auto ss = name_of(fd, true);
  return join_host_port(host_of(ss), port_of(ss));
}

unique_fd accept_tcp(int listen_fd, milliseconds timeout) {
  if (!wait_readable(listen_fd, timeout)) return {};
  unique_fd fd(::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC));
  if (!fd && errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
    throw socket_error(core::errno_message("accepting a connection", errno));
  return fd;
}

bool wait_readable(int fd, milliseconds timeout) {
  pollfd p{fd, POLLIN, 0};
  for (;;) {
    const int rc = ::poll(&p, 1, poll_ms(timeout));
    if (rc >= 0) return rc > 0;
    if (errno != EINTR) throw socket_error(core::errno_message("waiting on a socket", errno));
  }
}

void send_all(int fd, std::span<const std::byte> data, milliseconds idle_timeout,
              const std::string& what) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n =
        ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
      throw socket_error(core::errno_message(what, errno));
    pollfd p{fd, POLLOUT, 0};
    const int rc = ::poll(&p, 1, poll_ms(idle_timeout));
    if (rc == 0)
      throw socket_error(fmt::format("{}: no progress for {:.1f} s", what,
                                     static_cast<double>(idle_timeout.count()) / 1e3));
    if (rc < 0 && errno != EINTR) throw socket_error(core::errno_message(what, errno));
  }
}

void recv_all(int fd, std::span<std::byte> data, milliseconds idle_timeout,
              const std::string& what) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::recv(fd, data.data() + done, data.size() - done, MSG_DONTWAIT);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n == 0) throw socket_error(what + ": the peer closed the connection");
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK)
      throw socket_error(core::errno_message(what, errno));
    pollfd p{fd, POLLIN, 0};
    const int rc = ::poll(&p, 1, poll_ms(idle_timeout));
    if (rc == 0)
      throw socket_error(fmt::format("{}: nothing received for {:.1f} s", what,
                                     static_cast<double>(idle_timeout.count()) / 1e3));
    if (rc < 0 && errno != EINTR) throw socket_error(core::errno_message(what, errno));
  }
}

void set_nodelay(int fd) {
  set_int_option(fd, IPPROTO_TCP, TCP_NODELAY, 1);
}

void set_nonblocking(int fd, bool on) {
  const int flags = ::fcntl(fd, F_GETFL, 0);
  ::fcntl(fd, F_SETFL, on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK));
}

bool set_busy_poll(int fd, int microseconds) {
  return ::setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &microseconds, sizeof microseconds) == 0;
}

void set_keepalive(int fd) {
  // Half-open control connections are noticed within about 20 s even when no frame is due.
  set_int_option(fd, SOL_SOCKET, SO_KEEPALIVE, 1);
  set_int_option(fd, IPPROTO_TCP, TCP_KEEPIDLE, 5);
  set_int_option(fd, IPPROTO_TCP, TCP_KEEPINTVL, 5);
  set_int_option(fd, IPPROTO_TCP, TCP_KEEPCNT, 3);
}

}  // namespace gpubench::transports::net
