// Small readers of sysfs/procfs files: absent or unreadable files are std::nullopt.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace gpubench::core {

// The file's first line, trailing whitespace removed.
std::optional<std::string> read_line(const std::filesystem::path& p);
// The whole file.
std::optional<std::string> read_text(const std::filesystem::path& p);
// The first line as an integer (decimal, or hex with 0x).
std::optional<long long> read_int(const std::filesystem::path& p);

}  // namespace gpubench::core
