#include "reports/model/training_options.hpp"

#include <cmath>
#include <cstdlib>

#include "core/errors.hpp"
#include "core/units.hpp"

namespace gpubench::reports::model {

namespace {

[[noreturn]] void reject_option(std::string_view option, std::string_view text,
                                std::string_view wants) {
  throw core::usage_error(std::string(option) + " '" + std::string(text) +
                          "': " + std::string(wants));
}

training_strategy parse_strategy(std::string_view t) {
  if (t == "data-parallel" || t == "dp" || t == "ddp") return training_strategy::data_parallel;
  if (t == "sharded" || t == "fsdp" || t == "zero3") return training_strategy::sharded;
  if (t == "moe") return training_strategy::moe;
  reject_option("--strategy", t, "one of data-parallel (dp), sharded (fsdp, zero3), moe");
}

double parse_element_bytes(std::string_view t) {
  if (t == "fp8") return 1;
  if (t == "bf16" || t == "fp16") return 2;
  if (t == "fp32") return 4;
  if (t == "fp64") return 8;
  if (t == "1" || t == "2" || t == "4" || t == "8") return std::atof(std::string(t).c_str());
  reject_option("--element-bytes", t,
                "bytes per element: 1, 2, 4 or 8 (or fp8, bf16, fp16, fp32, fp64)");
}

}  // namespace

std::string to_string(training_strategy s) {
  switch (s) {
    case training_strategy::data_parallel:
      return "data-parallel";
    case training_strategy::sharded:
      return "sharded";
    case training_strategy::moe:
      return "moe";
  }
  return "?";
}

double parse_count(std::string_view text, std::string_view option) {
  const std::string s(text);
  char* end = nullptr;
  const double v = s.empty() ? 0 : std::strtod(s.c_str(), &end);
  const std::string suffix = s.empty() ? "" : std::string(end);
  double scale = 0;
  if (suffix.empty())
    scale = 1;
  else if (suffix == "K" || suffix == "k")
    scale = 1e3;
  else if (suffix == "M")
    scale = 1e6;
  else if (suffix == "B" || suffix == "G")
    scale = 1e9;
  else if (suffix == "T")
    scale = 1e12;
  if (s.empty() || end == s.c_str() || scale == 0 || !std::isfinite(v) || !(v > 0))
    reject_option(option, text,
                  "a positive count, with an optional decimal suffix K, M, B (or G), T "
                  "(e.g. 340M, 1.5B, 7e9)");
  return v * scale;
}

training_model parse_training_model(const training_text& t) {
  training_model m;
  if (!t.strategy.empty()) m.strategy = parse_strategy(t.strategy);
  if (!t.element_bytes.empty()) m.element_bytes = parse_element_bytes(t.element_bytes);
  const bool any_moe = !t.moe_layers.empty() || !t.moe_tokens.empty() || !t.moe_hidden.empty() ||
                       !t.moe_top_k.empty();
  if (m.strategy == training_strategy::moe) {
    if (t.moe_layers.empty() || t.moe_tokens.empty() || t.moe_hidden.empty())
      throw core::usage_error(
          "--strategy moe needs --moe-layers, --moe-tokens (per rank per step) and --moe-hidden");
    if (!t.parameters.empty() || !t.bucket.empty())
      throw core::usage_error(
          "--strategy moe projects the all-to-all of tokens only: --params and --bucket belong "
          "to data-parallel and sharded");
    m.moe.layers = parse_count(t.moe_layers, "--moe-layers");
    m.moe.tokens = parse_count(t.moe_tokens, "--moe-tokens");
    m.moe.hidden = parse_count(t.moe_hidden, "--moe-hidden");
    if (!t.moe_top_k.empty()) m.moe.top_k = parse_count(t.moe_top_k, "--moe-top-k");
    return m;
  }
  if (any_moe)
    throw core::usage_error(
        "--moe-layers, --moe-tokens, --moe-hidden and --moe-top-k need "
        "--strategy moe");
  if (!t.parameters.empty()) m.parameters = parse_count(t.parameters, "--params");
  if (!t.bucket.empty()) {
    try {
      m.bucket_bytes = static_cast<double>(core::parse_bytes(t.bucket));
    } catch (const core::usage_error& e) {
      throw core::usage_error(std::string("--bucket: ") + e.what());
    }
    if (!(m.bucket_bytes > 0))
      reject_option("--bucket", t.bucket, "a byte size above zero (e.g. 25MiB)");
  }
  return m;
}

}  // namespace gpubench::reports::model
