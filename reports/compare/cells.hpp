// Text of a comparison row's cells, shared by the text, Markdown and JUnit formats so they
// read the same.
#pragma once

#include <optional>
#include <string>

#include "reports/compare/comparison.hpp"

namespace gpubench::reports::compare::cells {

// "12.34 GB/s", or "-" when absent.
std::string value(const std::optional<double>& v, const std::string& unit);

// Relative change of the median as measured (new/base - 1): "+20.0%"; "-" when absent.
std::string change(const comparison_row& row);

// "p=0.0031 exact", "too few samples", or "-" when the row has no test.
std::string test(const comparison_row& row);

// "[10, 14] GB/s" for reference rows; "±5%" threshold for baseline rows.
std::string bound(const comparison_row& row);

// "1 SLOWER, 2 SAME, 1 ADDED": counts of the verdicts present, in severity order.
std::string counts(const comparison& c);

// "FAIL: 1 regression" or "PASS: no regression".
std::string headline(const comparison& c);

}  // namespace gpubench::reports::compare::cells
