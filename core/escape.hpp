// Text from outside (a peer on the wire, a file) made safe for one log line or error
// message: control characters and invalid bytes shown as \xNN, length capped.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gpubench::core {

inline constexpr std::size_t default_escape_limit = 200;

// Printable ASCII and well-formed UTF-8 pass through; every other byte (newline, escape,
// DEL, a C1 control, a stray continuation byte) becomes "\xNN", so one untrusted string can
// never start a new line or move the terminal's cursor. A backslash is kept as it is, so
// escaping twice changes nothing (the peer can write a literal "\x0a", never a newline).
// Input longer than `max_chars` bytes is cut there and marked "...(N bytes)".
std::string escape_untrusted(std::string_view text, std::size_t max_chars = default_escape_limit);

}  // namespace gpubench::core
