// Challenge/response authentication of a control session with a shared token: each side
// proves it knows the token with an HMAC-SHA256 over both sides' fresh nonces, so the token
// never crosses the wire and a recorded exchange cannot be replayed.
#pragma once

#include <filesystem>
#include <string>

namespace gpubench::transports::control {

// 32 random bytes from the system's CSPRNG, as hex.
std::string make_nonce();

// HMAC-SHA256(token, label | client_nonce | server_nonce) as hex; `label` differs per
// direction ("client", "server") so one side's proof cannot be reflected as the other's.
std::string auth_mac(const std::string& token, const std::string& label,
                     const std::string& client_nonce, const std::string& server_nonce);

// Comparison whose time does not depend on where the strings differ.
bool equal_constant_time(const std::string& a, const std::string& b);

// The token in `path`, surrounding whitespace removed. Throws core::input_error when the
// file cannot be read or holds no token.
std::string read_token_file(const std::filesystem::path& path);

}  // namespace gpubench::transports::control
