#include "cluster/launch_secret.hpp"

#include <algorithm>
#include <stdexcept>

#include "transports/control/auth.hpp"

namespace gpubench::cluster {

std::string draw_launch_secret() {
  std::string secret = transports::control::make_nonce();
  check_launch_secret(secret);
  return secret;
}

void check_launch_secret(const std::string& text) {
  if (text.size() != launch_secret_chars)
    throw std::runtime_error("the launch secret from rank 0 has " + std::to_string(text.size()) +
                             " characters, expected " + std::to_string(launch_secret_chars));
  const auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  if (!std::all_of(text.begin(), text.end(), hex))
    throw std::runtime_error("the launch secret from rank 0 is not lowercase hex");
  // All zero is what an unfilled broadcast buffer would look like, never a drawn secret.
  if (std::all_of(text.begin(), text.end(), [](char c) { return c == '0'; }))
    throw std::runtime_error("the launch secret from rank 0 is all zero: it was never drawn");
}

}  // namespace gpubench::cluster
