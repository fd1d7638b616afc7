// Sockets for the control channel and the TCP transport: an owning file descriptor, connect
// and listen with timeouts, and exact-length I/O bounded by a timeout without progress.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

namespace gpubench::transports::net {

// Owns a file descriptor; closes it once.
class unique_fd {
 public:
  unique_fd() = default;
  explicit unique_fd(int fd) : m_fd(fd) {}
  ~unique_fd() { reset(); }
  unique_fd(unique_fd&& o) noexcept : m_fd(o.release()) {}
  unique_fd& operator=(unique_fd&& o) noexcept {
    if (this != &o) reset(o.release());
    return *this;
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;

  int get() const { return m_fd; }
  explicit operator bool() const { return m_fd >= 0; }
  int release() {
    const int fd = m_fd;
    m_fd = -1;
    return fd;
  }
  void reset(int fd = -1);

 private:
  int m_fd = -1;
};

// A failed or timed-out socket operation; the message names the peer and what was being done.
struct socket_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Polled by long waits so an interrupted run does not sit out a timeout.
using cancel_check = std::function<bool()>;

// "198.18.0.2:18515", "[::1]:18515"; "HOST" alone gets `default_port`. Throws
// core::usage_error on an empty host or a bad port.
struct endpoint_address {
  std::string host;
  std::uint16_t port = 0;
  std::string text() const;
};
endpoint_address parse_endpoint(const std::string& text, std::uint16_t default_port);

// Resolves and connects (TCP) within `timeout`; the error says which address and why
// ("connecting to 198.18.0.2:18515: connection refused after 0.0 s").
unique_fd connect_tcp(const endpoint_address& to, std::chrono::milliseconds timeout,
                      const cancel_check& cancelled = {});

// The local address the routing table would send from towards `to` (a UDP connect: no packet
// leaves); nothing when it cannot be resolved or routed.
std::optional<std::string> local_address_towards(const endpoint_address& to);

// A listening TCP socket on `bind_host` ("0.0.0.0", "127.0.0.1", "::") and `port` (0: any).
unique_fd listen_tcp(const std::string& bind_host, std::uint16_t port, int backlog = 16);
std::uint16_t local_port(int fd);
// Numeric address without port of either end of a connected socket.
std::string local_host(int fd);
std::string peer_host(int fd);
std::string peer_text(int fd);  // "host:port"

// Accepts one connection within `timeout`; an empty unique_fd on timeout.
unique_fd accept_tcp(int listen_fd, std::chrono::milliseconds timeout);

// Waits until `fd` is readable (or has an error/hang-up) for up to `timeout`.
bool wait_readable(int fd, std::chrono::milliseconds timeout);

// Exact-length I/O. Fails with socket_error ("... peer closed the connection", "... no progress
// for 5.0 s") when the peer closes, errors, or nothing moves for `idle_timeout`. `what`
// names the operation and the peer for the message.
void send_all(int fd, std::span<const std::byte> data, std::chrono::milliseconds idle_timeout,
              const std::string& what);
void recv_all(int fd, std::span<std::byte> data, std::chrono::milliseconds idle_timeout,
              const std::string& what);

void set_nodelay(int fd);
void set_nonblocking(int fd, bool on);
// SO_BUSY_POLL (microseconds); returns false when the kernel refuses it.
bool set_busy_poll(int fd, int microseconds);
void set_keepalive(int fd);

}  // namespace gpubench::transports::net
