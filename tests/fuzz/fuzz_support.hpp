// What the fuzz targets share: the input as bytes, as a file the readers open by path, and
// how a broken property is reported (an abort, which libFuzzer records as a finding).
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>

namespace gpubench::fuzz {

inline std::span<const std::byte> bytes_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}

// A finding that is not a crash: a decoder accepted what it must refuse, or a round trip
// changed the bytes.
inline void require(bool ok, const char* property) {
  if (ok) return;
  std::fprintf(stderr, "fuzz property broken: %s\n", property);
  std::abort();
}

// The input as an anonymous in-memory file (memfd): the readers under test take a path, and
// nothing touches the disk or outlives the run.
class memory_file {
 public:
  explicit memory_file(std::span<const std::byte> content)
      : m_fd(::memfd_create("gpubench-fuzz", MFD_CLOEXEC)) {
    require(m_fd >= 0, "memfd_create failed");
    std::size_t done = 0;
    while (done < content.size()) {
      const ssize_t n = ::write(m_fd, content.data() + done, content.size() - done);
      require(n > 0, "writing the input to the memfd failed");
      done += static_cast<std::size_t>(n);
    }
  }
  memory_file(const memory_file&) = delete;
  memory_file& operator=(const memory_file&) = delete;
  ~memory_file() { ::close(m_fd); }

  std::filesystem::path path() const { return "/proc/self/fd/" + std::to_string(m_fd); }

 private:
  int m_fd;
};

}  // namespace gpubench::fuzz
