#include "transports/process_group.hpp"

#include <exception>
#include <stdexcept>
#include <string>

namespace gpubench::transports {

void make_and_broadcast(process_group& group, std::span<std::byte> data, int root,
                        const std::function<void()>& make) {
  std::string error;
  if (group.rank() == root) {
    try {
      make();
    } catch (const std::exception& e) {
      error = e.what();
      if (error.empty()) error = "failed";
    }
  }
  // Collective: every member learns whether root failed before any waits for its data.
  if (group.any(!error.empty()))
    throw std::runtime_error(error.empty() ? "rank " + std::to_string(root) +
                                                 " of the communicator failed to make the data "
                                                 "it broadcasts (its own error says why)"
                                           : error);
  group.broadcast(data, root);
}

}  // namespace gpubench::transports
