#include "core/system/sysfs.hpp"

#include <fstream>
#include <sstream>

namespace gpubench::core {

std::optional<std::string> read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return ss.str();
}

std::optional<std::string> read_line(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
    line.pop_back();
  return line;
}

std::optional<long long> read_int(const std::filesystem::path& p) {
  auto line = read_line(p);
  if (!line || line->empty()) return std::nullopt;
  try {
    std::size_t used = 0;
    const long long v = std::stoll(*line, &used, 0);
    if (used != line->size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace gpubench::core
