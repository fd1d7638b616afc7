// Enabling peer access between two GPUs in both directions, all or nothing: access is
// one-way, and a pair left enabled one way after the other way failed would make a later
// staged (peer access off) case silently direct one way.
#pragma once

#include <functional>
#include <utility>
#include <vector>

namespace gpubench::benchmarks::gpu {

struct peer_ops {
  // Turns access from -> to on; returns false when it was already on (nothing to undo).
  // Throws when it cannot be turned on.
  std::function<bool(int from, int to)> enable;
  // Turns access from -> to off again; must not throw.
  std::function<void(int from, int to)> disable;
};

// a -> b, then b -> a. Returns the directions this call turned on (to turn off later);
// when the second direction throws, the first is turned off again before the exception
// goes on.
inline std::vector<std::pair<int, int>> enable_both_ways(int a, int b, const peer_ops& ops) {
  std::vector<std::pair<int, int>> enabled;
  try {
    for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}})
      if (ops.enable(from, to)) enabled.emplace_back(from, to);
  } catch (...) {
    for (const auto& [from, to] : enabled)
      ops.disable(from, to);
    throw;
  }
  return enabled;
}

}  // namespace gpubench::benchmarks::gpu
