// How much one TCP stream can hold in flight in the kernel: the largest send buffer plus the
// largest receive buffer autotuning may grow to (net.ipv4.tcp_wmem and tcp_rmem, third
// field). A bandwidth sample that moves less than this can be a burst into empty buffers.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gpubench::transports::tcp {

// Linux's defaults when the sysctls cannot be read: 4 MiB send + 6 MiB receive.
inline constexpr std::uint64_t default_socket_buffer_bytes = (4u << 20) + (6u << 20);

// The maximum (third field) of a tcp_wmem / tcp_rmem line such as "4096 16384 4194304";
// nothing when the text is not three numbers.
std::optional<std::uint64_t> sysctl_buffer_max(std::string_view text);

// tcp_wmem max + tcp_rmem max of this host's network namespace, or the default above.
std::uint64_t socket_buffer_bytes();

}  // namespace gpubench::transports::tcp
