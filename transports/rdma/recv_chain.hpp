// Receives posted as chained lists built in fixed arrays on the stack: the send-bandwidth
// receiver re-posts every consumed receive on its hot path, where at 10 Mpps and more a heap
// allocation per batch costs enough to let the receive queue run dry (RNR).
#pragma once

#include <infiniband/verbs.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

namespace gpubench::transports::rdma {

// Receives in one chained ibv_post_recv at most: the poll batch of the receiver (32) fits in
// one chain; the initial fill (up to the receive depth) takes several.
inline constexpr std::size_t recv_chain_max = 64;

// One receive per id, each into `sge` (the same buffer: its content is never read), posted
// through `post(head, bad)` (ibv_post_recv's contract: 0 or an errno, `bad` the refused work
// request) in chains of at most recv_chain_max. Returns 0, or the first failure's code with
// `refused` the id of the work request the provider refused (the arrays are gone by then).
template <typename Post>
int post_receive_chains(std::span<const std::uint64_t> ids, const ibv_sge& sge, Post&& post,
                        std::uint64_t& refused) {
  // Every field the provider reads is set below: no zero-filling per call.
  ibv_sge sges[recv_chain_max];
  ibv_recv_wr wrs[recv_chain_max];
  for (std::size_t start = 0; start < ids.size(); start += recv_chain_max) {
    const std::size_t n = std::min(recv_chain_max, ids.size() - start);
    for (std::size_t i = 0; i < n; ++i) {
      sges[i] = sge;
      wrs[i].wr_id = ids[start + i];
      wrs[i].sg_list = &sges[i];
      wrs[i].num_sge = 1;
      wrs[i].next = i + 1 < n ? &wrs[i + 1] : nullptr;
    }
    ibv_recv_wr* bad = nullptr;
    if (const int rc = post(&wrs[0], bad); rc != 0) {
      refused = bad ? bad->wr_id : ids[start];
      return rc;
    }
  }
  return 0;
}

}  // namespace gpubench::transports::rdma
