// The round-robin schedule of cluster mode's pair measurements (the circle method): every
// node pair exactly once, every node in at most one pair per round, N-1 rounds for even N and
// N rounds (one node idle in each) for odd N; a cap on pairs at once splits a round.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpubench::core {

struct node_pair {
  std::size_t a = 0;  // a < b
  std::size_t b = 0;
};

using pair_round = std::vector<node_pair>;

// The rounds of `nodes` nodes (none for fewer than two).
std::vector<pair_round> round_robin(std::size_t nodes);

// K disjoint perfect matchings of `nodes` nodes drawn from `seed` (--pairs matchings:K): every
// node in at most one pair per round (one idle per round for odd N), against K distinct partners
// over the K rounds; the same seed gives the same rounds with any standard library. K is capped
// at the rounds of all pairs (N-1, or N for odd N).
// `leaves` (each node's leaf switch; "" a node the shape does not place; empty: not known), with
// two leaves or more: the first ceil(K/2) rounds pair nodes within their leaf (a node left over
// in an odd leaf, or in a leaf with fewer nodes than rounds, meets another leaf's), the other
// floor(K/2) pair nodes of different leaves, so a node's figures with and without an uplink on
// the path tell a slow uplink from a slow node. Where the leaves cannot give that many new pairs
// (a leaf of more than half the nodes, tiny leaves), a node sits out of a round rather than meet
// a partner twice.
std::vector<pair_round> random_matchings(std::size_t nodes, std::size_t k, std::uint64_t seed,
                                         const std::vector<std::string>& leaves = {});

// Each round split into sub-rounds of at most `concurrency` pairs (0: no cap), in order.
std::vector<pair_round> split_rounds(const std::vector<pair_round>& rounds,
                                     std::size_t concurrency);

}  // namespace gpubench::core
