// The training job the scaling projection models, as the user describes it on the command line
// of `gpubench report`: a model (parameter count, bytes per element) and a parallel strategy
// (data-parallel, sharded, mixture-of-experts), each option checked with a clear error.
#pragma once

#include <string>
#include <string_view>

namespace gpubench::reports::model {

enum class training_strategy { data_parallel, sharded, moe };

// "data-parallel" | "sharded" | "moe": the names the command line takes and the report prints.
std::string to_string(training_strategy s);

// The all-to-all shape of a mixture-of-experts layer: every token a rank holds goes to top_k
// experts and comes back, hidden elements each.
struct moe_shape {
  double layers = 0;  // MoE layers of the model
  double tokens = 0;  // tokens per rank per step (micro-batch x sequence length)
  double hidden = 0;  // hidden size (elements per token)
  double top_k = 1;   // experts each token is routed to
};

struct training_model {
  training_strategy strategy = training_strategy::data_parallel;
  double parameters = 0;     // 0: the built-in model sizes (data-parallel and sharded)
  double element_bytes = 4;  // bytes per parameter, gradient and activation element
  double bucket_bytes = 0;   // 0: the whole gradient (or parameter set) as one message
  moe_shape moe;
};

// The options as typed (empty: not given), so that one function checks them together.
struct training_text {
  std::string strategy, parameters, element_bytes, bucket;
  std::string moe_layers, moe_tokens, moe_hidden, moe_top_k;
};

// Throws core::usage_error naming the option and what it takes: an unknown strategy, a count
// that is not a positive number ("1.5B", "340M", "7e9"), bytes not one of 1, 2, 4, 8 (or fp8,
// bf16, fp16, fp32, fp64), a bucket that is not a byte size, the --moe-* options without
// --strategy moe or --strategy moe without them, --params with moe.
training_model parse_training_model(const training_text& text);

// "1.5B", "340M", "25.6M", "7e9", "1000" -> the count; throws core::usage_error (naming
// `option`) unless it is a positive finite number.
double parse_count(std::string_view text, std::string_view option);

}  // namespace gpubench::reports::model
