#include "core/params_text.hpp"

namespace gpubench::core {

std::string param_text(const nlohmann::json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string params_text(const nlohmann::json& params, std::string_view separator) {
  std::string out;
  for (const auto& [key, value] : params.items()) {
    if (!out.empty()) out += separator;
    out += key + "=" + param_text(value);
  }
  return out;
}

}  // namespace gpubench::core
