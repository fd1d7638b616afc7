// Runs independent pieces of work (reading result files, comparing runs) on the machine's
// cores: fn(i) for every i in [0, n), a few worker threads taking the next index. A failure is
// rethrown after every worker has stopped, the lowest index's first, so the error a user sees
// does not depend on which thread was faster.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace gpubench::core {

template <class Fn>
void parallel_for(std::size_t n, Fn fn) {
  const std::size_t workers =
      std::min<std::size_t>(n, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::exception_ptr> errors(n);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < n; i = next++) {
      try {
        fn(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  {
    std::vector<std::jthread> threads;
    for (std::size_t w = 1; w < workers; ++w)
      threads.emplace_back(work);
    work();
  }  // the jthreads join here
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace gpubench::core
