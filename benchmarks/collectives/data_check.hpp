// The data check of every collective (nccl-tests' -c 1, on by default): before a size is
// timed, known values in every rank's buffers, one untimed call, and every element of every
// rank's receive buffer compared with what the call must leave there. A wrong element fails
// the case with the rank, the element's index and the values found and expected.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "benchmarks/collectives/collective_op.hpp"
#include "transports/collective_backend.hpp"
#include "transports/process_group.hpp"

namespace gpubench::benchmarks::collectives {

// The test hook that proves the check can fail: GPUBENCH_TEST_CORRUPT_CHECK="RANK:INDEX"
// makes rank RANK change element INDEX of its receive buffer after the checked call, as a
// faulty transport would. Read only by the data check (never by timed code); a value that is
// not two non-negative integers is an error, so a typo cannot pass a test silently.
struct planted_corruption {
  int rank = 0;
  std::uint64_t index = 0;
};
inline constexpr const char* corrupt_check_env = "GPUBENCH_TEST_CORRUPT_CHECK";
// Parses the hook's value; throws std::invalid_argument naming the variable.
planted_corruption parse_planted_corruption(const std::string& text);
// The hook from the environment, when set.
std::optional<planted_corruption> planted_corruption_from_env();

// What one check is of: the message (`count` elements of `type`, as op.counts() splits it
// over the ranks), whether in place, and the check's own seed.
struct check_request {
  dtype type = dtype::float32;
  bool in_place = false;
  op_counts counts;
  std::uint64_t count = 0;
  std::uint32_t seed = 1;
};

// Runs the check on every member of `group` together; throws std::runtime_error on a wrong
// element ("data check failed: ... rank 2, element 17: got 3, expected 4 ...").
void check_data(const collective_op& op, transports::collective_backend& backend,
                transports::process_group& group, const check_request& req);

}  // namespace gpubench::benchmarks::collectives
