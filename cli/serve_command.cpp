// gpubench serve [--bind ADDR] [--port N] [--token-file F] [--once] [--io-timeout S]
// [--handshake-timeout S]: the peer
// that network benchmarks on another host measure against.
#include <cstdio>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/result_json.hpp"
#include "core/version.hpp"
#include "transports/control/auth.hpp"
#include "transports/control/server.hpp"
#include "transports/transport_list.hpp"

namespace gpubench::cli {

namespace {

struct serve_options {
  std::string bind = "0.0.0.0";
  std::uint16_t port = transports::control::default_port;
  std::string token_file;
  bool once = false;
  int io_timeout = 5;
  double handshake_timeout = 3.0;
};

int run_serve(const serve_options& o) {
  if (o.io_timeout < 1 || o.io_timeout > 3600)
    throw core::usage_error("--io-timeout: expected 1 to 3600 seconds");
  if (!(o.handshake_timeout >= 0.2 && o.handshake_timeout <= 60))
    throw core::usage_error("--handshake-timeout: expected 0.2 to 60 seconds");
  transports::control::server_options options;
  options.bind = o.bind;
  options.port = o.port;
  options.once = o.once;
  options.io_timeout = std::chrono::milliseconds(o.io_timeout * 1000);
  options.limits.handshake_timeout =
      std::chrono::milliseconds(static_cast<std::int64_t>(o.handshake_timeout * 1000));
  if (!o.token_file.empty()) options.token = transports::control::read_token_file(o.token_file);
  options.log = [](const std::string& line) {
    fmt::print(stderr, "{} gpubench serve: {}\n", core::rfc3339_now(), line);
    std::fflush(stderr);
  };
  // Every transport this build can host: one server serves TCP and RDMA clients.
  const auto table = transports::all_transports();
  core::interrupt_guard guard;
  transports::control::control_server server(options, table);
  std::string names;
  for (const auto& n : table.names())
    names += (names.empty() ? "" : ", ") + n;
  fmt::print("gpubench {} serving {} on {}:{} ({}){}\n", core::tool_version, names, o.bind,
             server.port(), options.token.empty() ? "no token" : "token required",
             o.once ? ", one session" : "");
  std::fflush(stdout);
  const std::size_t clean = server.serve([&guard] { return guard.flag().load(); });
  if (guard.signal() != 0) return 130;
  return o.once && clean == 0 ? 1 : 0;
}

}  // namespace

command setup_serve(CLI::App& app, const environment&) {
  auto* sub =
      app.add_subcommand("serve", "Serve network benchmarks run from another host (--peer)");
  auto o = std::make_shared<serve_options>();
  sub->add_option("--bind", o->bind, "Numeric address to listen on")->capture_default_str();
  sub->add_option("--port", o->port, "TCP port of the control channel")->capture_default_str();
  sub->add_option("--token-file", o->token_file,
                  "File holding a shared token clients must prove they know");
  sub->add_flag("--once", o->once, "Exit after the first session (exit code 1 if it failed)");
  sub->add_option("--io-timeout", o->io_timeout, "Seconds a wait on a client may make no progress")
      ->capture_default_str();
  sub->add_option("--handshake-timeout", o->handshake_timeout,
                  "Seconds a new client has for its whole hello and authentication")
      ->capture_default_str();
  return {sub, [o] { return run_serve(*o); }};
}

}  // namespace gpubench::cli
