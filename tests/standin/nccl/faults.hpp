// The stand-in NCCL's fault switches, set by a test in GPUBENCH_STANDIN_NCCL_FAULT as
// "kind:rank[:op]": the communicator rank `rank` misbehaves at its `op`-th operation (1 is
// the first; default 1). Kinds: never_join (the rank never joins ncclCommInitRank),
// async_error (an asynchronous error in the middle of the operation), corrupt (one element
// of the result is wrong), hang (the operation never completes until ncclCommAbort).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpubench::tests::standin::nccl {

enum class fault_kind { never_join, async_error, corrupt, hang };

struct fault {
  fault_kind kind = fault_kind::hang;
  int rank = 0;
  std::uint64_t op = 1;
};

// The switch as written (`text`), or nothing when empty; throws std::invalid_argument
// naming what is wrong.
std::optional<fault> parse_fault(const std::string& text);
std::string to_string(fault_kind k);

}  // namespace gpubench::tests::standin::nccl
