// One operation of a stand-in NCCL communicator and how it runs on its stream: every rank
// posts its part in its slot of the shared segment, waits for every other rank's, computes
// its result from them into its device buffer, and says it has read them. A collective is
// done on a rank only when every rank has posted: the ordering of NCCL on a GPU.
#pragma once

#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpubench::tests::standin::nccl {

enum class op_code : std::int32_t {
  all_reduce = 1,
  all_gather,
  reduce_scatter,
  broadcast,
  point_to_point
};
std::string to_string(op_code c);

// A send or receive of a group (all of a communicator's in one group run as one exchange).
struct p2p_part {
  bool send = true;
  void* buffer = nullptr;
  std::size_t bytes = 0;
  int peer = 0;
};

struct operation {
  op_code code = op_code::all_reduce;
  const void* send = nullptr;
  void* recv = nullptr;
  std::size_t count = 0;  // elements, as the call took them
  ncclDataType_t type = ncclFloat32;
  ncclRedOp_t red = ncclSum;
  int root = 0;
  std::vector<p2p_part> parts;
  std::uint64_t seq = 0;  // the communicator's 1, 2, 3, ...
};

// Bytes of one element; 0 for a type the stand-in does not reduce or move.
std::size_t type_size(ncclDataType_t t);
bool supported_reduction(ncclRedOp_t op);

}  // namespace gpubench::tests::standin::nccl

struct ncclComm;

namespace gpubench::tests::standin::nccl {

// Runs `op` on `comm` (on its stream's worker); failures become the communicator's
// asynchronous error, with a WARN line saying why.
void execute(ncclComm& comm, const operation& op);

}  // namespace gpubench::tests::standin::nccl
