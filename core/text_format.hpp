// How numbers, sizes and parameters are written in reports and in the cluster verdict.
#pragma once

#include <cstdint>
#include <string>

#include "core/params_text.hpp"  // param_text, params_text: the spelling of parameters

namespace gpubench::core {

// Three to four significant digits, no exponent for everyday magnitudes; "-" for NaN.
std::string format_value(double v);
// "8B", "4K", "64M", "1G": short binary sizes for axes and tables.
std::string format_size(std::uint64_t bytes);
// Ratio as "1.23x".
std::string format_ratio(double r);

}  // namespace gpubench::core
