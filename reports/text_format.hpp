// How numbers, sizes and parameters are written in every report format.
#pragma once

#include <cstdint>
#include <string>

#include "core/params_text.hpp"

namespace gpubench::reports {

// Three to four significant digits, no exponent for everyday magnitudes; "-" for NaN.
std::string format_value(double v);
// "8B", "4K", "64M", "1G": short binary sizes for axes and tables.
std::string format_size(std::uint64_t bytes);
// Parameters are spelled as everywhere else in the program (core/params_text.hpp); the report
// code calls them unqualified.
using core::param_text;
using core::params_text;
// Ratio as "1.23x".
std::string format_ratio(double r);

}  // namespace gpubench::reports
