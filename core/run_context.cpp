#include "core/run_context.hpp"

#include <charconv>

#include "core/errors.hpp"

namespace gpubench::core {

std::optional<std::string> run_context::option(const std::string& name) const {
  auto it = options.find(name);
  if (it == options.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

std::optional<long long> run_context::option_int(const std::string& name) const {
  auto text = option(name);
  if (!text) return std::nullopt;
  long long v = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc{} || end != text->data() + text->size())
    throw usage_error("--" + name + ": '" + *text + "' is not an integer");
  return v;
}

}  // namespace gpubench::core
