// Synthetic per-sample values for the micro-benchmarks: bandwidth-like numbers with noise,
// from a fixed seed so every run measures the same work.
#pragma once

#include <cstddef>
#include <random>
#include <vector>

namespace gpubench::benchmarks::micro {

inline std::vector<double> noisy_samples(std::size_t n) {
  std::mt19937_64 gen(42);
  std::normal_distribution<double> dist(10.0, 0.2);
  std::vector<double> v(n);
  for (auto& x : v)
    x = dist(gen);
  return v;
}

}  // namespace gpubench::benchmarks::micro
