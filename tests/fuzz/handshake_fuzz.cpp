// Fuzzes what the server reads from a client during the handshake and the session after it,
// against today's control_server::run_session (transports/control/server.cpp): the input is
// the client's whole byte stream, delivered through a socket pair and read with the calls
// run_session makes, in its order: control_channel::expect_json(hello), then
// expect_json(auth), then control_channel::receive() frame after frame until the stream ends.
// Only the documented refusals may come out: protocol_error (malformed, unexpected, other
// version), peer_error (the client's error/busy frame), net::socket_error (the stream ended).
// When the handshake is a pure state machine, this target feeds that instead.
#include <fcntl.h>
#include <sys/socket.h>

#include <chrono>

#include "tests/fuzz/fuzz_support.hpp"
#include "transports/control/channel.hpp"

namespace control = gpubench::transports::control;
namespace net = gpubench::transports::net;

namespace {

// Larger inputs would not fit the socket buffer at once; the frame limit is tested apart.
constexpr std::size_t max_input = 64 * 1024;

// The server's end of a connection on which the client has sent `in` and shut down writing:
// every read either finds its bytes or the end of the stream, never waits.
net::unique_fd client_stream(std::span<const std::byte> in) {
  int fds[2] = {-1, -1};
  gpubench::fuzz::require(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0,
                          "socketpair failed");
  net::unique_fd server(fds[0]);
  net::unique_fd client(fds[1]);
  std::size_t done = 0;
  while (done < in.size()) {
    const ssize_t n = ::write(client.get(), in.data() + done, in.size() - done);
    gpubench::fuzz::require(n > 0, "writing the input to the socket pair failed");
    done += static_cast<std::size_t>(n);
  }
  ::shutdown(client.get(), SHUT_WR);
  return server;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > max_input) return -1;
  control::control_channel ch(client_stream(gpubench::fuzz::bytes_of(data, size)), "client");
  const std::chrono::milliseconds timeout(1000);
  try {
    ch.expect_json(control::message::hello, timeout, "waiting for its hello");
    ch.expect_json(control::message::auth, timeout, "waiting for its authentication");
    for (;;)
      ch.receive(timeout);
  } catch (const control::protocol_error&) {
  } catch (const control::peer_error&) {
  } catch (const net::socket_error&) {
  }
  return 0;
}
