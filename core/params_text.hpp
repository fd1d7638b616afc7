// Case parameters as text, the one spelling for console lines, reports and cluster verdicts.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gpubench::core {

// A parameter value as text: strings bare, everything else as JSON.
std::string param_text(const nlohmann::json& v);
// "memory=pinned, engine=ce"; empty for no parameters. The console's headings and progress
// lines pass " " as the separator, as they always have.
std::string params_text(const nlohmann::json& params, std::string_view separator = ", ");

}  // namespace gpubench::core
