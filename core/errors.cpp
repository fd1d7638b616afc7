#include "core/errors.hpp"

#include <cstring>

namespace gpubench::core {

std::string errno_message(const std::string& what, int err) {
  return what + ": " + std::strerror(err);
}

}  // namespace gpubench::core
