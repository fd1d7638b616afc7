// The text of `gpubench --version`: version, commit and the optional parts built in.
#pragma once

#include <string>

namespace gpubench::cli {
std::string version_text();
}  // namespace gpubench::cli
