// Small readers of sysfs/procfs files: absent or unreadable files are std::nullopt.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gpubench::core {

// The file's first line, trailing whitespace removed.
std::optional<std::string> read_line(const std::filesystem::path& p);
// The whole file.
std::optional<std::string> read_text(const std::filesystem::path& p);
// The first line as an integer (decimal, or hex with 0x).
std::optional<long long> read_int(const std::filesystem::path& p);
// How many CPUs a kernel CPU list names ("0-3,8,10-11" is 7); std::nullopt when malformed.
std::optional<std::size_t> count_cpu_list(std::string_view list);

}  // namespace gpubench::core
