#include "reports/import/json_text.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace gpubench::reports::import {

nlohmann::json parse_json_text(std::string_view text, const import_options& o) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    const std::size_t at = std::min<std::size_t>(e.byte, text.size());
    const auto line = static_cast<std::size_t>(
        1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    // nlohmann's message says what it expected at that byte ("unexpected end of input").
    const std::string what = e.what();
    const auto colon = what.rfind(": ");
    fail(o, line,
         fmt::format("a complete JSON document ({})",
                     colon == std::string::npos ? what : what.substr(colon + 2)));
  } catch (const nlohmann::json::exception& e) {
    // A number too large for any type ("number overflow parsing '5E5555555'"): no line known.
    fail(o, 0, "JSON whose numbers fit a double", e.what());
  }
}

const nlohmann::json& member(const nlohmann::json& j, const char* key, nlohmann::json::value_t type,
                             const import_options& o, std::string_view where) {
  if (!j.is_object() || !j.contains(key) || j.at(key).type() != type) {
    const char* kinds[] = {"null",     "an object", "an array", "a string", "true or false",
                           "a number", "a number",  "a number", "binary",   "valid"};
    const auto t = static_cast<std::size_t>(type);
    fail(o, 0, fmt::format("{}.{} as {}", where, key, t < 10 ? kinds[t] : "a value"));
  }
  return j.at(key);
}

std::string string_or_empty(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_string()) return {};
  return j.at(key).get<std::string>();
}

}  // namespace gpubench::reports::import
