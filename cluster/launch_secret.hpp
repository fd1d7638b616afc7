// The secret of one cluster launch: rank 0 draws it, MPI carries it to every rank, and the
// pair servers and clients use it as the control channel's token (mutual proof, as
// `serve --token-file`), so a host outside the launch can neither use a pair server nor
// stand in for one. It lives in memory only: never in a log, the result file, argv or the
// environment.
#pragma once

#include <cstddef>
#include <string>

namespace gpubench::cluster {

// 32 bytes from the system's CSPRNG (the control channel's nonce source), as 64 hex digits.
inline constexpr std::size_t launch_secret_chars = 64;

std::string draw_launch_secret();

// Throws std::runtime_error unless `text` is what draw_launch_secret makes (64 lowercase hex
// digits, not all zero): what arrives from rank 0 is checked before a server trusts it. The
// message never holds the text.
void check_launch_secret(const std::string& text);

}  // namespace gpubench::cluster
