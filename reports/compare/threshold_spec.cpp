#include "reports/compare/threshold_spec.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/errors.hpp"

namespace gpubench::reports::compare {

double parse_percent(std::string_view text, std::string_view what) {
  std::string_view digits = text;
  if (!digits.empty() && digits.back() == '%') digits.remove_suffix(1);
  double value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
      !std::isfinite(value) || value < 0)
    throw core::usage_error(fmt::format(
        "{}: '{}' is not a percentage (expected a non-negative number such as 5% or 12.5)", what,
        text));
  return value / 100;
}

namespace {

bool valid_key(std::string_view key) {
  if (key.empty()) return false;
  for (std::size_t i = 0; i < key.size(); ++i) {
    const char c = key[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                    (c == '*' && i + 1 == key.size());
    if (!ok) return false;
  }
  return true;
}

}  // namespace

thresholds parse_thresholds(const std::vector<std::string>& specs, thresholds defaults) {
  thresholds t = std::move(defaults);
  for (const std::string& spec : specs) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos) {
      t.global = parse_percent(spec, "--threshold");
      continue;
    }
    const std::string key = spec.substr(0, eq);
    if (!valid_key(key))
      throw core::usage_error(fmt::format(
          "--threshold '{}': '{}' is not a benchmark id (such as net.tcp.latency) or a prefix "
          "ending in * (such as net.tcp.*)",
          spec, key));
    t.per_benchmark[key] =
        parse_percent(std::string_view(spec).substr(eq + 1), fmt::format("--threshold {}", key));
  }
  return t;
}

std::vector<std::string> unknown_threshold_keys(const thresholds& t,
                                                const std::vector<std::string>& known_ids) {
  std::vector<std::string> unknown;
  for (const auto& [key, value] : t.per_benchmark) {
    const bool prefix = !key.empty() && key.back() == '*';
    // The whole key when it is no prefix (clang 14 cannot capture a structured binding).
    const std::string stem = prefix ? key.substr(0, key.size() - 1) : key;
    const bool known = std::any_of(known_ids.begin(), known_ids.end(), [&](const auto& id) {
      return prefix ? id.rfind(stem, 0) == 0 : id == stem;
    });
    if (!known) unknown.push_back(key);
  }
  return unknown;
}

}  // namespace gpubench::reports::compare
