// One collective operation as the common driver sees it (nccl-tests' per-collective file):
// what each rank's buffers hold, which call the backends make, its bus-bandwidth factor and
// its data check. Each <op>.cpp here defines one and registers coll.<op>; the driver, the
// launch and the scaling table are shared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "benchmarks/collectives/collective_math.hpp"
#include "transports/collective_backend.hpp"

namespace gpubench::benchmarks::collectives {

// A message of `count` elements (the size a result reports is count x element size), as one
// rank's buffers and the library call see it.
// Operations that split the message over the ranks take a multiple of the ranks (nccl-tests
// rounds down the same way): `total` is the message as measured and reported, 0 when it is
// smaller than one element per rank.
struct op_counts {
  std::uint64_t total = 0;  // elements of the message (its size in the result)
  std::uint64_t send = 0;   // elements of the send buffer
  std::uint64_t recv = 0;   // elements of the receive buffer
  std::uint64_t call = 0;   // the count the library call is given
};

// What the data check knows of one rank: the element type, its rank among `ranks`, the
// seed of this check and the message.
struct check_args {
  dtype type = dtype::float32;
  int rank = 0;
  int ranks = 1;
  std::uint32_t seed = 1;
  op_counts counts;
  bool in_place = false;
};

class collective_op {
 public:
  virtual ~collective_op() = default;
  // "allreduce": the benchmark is coll.<name>, messages name the operation by it.
  virtual std::string name() const = 0;
  // The operation with its reduction, for the data check's message: "allreduce (sum)".
  virtual std::string label() const = 0;
  // The benchmark's one-line description (`gpubench list`).
  virtual std::string description() const = 0;
  // The library call the backends make (ncclAllReduce, MPI_Allreduce).
  virtual transports::collective_call call() const = 0;
  // Buffers and call count of a message of `count` elements over `ranks` ranks.
  virtual op_counts counts(std::uint64_t count, int ranks) const = 0;
  // busbw = algbw x bus_factor(n), n the ranks of the communicator under test (never the
  // world size), so that busbw compares with the link rate whatever n is.
  virtual double bus_factor(int ranks) const = 0;
  // Why a case of `ranks` ranks has no bus bandwidth (it is skipped with this reason, so it
  // never prints a bandwidth, enters a chart or becomes a scaling baseline), or nothing.
  virtual std::optional<std::string> no_bandwidth(int ranks) const = 0;
  // Whether the receive buffer may also be the send buffer (--place in).
  virtual bool supports_in_place() const { return true; }
  // The data check, outside timing: fills a rank's buffers (host copies) before one call,
  // then finds the elements of its receive buffer that differ from what the call must
  // leave there (how many, and the first one: index, value found, value expected).
  virtual void fill(const check_args& a, std::span<std::byte> send,
                    std::span<std::byte> recv) const = 0;
  virtual mismatches check(const check_args& a, std::span<const std::byte> recv) const = 0;
  std::uint64_t count_wrong(const check_args& a, std::span<const std::byte> recv) const {
    return check(a, recv).count;
  }
};

// One rank's block of a message of `count` elements split over `ranks`, rounded down as
// nccl-tests does (the message is then block x ranks).
inline std::uint64_t block_of(std::uint64_t count, int ranks) {
  return count / static_cast<std::uint64_t>(ranks);
}

// (n-1)/n, the share of a split message that crosses to other ranks; 0 for a single rank.
inline double others_share(int ranks) {
  return ranks <= 1 ? 0 : static_cast<double>(ranks - 1) / ranks;
}

// Why fewer than 2 ranks have no bus bandwidth, `what` moving no data between ranks ("all-gather
// over a single rank"); nothing from 2 ranks on.
inline std::optional<std::string> below_two_ranks(int ranks, const std::string& what) {
  if (ranks >= 2) return std::nullopt;
  return "one rank: " + what +
         " moves no data between ranks, so it has no bus bandwidth; measure 2 or more ranks";
}

// The collectives of this build, each defined in its own file (nccl-tests' operations).
std::shared_ptr<const collective_op> make_allreduce();
std::shared_ptr<const collective_op> make_allgather();
std::shared_ptr<const collective_op> make_reduce_scatter();
std::shared_ptr<const collective_op> make_alltoall();
std::shared_ptr<const collective_op> make_broadcast();
std::shared_ptr<const collective_op> make_sendrecv();

}  // namespace gpubench::benchmarks::collectives
