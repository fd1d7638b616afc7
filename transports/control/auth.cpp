#include "transports/control/auth.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/errors.hpp"

namespace gpubench::transports::control {

namespace {

std::string to_hex(const unsigned char* p, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(digits[p[i] >> 4]);
    out.push_back(digits[p[i] & 0xf]);
  }
  return out;
}

}  // namespace

std::string make_nonce() {
  std::array<unsigned char, 32> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1)
    throw std::runtime_error("the system's random generator failed to make a nonce");
  return to_hex(bytes.data(), bytes.size());
}

std::string auth_mac(const std::string& token, const std::string& label,
                     const std::string& client_nonce, const std::string& server_nonce) {
  // Fields are separated by a byte no hex nonce or label contains, so no two different
  // inputs concatenate to the same message.
  const std::string msg = "gpubench-control/" + label + '\n' + client_nonce + '\n' + server_nonce;
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int len = 0;
  if (!HMAC(EVP_sha256(), token.data(), static_cast<int>(token.size()),
            reinterpret_cast<const unsigned char*>(msg.data()), msg.size(), md.data(), &len))
    throw std::runtime_error("HMAC-SHA256 failed");
  return to_hex(md.data(), len);
}

bool equal_constant_time(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    diff = static_cast<unsigned char>(diff | (a[i] ^ b[i]));
  return diff == 0;
}

std::string read_token_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw core::input_error("token file " + path.string() + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  std::string token = text.str();
  const auto first = token.find_first_not_of(" \t\r\n");
  if (first == std::string::npos)
    throw core::input_error("token file " + path.string() + ": empty, no token in it");
  const auto last = token.find_last_not_of(" \t\r\n");
  return token.substr(first, last - first + 1);
}

}  // namespace gpubench::transports::control
