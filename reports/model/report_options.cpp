#include "reports/model/report_options.hpp"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "core/errors.hpp"

namespace gpubench::reports::model {

namespace {

// A decimal number followed by an optional suffix; nothing when the text is not one.
std::optional<std::pair<double, std::string>> number_and_suffix(std::string_view text) {
  const std::string s(text);
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || !std::isfinite(v)) return std::nullopt;
  std::string suffix(end);
  while (!suffix.empty() && suffix.front() == ' ')
    suffix.erase(suffix.begin());
  return std::pair{v, suffix};
}

}  // namespace

double parse_step_time(std::string_view text) {
  const auto nv = number_and_suffix(text);
  double scale = 0;
  if (nv) {
    const auto& unit = nv->second;
    if (unit.empty() || unit == "s")
      scale = 1;
    else if (unit == "ms")
      scale = 1e-3;
    else if (unit == "us")
      scale = 1e-6;
  }
  if (!nv || scale == 0 || !(nv->first > 0))
    throw core::usage_error("--step-time '" + std::string(text) +
                            "': a positive time in seconds, or with a unit (0.25, 250ms, 0.25s)");
  return nv->first * scale;
}

double parse_overlap(std::string_view text) {
  const auto nv = number_and_suffix(text);
  double v = -1;
  if (nv && nv->second.empty()) v = nv->first;
  if (nv && nv->second == "%") v = nv->first / 100;
  if (!(v >= 0 && v <= 1))
    throw core::usage_error("--overlap '" + std::string(text) +
                            "': the fraction of the communication hidden behind compute, 0 to 1 "
                            "(or 0% to 100%)");
  return v;
}

}  // namespace gpubench::reports::model
