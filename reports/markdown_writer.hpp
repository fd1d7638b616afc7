// The report as Markdown, for a pull-request comment or a wiki page: tables and text, charts
// named with a pointer to the HTML/PDF report.
#pragma once

#include <string>

#include "reports/document.hpp"

namespace gpubench::reports {

std::string to_markdown(const document& doc);

}  // namespace gpubench::reports
