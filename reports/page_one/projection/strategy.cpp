#include "reports/page_one/projection/strategy.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/units.hpp"

namespace gpubench::reports::page_one::projection {

using model::training_strategy;

namespace {

// `total` bytes in pieces of `bucket` (0: one piece): whole buckets, then the rest.
std::vector<std::pair<double, double>> pieces(double total, double bucket) {
  if (!(bucket > 0) || bucket >= total) return {{total, 1}};
  const double whole = std::floor(total / bucket);
  std::vector<std::pair<double, double>> out = {{bucket, whole}};
  if (const double rest = total - whole * bucket; rest > 0) out.push_back({rest, 1});
  return out;
}

std::string count_with_suffix(double n) {
  if (n >= 1e9) return fmt::format("{:.4g} B", n / 1e9);
  if (n >= 1e6) return fmt::format("{:.4g} M", n / 1e6);
  if (n >= 1e3) return fmt::format("{:.4g} K", n / 1e3);
  return fmt::format("{:.4g}", n);
}

}  // namespace

std::vector<message> messages_per_step(const model::training_model& m, double parameters) {
  std::vector<message> out;
  switch (m.strategy) {
    case training_strategy::data_parallel:
      for (const auto& [bytes, n] : pieces(parameters * m.element_bytes, m.bucket_bytes))
        out.push_back({"allreduce", bytes, n, "gradient"});
      break;
    case training_strategy::sharded:
      for (const auto& [bytes, n] : pieces(parameters * m.element_bytes, m.bucket_bytes)) {
        out.push_back({"allgather", bytes, 2 * n, "parameters, forward and backward"});
        out.push_back({"reduce_scatter", bytes, n, "gradient"});
      }
      break;
    case training_strategy::moe:
      out.push_back({"alltoall", m.moe.tokens * m.moe.top_k * m.moe.hidden * m.element_bytes,
                     4 * m.moe.layers, "tokens, dispatch and combine, forward and backward"});
      break;
  }
  return out;
}

std::vector<std::string> operations_of(training_strategy s) {
  switch (s) {
    case training_strategy::data_parallel:
      return {"allreduce"};
    case training_strategy::sharded:
      return {"reduce_scatter", "allgather"};
    case training_strategy::moe:
      return {"alltoall"};
  }
  return {};
}

std::string operation_text(std::string_view operation) {
  if (operation == "allgather") return "all-gather";
  if (operation == "reduce_scatter") return "reduce-scatter";
  if (operation == "alltoall") return "all-to-all";
  return std::string(operation);
}

std::string size_text(double bytes) {
  const auto whole = static_cast<std::uint64_t>(bytes);
  if (bytes >= 1024 && double(whole) == bytes && whole % 1024 == 0) {
    // Binary only when it reads as a round number: 128 MiB, not 5859375 KiB.
    std::uint64_t v = whole;
    while (v % 1024 == 0)
      v /= 1024;
    if (v < 1024) return core::format_bytes(whole);
  }
  if (bytes >= 1e12) return fmt::format("{:.4g} TB", bytes / 1e12);
  if (bytes >= 1e9) return fmt::format("{:.4g} GB", bytes / 1e9);
  if (bytes >= 1e6) return fmt::format("{:.4g} MB", bytes / 1e6);
  if (bytes >= 1e3) return fmt::format("{:.4g} KB", bytes / 1e3);
  return fmt::format("{:.4g} B", bytes);
}

std::vector<model_size> models_of(const model::training_model& m) {
  if (m.strategy == training_strategy::moe)
    return {{0, fmt::format("{} MoE layers", count_with_suffix(m.moe.layers)),
             fmt::format("{} tokens per rank per step, top-{}, hidden {}",
                         count_with_suffix(m.moe.tokens), count_with_suffix(m.moe.top_k),
                         count_with_suffix(m.moe.hidden))}};
  if (m.parameters > 0)
    return {{m.parameters, count_with_suffix(m.parameters) + " parameters",
             "the model given (--params)"}};
  return {
      {25e6, "25 M parameters", "ResNet-50 (25.6 M; ImageNet image classification)"},
      {350e6, "350 M parameters", "BERT-large (340 M); ~350 M-parameter models"},
      {1.5e9, "1.5 B parameters", "GPT-2 XL (1.56 B)"},
  };
}

}  // namespace gpubench::reports::page_one::projection
