// A plain timed memcpy loop, deliberately independent of gpubench's core, that
// scripts/compare-memcpy.sh sets beside memory.host.copy (threads=1) on the same sizes.
// Usage: memcpy_reference MIN_BYTES MAX_BYTES [SECONDS_PER_SIZE]
// Prints one line per size: bytes, median GB/s (1e9), best sample GB/s, samples.
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// Keeps the compiler from dropping or merging copies whose result is never read.
void clobber_memory() {
  asm volatile("" : : : "memory");
}

struct mapping {
  explicit mapping(std::size_t n) : size(n) {
    void* p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    data = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
    if (data) std::memset(data, 0x5a, n);  // first-touch faults stay out of the timing
  }
  ~mapping() {
    if (data) ::munmap(data, size);
  }
  mapping(const mapping&) = delete;
  mapping& operator=(const mapping&) = delete;
  std::size_t size;
  char* data = nullptr;
};

bool parse_size(const char* text, std::size_t& out) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || v == 0) return false;
  out = static_cast<std::size_t>(v);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t min = 0, max = 0;
  double seconds = 0.2;
  if (argc < 3 || !parse_size(argv[1], min) || !parse_size(argv[2], max) || min > max ||
      (argc > 3 && (seconds = std::atof(argv[3])) <= 0)) {
    std::fprintf(stderr, "usage: memcpy_reference MIN_BYTES MAX_BYTES [SECONDS_PER_SIZE]\n");
    return 2;
  }
  mapping src(max), dst(max);
  if (!src.data || !dst.data) {
    std::fprintf(stderr, "memcpy_reference: cannot map 2 x %zu bytes\n", max);
    return 1;
  }
  for (std::size_t i = 0; i < max; ++i)
    src.data[i] = static_cast<char>(i * 131u);
  using clock = std::chrono::steady_clock;
  for (std::size_t size = min; size <= max; size *= 2) {
    // A sample repeats small copies until it moves 8 MiB, so the clock's cost stays small.
    const std::size_t reps = std::max<std::size_t>(1, (std::size_t{8} << 20) / size);
    std::vector<double> gbps;
    const auto begin = clock::now();
    for (int warm = 0; warm < 2; ++warm)
      std::memcpy(dst.data, src.data, size);
    while (gbps.size() < 10 ||
           std::chrono::duration<double>(clock::now() - begin).count() < seconds) {
      const auto t0 = clock::now();
      for (std::size_t r = 0; r < reps; ++r) {
        std::memcpy(dst.data, src.data, size);
        clobber_memory();
      }
      const double s = std::chrono::duration<double>(clock::now() - t0).count();
      gbps.push_back(static_cast<double>(size * reps) / s / 1e9);
    }
    if (std::memcmp(dst.data, src.data, size) != 0) {
      std::fprintf(stderr, "memcpy_reference: copy of %zu bytes differs\n", size);
      return 1;
    }
    std::sort(gbps.begin(), gbps.end());
    const std::size_t n = gbps.size();
    const double median = n % 2 ? gbps[n / 2] : (gbps[n / 2 - 1] + gbps[n / 2]) / 2;
    std::printf("%zu %.4f %.4f %zu\n", size, median, gbps.back(), n);
    if (size > max / 2) break;  // no overflow past max
  }
  return 0;
}
