#include "reports/import/nccl_tests_infer.hpp"

#include <cmath>

#include <fmt/format.h>

namespace gpubench::reports::import {

namespace {

// Bytes per element of nccl-tests' type names; 0 when unknown.
double element_bytes(const std::string& type) {
  if (type == "int8" || type == "uint8" || type == "char" || type.starts_with("f8") ||
      type.starts_with("fp8"))
    return 1;
  if (type == "half" || type == "bfloat16" || type == "bf16" || type == "float16" || type == "fp16")
    return 2;
  if (type == "float" || type == "int32" || type == "uint32" || type == "int" || type == "float32")
    return 4;
  if (type == "double" || type == "int64" || type == "uint64" || type == "float64") return 8;
  return 0;
}

bool near(double a, double b) {
  return std::fabs(a - b) <= 0.02 * std::max(std::fabs(b), 0.05);
}

}  // namespace

nccl_inference infer_nccl_operation(const nccl_row_shape& r, std::optional<int> ranks) {
  if (!(r.algbw > 0) || !(r.busbw > 0) || r.count == 0)
    return {{}, "its largest size prints no bandwidth to read the bus-bandwidth factor from"};
  const double factor = r.busbw / r.algbw;
  const bool reduces = !r.redop.empty() && r.redop != "none";
  const double el = element_bytes(r.type);
  // size / (count x element size): 1 where every rank's buffer is the whole size; the rank
  // count where each rank holds a share (all_gather, reduce_scatter, alltoall, gather, scatter).
  std::optional<double> share;
  if (el > 0) share = static_cast<double>(r.bytes) / (static_cast<double>(r.count) * el);
  const bool whole = share && near(*share, 1);
  const bool split = share && *share > 1.5 && near(*share, std::round(*share));
  // alltoall and sendrecv check the out-of-place result only (nccl-tests sets no check in place).
  const bool out_only = r.out_of_place_checked && r.has_in_place && !r.in_place_checked;
  const bool both_checked = r.out_of_place_checked && r.in_place_checked;
  const std::string evidence = fmt::format(
      "busbw / algbw {:.2f}, redop '{}', root {}, size = {} x count x {} B ({})", factor,
      r.redop.empty() ? "(blank)" : r.redop, r.root ? std::to_string(*r.root) : "(not printed)",
      share ? fmt::format("{:.0f}", *share) : "?", el, r.type.empty() ? "no type" : r.type);
  const auto found = [&](const char* op, std::string why) {
    return nccl_inference{op, fmt::format("inferred from the table: {} ({})", why, evidence)};
  };
  const auto ambiguous = [&](std::string which) {
    return nccl_inference{{}, fmt::format("{} fit the table ({})", which, evidence)};
  };
  // Only all_reduce has a factor above 1: 2(n-1)/n.
  if (factor > 1.05) {
    if (ranks && !near(factor, 2.0 * (*ranks - 1) / *ranks))
      return ambiguous(fmt::format("no operation of {} ranks", *ranks));
    return found("all_reduce", "a bus-bandwidth factor above 1 is all_reduce's 2(n-1)/n");
  }
  if (out_only) {
    if (whole) return found("sendrecv", "out-of-place checked only, each rank the whole size");
    if (split) return found("alltoall", "out-of-place checked only, each rank a share");
  }
  const bool rooted = r.root && *r.root >= 0;
  if (rooted) {
    if (whole && reduces) return found("reduce", "a root and a reduction");
    if (whole) return found("broadcast", "a root and no reduction");
    return ambiguous("gather and scatter");
  }
  const bool unrooted = r.root.has_value();  // -1 printed; none: the column is missing
  if (reduces && split) return found("reduce_scatter", "a reduction, each rank a share");
  if (reduces && whole && near(factor, 1)) {
    // all_reduce of 2 ranks (2(n-1)/n = 1), or reduce (no root column), or an older sendrecv
    // that printed 'sum': the in-place check tells sendrecv apart, the root column reduce.
    if (both_checked && unrooted && (!ranks || *ranks == 2))
      return found("all_reduce", "a reduction over 2 ranks, both placements checked");
    return ambiguous("all_reduce of 2 ranks, reduce and sendrecv");
  }
  if (!reduces && whole && near(factor, 1)) {
    if (unrooted) return found("sendrecv", "no root, no reduction, each rank the whole size");
    return ambiguous("sendrecv and broadcast");
  }
  if (!reduces && split && near(factor, 1))
    return found("hypercube", "factor 1, each rank a share");
  if (!reduces && split && factor < 1) {
    if (both_checked) return found("all_gather", "a share per rank, both placements checked");
    return ambiguous("all_gather and alltoall");
  }
  return ambiguous("no operation gpubench knows the shape of");
}

}  // namespace gpubench::reports::import
