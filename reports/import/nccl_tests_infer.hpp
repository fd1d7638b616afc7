// The operation of an nccl-tests table that names none, from what the table itself says: the
// bus-bandwidth factor (busbw / algbw), the reduction and root columns, count x element size
// against size, and which placements nccl-tests checked (docs/import.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpubench::reports::import {

// What one row of the table says of its operation (the largest size is the most precise).
struct nccl_row_shape {
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
  std::string type;   // "float", "half", ...; "" when not printed
  std::string redop;  // "sum", "none", or "" (older builds leave it blank where nothing reduces)
  std::optional<long long> root;  // none: the column is not printed (the 2021 format)
  double algbw = 0, busbw = 0;
  bool out_of_place_checked = false;  // #wrong a number, not N/A
  bool in_place_checked = false;
  bool has_in_place = false;
};

struct nccl_inference {
  std::string operation;  // nccl-tests' name ("all_reduce"); empty when the table is ambiguous
  std::string from;       // what decided it, or (when ambiguous) the operations that fit and why
};

// `ranks`: the rank count where the log's device lines give it.
nccl_inference infer_nccl_operation(const nccl_row_shape& row, std::optional<int> ranks);

}  // namespace gpubench::reports::import
