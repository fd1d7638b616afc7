// The operations beside allreduce (benchmarks/collectives/<op>.cpp): their buffers, bus
// factors as nccl-tests defines them, and their data checks against a host simulation of what
// MPI and NCCL promise each call leaves on every rank.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "benchmarks/collectives/collective_math.hpp"
#include "benchmarks/collectives/collective_op.hpp"

namespace coll = gpubench::benchmarks::collectives;
using coll::dtype;
using transports_call = gpubench::transports::collective_call;

namespace {

using host_buf = std::vector<std::byte>;

std::vector<double> elements_of(const host_buf& b, dtype t) {
  std::vector<double> out(b.size() / coll::dtype_size(t));
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (t == dtype::float32) {
      float v;
      std::memcpy(&v, b.data() + 4 * i, 4);
      out[i] = v;
    } else if (t == dtype::int64) {
      std::int64_t v;
      std::memcpy(&v, b.data() + 8 * i, 8);
      out[i] = static_cast<double>(v);
    }
  }
  return out;
}

host_buf encode(const std::vector<double>& v, dtype t) {
  host_buf out(v.size() * coll::dtype_size(t));
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (t == dtype::float32) {
      const auto f = static_cast<float>(v[i]);
      std::memcpy(out.data() + 4 * i, &f, 4);
    } else {
      const auto n = static_cast<std::int64_t>(v[i]);
      std::memcpy(out.data() + 8 * i, &n, 8);
    }
  }
  return out;
}

// What each rank's receive buffer holds after the call, from every rank's send buffer (the
// libraries' documented semantics, written independently of the operations' checks).
std::vector<host_buf> simulate_call(transports_call call, const std::vector<host_buf>& send,
                                    const coll::op_counts& c, dtype t) {
  const int n = static_cast<int>(send.size());
  std::vector<std::vector<double>> in;
  for (const auto& s : send)
    in.push_back(elements_of(s, t));
  std::vector<host_buf> out;
  for (int r = 0; r < n; ++r) {
    std::vector<double> recv(c.recv, 0.0);
    const std::size_t b = c.call;
    for (std::size_t i = 0; i < c.recv; ++i) {
      switch (call) {
        case transports_call::allgather:  // block j of the result: rank j's send buffer
          recv[i] = in[i / b][i % b];
          break;
        case transports_call::reduce_scatter_sum:  // rank r: block r of the sum
          for (int j = 0; j < n; ++j)
            recv[i] += in[j][r * b + i];
          break;
        case transports_call::alltoall:  // block j: block r of rank j's send buffer
          recv[i] = in[i / b][r * b + i % b];
          break;
        case transports_call::broadcast:
          recv[i] = in[0][i];
          break;
        case transports_call::sendrecv:  // from the previous rank
          recv[i] = in[(r + n - 1) % n][i];
          break;
        case transports_call::allreduce_sum:
          for (int j = 0; j < n; ++j)
            recv[i] += in[j][i];
          break;
      }
    }
    out.push_back(encode(recv, t));
  }
  return out;
}

// Runs `op` over `ranks` simulated ranks: fills, simulates, and returns each rank's wrong
// elements; `corrupt` flips one element of rank 1's result first.
std::vector<std::uint64_t> check_over(const coll::collective_op& op, int ranks, std::uint64_t count,
                                      dtype t, bool corrupt = false) {
  const auto c = op.counts(count, ranks);
  const std::size_t e = coll::dtype_size(t);
  std::vector<host_buf> send;
  for (int r = 0; r < ranks; ++r) {
    host_buf s(c.send * e), recv(c.recv * e);
    op.fill({t, r, ranks, 5, c}, s, recv);
    send.push_back(s);
  }
  auto recv = simulate_call(op.call(), send, c, t);
  if (corrupt) recv[1][3 * e] ^= std::byte{0x01};
  std::vector<std::uint64_t> wrong;
  for (int r = 0; r < ranks; ++r)
    wrong.push_back(op.count_wrong({t, r, ranks, 5, c}, recv[static_cast<std::size_t>(r)]));
  return wrong;
}

std::vector<std::shared_ptr<const coll::collective_op>> new_ops() {
  return {coll::make_allgather(), coll::make_reduce_scatter(), coll::make_alltoall(),
          coll::make_broadcast(), coll::make_sendrecv()};
}

}  // namespace

TEST(CollectiveOps, BusFactorsAsNcclTestsDefineThem) {
  // nccl-tests doc/PERFORMANCE.md: (n-1)/n for all-gather, reduce-scatter and all-to-all; 1
  // for broadcast and send/recv; a single rank has none.
  EXPECT_DOUBLE_EQ(coll::make_allgather()->bus_factor(4), 0.75);
  EXPECT_DOUBLE_EQ(coll::make_reduce_scatter()->bus_factor(8), 0.875);
  EXPECT_DOUBLE_EQ(coll::make_alltoall()->bus_factor(2), 0.5);
  EXPECT_DOUBLE_EQ(coll::make_broadcast()->bus_factor(16), 1.0);
  EXPECT_DOUBLE_EQ(coll::make_sendrecv()->bus_factor(2), 1.0);
  for (const auto& op : new_ops()) {
    EXPECT_DOUBLE_EQ(op->bus_factor(1), 0.0) << op->name();
    EXPECT_TRUE(op->no_bandwidth(1).has_value()) << op->name();
    EXPECT_FALSE(op->no_bandwidth(2).has_value()) << op->name();
  }
}

TEST(CollectiveOps, SplitMessagesRoundDownToAMultipleOfTheRanks) {
  // 1000 elements over 3 ranks: blocks of 333, a message of 999 (nccl-tests does the same).
  const auto ag = coll::make_allgather()->counts(1000, 3);
  EXPECT_EQ(ag.total, 999u);
  EXPECT_EQ(ag.send, 333u);
  EXPECT_EQ(ag.recv, 999u);
  EXPECT_EQ(ag.call, 333u);
  const auto rs = coll::make_reduce_scatter()->counts(1000, 4);
  EXPECT_EQ(rs.total, 1000u);
  EXPECT_EQ(rs.send, 1000u);
  EXPECT_EQ(rs.recv, 250u);
  EXPECT_EQ(rs.call, 250u);
  const auto a2a = coll::make_alltoall()->counts(1000, 3);
  EXPECT_EQ(a2a.total, 999u);
  EXPECT_EQ(a2a.send, 999u);
  EXPECT_EQ(a2a.call, 333u) << "per peer";
  EXPECT_EQ(coll::make_allgather()->counts(2, 4).total, 0u) << "less than one element per rank";
  EXPECT_EQ(coll::make_broadcast()->counts(7, 4).total, 7u) << "broadcast does not split";
  EXPECT_EQ(coll::make_sendrecv()->counts(7, 4).call, 7u);
}

TEST(CollectiveOps, InPlaceOnlyWhereBothLibrariesAgree) {
  EXPECT_TRUE(coll::make_allgather()->supports_in_place());
  EXPECT_TRUE(coll::make_broadcast()->supports_in_place());
  EXPECT_FALSE(coll::make_reduce_scatter()->supports_in_place());
  EXPECT_FALSE(coll::make_alltoall()->supports_in_place());
  EXPECT_FALSE(coll::make_sendrecv()->supports_in_place());
}

TEST(CollectiveOps, ChecksPassOnTheRightResultAndCatchAWrongElement) {
  for (const auto& op : new_ops())
    for (const int ranks : {2, 3, 4})
      for (const dtype t : {dtype::float32, dtype::int64}) {
        const std::string what = op->name() + " over " + std::to_string(ranks);
        for (const auto w : check_over(*op, ranks, 1000, t))
          EXPECT_EQ(w, 0u) << what;
        const auto bad = check_over(*op, ranks, 1000, t, true);
        EXPECT_EQ(bad[1], 1u) << what << ": one flipped element on rank 1";
        EXPECT_EQ(bad[0], 0u) << what;
      }
}

TEST(CollectiveOps, ChecksCatchBlocksInTheWrongOrder) {
  // An all-gather that puts rank 1's block where rank 0's belongs, or an all-to-all that
  // sends every rank the same block, must not verify.
  const dtype t = dtype::int64;
  for (const auto& op : {coll::make_allgather(), coll::make_alltoall()}) {
    const auto c = op->counts(300, 3);
    const std::size_t e = coll::dtype_size(t);
    std::vector<host_buf> send;
    for (int r = 0; r < 3; ++r) {
      host_buf s(c.send * e), recv(c.recv * e);
      op->fill({t, r, 3, 5, c}, s, recv);
      send.push_back(s);
    }
    auto recv = simulate_call(op->call(), send, c, t);
    host_buf& r0 = recv[0];
    const std::size_t block = c.call * e;
    std::vector<std::byte> first(r0.begin(), r0.begin() + static_cast<long>(block));
    std::copy(r0.begin() + static_cast<long>(block), r0.begin() + static_cast<long>(2 * block),
              r0.begin());
    std::copy(first.begin(), first.end(), r0.begin() + static_cast<long>(block));
    EXPECT_GT(op->count_wrong({t, 0, 3, 5, c}, r0), 0u) << op->name();
  }
}

TEST(CollectiveOps, ReduceScatterWithTheWrongRanksDoesNotVerify) {
  const auto op = coll::make_reduce_scatter();
  const auto c = op->counts(400, 4);
  const dtype t = dtype::float32;
  std::vector<host_buf> send;
  for (int r = 0; r < 4; ++r) {
    host_buf s(c.send * 4), recv(c.recv * 4);
    op->fill({t, r, 4, 5, c}, s, recv);
    send.push_back(s);
  }
  const auto recv = simulate_call(op->call(), send, c, t);
  EXPECT_EQ(op->count_wrong({t, 2, 4, 5, c}, recv[2]), 0u);
  EXPECT_GT(op->count_wrong({t, 1, 4, 5, c}, recv[2]), 0u) << "rank 2's block is not rank 1's";
}

TEST(CollectiveOps, AnAllGatherThatLeavesItsOwnBlockOutOfPlaceDoesNotVerify) {
  const auto op = coll::make_allgather();
  const dtype t = dtype::int64;
  const auto c = op->counts(300, 3);
  for (const bool in_place : {false, true}) {
    std::vector<host_buf> send, filled;
    for (int r = 0; r < 3; ++r) {
      host_buf s(c.send * 8), recv(c.recv * 8);
      op->fill({t, r, 3, 5, c, in_place}, s, recv);
      send.push_back(s);
      filled.push_back(recv);
    }
    // A call that writes every block but rank 1's own, which stays as the fill left it.
    auto got = simulate_call(op->call(), send, c, t);
    const std::size_t block = c.call * 8;
    std::copy(filled[1].begin() + static_cast<long>(block),
              filled[1].begin() + static_cast<long>(2 * block),
              got[1].begin() + static_cast<long>(block));
    const auto wrong = op->count_wrong({t, 1, 3, 5, c, in_place}, got[1]);
    if (in_place)
      EXPECT_EQ(wrong, 0u) << "in place, the own block is the input";
    else
      // Elements whose check value is 0 (1 in 17) look written when left at zero.
      EXPECT_GT(wrong, c.call * 9 / 10) << "out of place, the call must write the own block";
  }
}

TEST(CollectiveOps, TheCheckNamesTheFirstWrongElementOfTheWholeBuffer) {
  // All-gather over 3 ranks, blocks of 40 float32: a correct result, then one element of
  // block 2 changed.
  const auto op = coll::make_allgather();
  const auto t = coll::dtype::float32;
  const auto c = op->counts(120, 3);
  std::vector<std::byte> recv(c.recv * 4);
  for (int r = 0; r < 3; ++r)
    coll::fill_check(
        coll::element_block(std::span(recv), t, static_cast<std::uint64_t>(r) * 40, 40), t, r, 5);
  EXPECT_EQ(op->check({t, 1, 3, 5, c}, recv).count, 0u);
  const float bad = 99;
  std::memcpy(recv.data() + 85 * 4, &bad, 4);  // block 2, its element 5
  const auto m = op->check({t, 1, 3, 5, c}, recv);
  EXPECT_EQ(m.count, 1u);
  EXPECT_EQ(m.first_index, 85u);
  EXPECT_EQ(m.got, 99.0);
  EXPECT_EQ(m.want, coll::check_value(2, 5, 5));
}
