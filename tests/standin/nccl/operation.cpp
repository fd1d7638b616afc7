#include "operation.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "comm.hpp"
#include "debug_log.hpp"

namespace gpubench::tests::standin::nccl {

std::string to_string(op_code c) {
  switch (c) {
    case op_code::all_reduce:
      return "ncclAllReduce";
    case op_code::all_gather:
      return "ncclAllGather";
    case op_code::reduce_scatter:
      return "ncclReduceScatter";
    case op_code::broadcast:
      return "ncclBroadcast";
    case op_code::point_to_point:
      return "ncclSend/ncclRecv group";
  }
  return "?";
}

std::size_t type_size(ncclDataType_t t) {
  switch (t) {
    case ncclInt8:
    case ncclUint8:
      return 1;
    case ncclInt32:
    case ncclUint32:
    case ncclFloat32:
      return 4;
    case ncclInt64:
    case ncclUint64:
    case ncclFloat64:
      return 8;
    default:
      return 0;
  }
}

bool supported_reduction(ncclRedOp_t op) {
  return op == ncclSum || op == ncclProd || op == ncclMax || op == ncclMin;
}

namespace {

template <typename T>
void reduce_typed(std::byte* acc, const std::byte* in, std::size_t count, ncclRedOp_t op) {
  for (std::size_t i = 0; i < count; ++i) {
    T a, b;
    std::memcpy(&a, acc + i * sizeof(T), sizeof(T));
    std::memcpy(&b, in + i * sizeof(T), sizeof(T));
    T r = op == ncclSum    ? static_cast<T>(a + b)
          : op == ncclProd ? static_cast<T>(a * b)
          : op == ncclMax  ? std::max(a, b)
                           : std::min(a, b);
    std::memcpy(acc + i * sizeof(T), &r, sizeof(T));
  }
}

void reduce_into(std::byte* acc, const std::byte* in, std::size_t count, ncclDataType_t t,
                 ncclRedOp_t op) {
  switch (t) {
    case ncclInt8:
      return reduce_typed<std::int8_t>(acc, in, count, op);
    case ncclUint8:
      return reduce_typed<std::uint8_t>(acc, in, count, op);
    case ncclInt32:
      return reduce_typed<std::int32_t>(acc, in, count, op);
    case ncclUint32:
      return reduce_typed<std::uint32_t>(acc, in, count, op);
    case ncclInt64:
      return reduce_typed<std::int64_t>(acc, in, count, op);
    case ncclUint64:
      return reduce_typed<std::uint64_t>(acc, in, count, op);
    case ncclFloat32:
      return reduce_typed<float>(acc, in, count, op);
    case ncclFloat64:
      return reduce_typed<double>(acc, in, count, op);
    default:
      throw std::logic_error("type checked at the call");
  }
}

// The corrupt fault: the first element of the result, off by 1000 in its own type.
void corrupt_first(std::byte* p, ncclDataType_t t) {
  std::byte one[8] = {};
  switch (t) {
    case ncclFloat32: {
      const float v = 1000;
      std::memcpy(one, &v, sizeof v);
      break;
    }
    case ncclFloat64: {
      const double v = 1000;
      std::memcpy(one, &v, sizeof v);
      break;
    }
    default: {
      const std::int64_t v = 1000 % (type_size(t) == 1 ? 100 : 1000000);
      std::memcpy(one, &v, type_size(t));  // little endian: the low bytes
    }
  }
  reduce_into(p, one, 1, t, ncclSum);
}

// What `op` puts in this rank's slot; p2p: a table of (offset, bytes) per peer, then data.
std::size_t post_part(const operation& op, std::byte* slot, int rank, int nranks,
                      std::size_t capacity) {
  const std::size_t block = op.count * type_size(op.type);
  std::size_t bytes = 0;
  const auto put = [&](const void* from, std::size_t n) {
    if (bytes + n > capacity)
      throw std::runtime_error("a part of " + std::to_string(bytes + n) +
                               " bytes is larger than the stand-in's slot of " +
                               std::to_string(capacity) +
                               " bytes per rank (GPUBENCH_STANDIN_NCCL_BYTES): use smaller sizes");
    std::memcpy(slot + bytes, from, n);
    bytes += n;
  };
  switch (op.code) {
    case op_code::all_reduce:
    case op_code::all_gather:
      put(op.send, block);
      break;
    case op_code::reduce_scatter:
      put(op.send, block * static_cast<std::size_t>(nranks));
      break;
    case op_code::broadcast:
      if (rank == op.root) put(op.send, block);
      break;
    case op_code::point_to_point: {
      std::vector<std::uint64_t> table(2 * static_cast<std::size_t>(nranks), 0);
      bytes = table.size() * sizeof(std::uint64_t);
      if (bytes > capacity) throw std::runtime_error("the stand-in's slot is too small");
      for (const auto& p : op.parts) {
        if (!p.send) continue;
        auto& entry = table[2 * static_cast<std::size_t>(p.peer)];
        if (table[2 * static_cast<std::size_t>(p.peer) + 1] != 0)
          throw std::runtime_error("two sends to rank " + std::to_string(p.peer) +
                                   " in one group (the stand-in takes one per peer)");
        entry = bytes;
        table[2 * static_cast<std::size_t>(p.peer) + 1] = p.bytes;
        put(p.buffer, p.bytes);
      }
      std::memcpy(slot, table.data(), table.size() * sizeof(std::uint64_t));
      break;
    }
  }
  return bytes;
}

// This rank's result, from every rank's slot.
void compute_result(const operation& op, const shared_comm& s) {
  const int n = s.nranks();
  const std::size_t esize = type_size(op.type);
  const std::size_t block = op.count * esize;
  auto* recv = static_cast<std::byte*>(op.recv);
  switch (op.code) {
    case op_code::all_reduce:
    case op_code::reduce_scatter: {
      const std::size_t at =
          op.code == op_code::all_reduce ? 0 : block * static_cast<std::size_t>(s.rank());
      std::vector<std::byte> acc(s.slot(0) + at, s.slot(0) + at + block);
      for (int r = 1; r < n; ++r)
        reduce_into(acc.data(), s.slot(r) + at, op.count, op.type, op.red);
      std::memcpy(recv, acc.data(), block);
      break;
    }
    case op_code::all_gather:
      for (int r = 0; r < n; ++r)
        std::memmove(recv + static_cast<std::size_t>(r) * block, s.slot(r), block);
      break;
    case op_code::broadcast:
      std::memmove(recv, s.slot(op.root), block);
      break;
    case op_code::point_to_point:
      for (const auto& p : op.parts) {
        if (p.send) continue;
        std::uint64_t entry[2];
        std::memcpy(entry,
                    s.slot(p.peer) + 2 * sizeof(std::uint64_t) * static_cast<std::size_t>(s.rank()),
                    sizeof entry);
        if (entry[1] != p.bytes)
          throw std::runtime_error("rank " + std::to_string(s.rank()) + " receives " +
                                   std::to_string(p.bytes) + " bytes from rank " +
                                   std::to_string(p.peer) + ", which sends it " +
                                   std::to_string(entry[1]));
        std::memcpy(p.buffer, s.slot(p.peer) + entry[0], p.bytes);
      }
      break;
  }
}

void fail(ncclComm& comm, ncclResult_t r, const std::string& why) {
  log_warn(comm.device, why);
  comm.set_async(r);
}

}  // namespace

void execute(ncclComm& comm, const operation& op) {
  shared_comm& s = *comm.shared;
  const int me = s.rank();
  const int n = s.nranks();
  const std::string what = to_string(op.code) + " #" + std::to_string(op.seq) + " on rank " +
                           std::to_string(me) + " of " + std::to_string(n);
  if (comm.async.load() != ncclSuccess || comm.aborting.load()) return;  // as a failed kernel
  constexpr std::chrono::milliseconds forever{0};
  if (comm.fault_at(fault_kind::hang, op.seq)) {
    log_info(comm.device, "fault switch: " + what + " never completes (until ncclCommAbort)");
    // Ended by an abort here or on another rank: either way the operation failed.
    const wait_failure f = s.wait([] { return false; }, comm.aborting, forever, what);
    return fail(comm, f.remote ? ncclRemoteError : ncclSystemError, f.what);
  }
  try {
    // My slot is free once every rank has read what I posted last.
    if (auto f = s.wait(
            [&] {
              for (int r = 0; r < n; ++r)
                if (s.state(r).consumed.load() + 1 < op.seq) return false;
              return true;
            },
            comm.aborting, forever, what + ", waiting for the ranks to read the previous one"))
      return fail(comm, f.remote ? ncclRemoteError : ncclSystemError, f.what);
    // The fault strikes before this rank's part reaches the others, and the operation stays
    // on the stream until ncclCommAbort, as a kernel whose proxy failed: every rank's
    // operation fails (the others' when this rank aborts).
    if (comm.fault_at(fault_kind::async_error, op.seq)) {
      fail(comm, ncclSystemError, "fault switch: asynchronous error in the middle of " + what);
      s.wait([] { return false; }, comm.aborting, forever, what);
      return;
    }
    rank_state& mine = s.state(me);
    mine.bytes.store(post_part(op, s.slot(me), me, n, s.capacity()));
    mine.op.store(static_cast<std::int32_t>(op.code));
    mine.count.store(op.count);
    mine.posted.store(op.seq);
    if (auto f = s.wait(
            [&] {
              for (int r = 0; r < n; ++r)
                if (s.state(r).posted.load() < op.seq) return false;
              return true;
            },
            comm.aborting, forever, what + ", waiting for every rank's part"))
      return fail(comm, f.remote ? ncclRemoteError : ncclSystemError, f.what);
    for (int r = 0; r < n; ++r) {
      const auto other = static_cast<op_code>(s.state(r).op.load());
      if (other != op.code || s.state(r).count.load() != op.count)
        return fail(comm, ncclInvalidUsage,
                    what + " with count " + std::to_string(op.count) + ", but rank " +
                        std::to_string(r) + " called " + to_string(other) + " with count " +
                        std::to_string(s.state(r).count.load()) +
                        ": every rank must call the same operations in the same order");
    }
    compute_result(op, s);
    if (comm.fault_at(fault_kind::corrupt, op.seq)) {
      void* target = op.count > 0 ? op.recv : nullptr;
      for (const auto& p : op.parts)
        if (!target && !p.send && p.bytes >= type_size(op.type)) target = p.buffer;
      log_info(comm.device, "fault switch: one element of " + what + " corrupted");
      if (target) corrupt_first(static_cast<std::byte*>(target), op.type);
    }
    mine.consumed.store(op.seq);
  } catch (const std::exception& e) {
    fail(comm, ncclInvalidUsage, what + ": " + e.what());
  }
}

}  // namespace gpubench::tests::standin::nccl
