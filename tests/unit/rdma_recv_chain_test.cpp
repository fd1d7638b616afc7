// Receives posted in chains built in fixed arrays (no allocation on the receiver's hot path):
// every id posted once, in order, each chain linked and ended, none longer than the arrays, and
// a refused work request named by its id.
#include <gtest/gtest.h>

#if GPUBENCH_TEST_VERBS
#include <numeric>
#include <vector>

#include "transports/rdma/recv_chain.hpp"

namespace rdma = gpubench::transports::rdma;

namespace {

struct recorded {
  std::vector<std::vector<std::uint64_t>> chains;
  int refuse_chain = -1;  // refuse this chain at its third work request
  int operator()(ibv_recv_wr* head, ibv_recv_wr*& bad) {
    std::vector<std::uint64_t> ids;
    for (ibv_recv_wr* w = head; w; w = w->next) {
      EXPECT_EQ(w->num_sge, 1);
      EXPECT_EQ(w->sg_list->lkey, 0x1234u);
      EXPECT_EQ(w->sg_list->length, 4096u);
      if (static_cast<int>(chains.size()) == refuse_chain && ids.size() == 2) {
        bad = w;
        chains.push_back(ids);
        return 12;  // ENOMEM: the queue is full
      }
      ids.push_back(w->wr_id);
    }
    chains.push_back(ids);
    return 0;
  }
};

ibv_sge buffer() {
  ibv_sge sge{};
  sge.addr = 0x10000;
  sge.length = 4096;
  sge.lkey = 0x1234;
  return sge;
}

}  // namespace

TEST(RdmaRecvChain, PostsEveryIdInBoundedChains) {
  for (const std::size_t count : {std::size_t{1}, std::size_t{32}, rdma::recv_chain_max,
                                  rdma::recv_chain_max + 1, std::size_t{512}}) {
    std::vector<std::uint64_t> ids(count);
    std::iota(ids.begin(), ids.end(), 100);
    recorded post;
    std::uint64_t refused = 0;
    EXPECT_EQ(rdma::post_receive_chains(ids, buffer(), post, refused), 0);
    std::vector<std::uint64_t> seen;
    for (const auto& chain : post.chains) {
      EXPECT_GE(chain.size(), 1u);
      EXPECT_LE(chain.size(), rdma::recv_chain_max);
      seen.insert(seen.end(), chain.begin(), chain.end());
    }
    EXPECT_EQ(seen, ids) << count << " receives";
    EXPECT_EQ(post.chains.size(), (count + rdma::recv_chain_max - 1) / rdma::recv_chain_max);
  }
}

TEST(RdmaRecvChain, ARefusalStopsAndNamesTheWorkRequest) {
  std::vector<std::uint64_t> ids(3 * rdma::recv_chain_max);
  std::iota(ids.begin(), ids.end(), 0);
  recorded post;
  post.refuse_chain = 1;
  std::uint64_t refused = 0;
  EXPECT_EQ(rdma::post_receive_chains(ids, buffer(), post, refused), 12);
  EXPECT_EQ(refused, rdma::recv_chain_max + 2);
  EXPECT_EQ(post.chains.size(), 2u) << "nothing is posted after a refused chain";
}
#endif
