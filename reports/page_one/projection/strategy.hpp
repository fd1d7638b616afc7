// What one training step sends under a parallel strategy: which collective (by the kind's
// operation), at which message size as a result records it (nccl-tests' convention: allreduce
// the buffer each rank holds, allgather and reduce_scatter the total of all ranks' shards,
// alltoall the total each rank sends), and how many times per step. Pure arithmetic, so the
// projection's inputs can be checked by hand.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "reports/model/training_options.hpp"

namespace gpubench::reports::page_one::projection {

struct message {
  std::string operation;  // "allreduce", "allgather", "reduce_scatter", "alltoall"
  double bytes = 0;       // message size, nccl-tests' convention for the operation
  double per_step = 0;    // how many such messages one step sends
  std::string what;       // "gradient buckets", "parameters (forward and backward)"
};

// The messages of one step of a model of `parameters` parameters (ignored by moe):
// - data-parallel: the gradient G = parameters x element bytes, allreduced in buckets of
//   bucket bytes (the last one holds the rest; no bucket: G at once);
// - sharded (FSDP, ZeRO-3): per unit of bucket bytes (no bucket: the whole model), the
//   parameters all-gathered twice (forward, and again in backward after resharding) and the
//   gradient reduce-scattered once; sizes are the unit's total, each rank holds 1/n of it;
// - moe: per MoE layer four all-to-alls (dispatch and combine, forward and backward) of
//   tokens x top_k x hidden x element bytes.
std::vector<message> messages_per_step(const model::training_model& m, double parameters);

// The operations a strategy needs, in the order the section names them.
std::vector<std::string> operations_of(model::training_strategy s);

// "all-gather", "reduce-scatter", "all-to-all", "allreduce": an operation as prose names it.
std::string operation_text(std::string_view operation);

// A message size as the section writes it: binary units when exact ("128 MiB", as measured
// sweeps are), else decimal with four digits ("100 MB", "1.4 GB").
std::string size_text(double bytes);

// A model the section projects: the user's (--params), or one of the built-in sizes.
struct model_size {
  double parameters = 0;
  std::string name;   // "350 M parameters"
  std::string basis;  // "BERT-large (340 M)"
};
// The user's model when it gave --params; else 25 M, 350 M and 1.5 B parameters (ResNet-50,
// BERT-large, GPT-2 XL); for moe, one entry whose parameter count is unused.
std::vector<model_size> models_of(const model::training_model& m);

}  // namespace gpubench::reports::page_one::projection
