#include "core/cluster_schedule.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>

namespace gpubench::core {

std::vector<pair_round> round_robin(std::size_t nodes) {
  std::vector<pair_round> rounds;
  if (nodes < 2) return rounds;
  // Odd N: a phantom node makes the count even; its partner of the round sits out.
  const std::size_t m = nodes % 2 == 0 ? nodes : nodes + 1;
  const std::size_t ring = m - 1;  // node m-1 stays fixed, the others turn around it
  rounds.reserve(ring);
  for (std::size_t r = 0; r < ring; ++r) {
    pair_round round;
    round.reserve(m / 2);
    auto add = [&](std::size_t x, std::size_t y) {
      if (x >= nodes || y >= nodes) return;  // the phantom's partner is idle
      round.push_back({std::min(x, y), std::max(x, y)});
    };
    add(r, m - 1);
    for (std::size_t i = 1; i < m / 2; ++i)
      add((r + i) % ring, (r + ring - i) % ring);
    rounds.push_back(std::move(round));
  }
  return rounds;
}

std::vector<pair_round> random_matchings(std::size_t nodes, std::size_t k, std::uint64_t seed,
                                         const std::vector<std::string>& /*leaves*/) {
  // The circle method's rounds are edge-disjoint perfect matchings; on randomly relabelled
  // nodes, K of them are K random matchings with K distinct partners per node.
  std::vector<std::size_t> label(nodes);
  std::iota(label.begin(), label.end(), std::size_t{0});
  std::mt19937_64 draw(seed);
  std::shuffle(label.begin(), label.end(), draw);
  auto rounds = round_robin(nodes);
  std::shuffle(rounds.begin(), rounds.end(), draw);
  rounds.resize(std::min(k, rounds.size()));
  for (auto& round : rounds)
    for (auto& p : round) {
      const auto [x, y] = std::minmax(label[p.a], label[p.b]);
      p = {x, y};
    }
  return rounds;
}

std::vector<pair_round> split_rounds(const std::vector<pair_round>& rounds,
                                     std::size_t concurrency) {
  if (concurrency == 0) return rounds;
  std::vector<pair_round> out;
  for (const auto& round : rounds)
    for (std::size_t i = 0; i < round.size(); i += concurrency)
      out.emplace_back(
          round.begin() + static_cast<std::ptrdiff_t>(i),
          round.begin() + static_cast<std::ptrdiff_t>(std::min(round.size(), i + concurrency)));
  return out;
}

}  // namespace gpubench::core
