#include "shared_comm.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace gpubench::tests::standin::nccl {

namespace {

struct header {
  std::atomic<std::int32_t> nranks;
  std::atomic<std::uint64_t> capacity;
  rank_state ranks[max_ranks];
};

constexpr std::size_t page = 4096;
constexpr std::size_t header_bytes = (sizeof(header) + page - 1) / page * page;

header& head(void* base) {
  return *static_cast<header*>(base);
}

bool process_gone(std::int32_t pid) {
  return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
}

}  // namespace

shared_comm::shared_comm(const std::string& token, int nranks, int rank, std::size_t capacity)
    : m_name("/gpubench-standin-nccl-" + token),
      m_nranks(nranks),
      m_rank(rank),
      m_capacity(capacity) {
  if (nranks < 1 || nranks > max_ranks || rank < 0 || rank >= nranks)
    throw std::runtime_error("rank " + std::to_string(rank) + " of " + std::to_string(nranks) +
                             ": the stand-in takes 1 to " + std::to_string(max_ranks) + " ranks");
  m_size = header_bytes + static_cast<std::size_t>(nranks) * capacity;
  const int fd = ::shm_open(m_name.c_str(), O_RDWR | O_CREAT, 0600);
  if (fd < 0) throw std::runtime_error("shm_open " + m_name + ": " + std::strerror(errno));
  struct stat st {};
  // Every rank sizes it the same; a segment already larger means another rank count.
  if (::fstat(fd, &st) != 0 || (static_cast<std::size_t>(st.st_size) < m_size &&
                                ::ftruncate(fd, static_cast<off_t>(m_size)) != 0)) {
    const int err = errno;
    ::close(fd);
    throw std::runtime_error("sizing " + m_name + ": " + std::strerror(err));
  }
  m_base = ::mmap(nullptr, m_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (m_base == MAP_FAILED) {
    m_base = nullptr;
    throw std::runtime_error("mapping " + m_name + ": " + std::strerror(errno));
  }
  std::int32_t expected = 0;
  head(m_base).nranks.compare_exchange_strong(expected, nranks);
  std::uint64_t cap = 0;
  head(m_base).capacity.compare_exchange_strong(cap, capacity);
  const int agreed = head(m_base).nranks.load();
  const std::uint64_t agreed_cap = head(m_base).capacity.load();
  if (agreed != nranks || agreed_cap != capacity) {
    ::munmap(m_base, m_size);
    m_base = nullptr;
    throw std::runtime_error("ranks disagree on the communicator: rank " + std::to_string(rank) +
                             " was told " + std::to_string(nranks) + " ranks, another rank " +
                             std::to_string(agreed));
  }
  state(rank).pid.store(static_cast<std::int32_t>(::getpid()));
}

shared_comm::~shared_comm() {
  unlink();
  if (m_base) ::munmap(m_base, m_size);
}

rank_state& shared_comm::state(int r) const {
  return head(m_base).ranks[r];
}

std::byte* shared_comm::slot(int r) const {
  return static_cast<std::byte*>(m_base) + header_bytes + static_cast<std::size_t>(r) * m_capacity;
}

void shared_comm::join() {
  state(m_rank).joined.store(1);
}

void shared_comm::mark_aborted() {
  state(m_rank).aborted.store(1);
}

void shared_comm::unlink() {
  ::shm_unlink(m_name.c_str());  // ENOENT when another rank was first: fine
}

wait_failure shared_comm::wait(const std::function<bool()>& done,
                               const std::atomic<bool>& local_abort,
                               std::chrono::milliseconds timeout, const std::string& what) const {
  const auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::microseconds(10);
  auto next_pid_check = start;
  while (!done()) {
    if (local_abort.load()) return {what + ": communicator aborted on this rank", false};
    for (int r = 0; r < m_nranks; ++r)
      if (r != m_rank && state(r).aborted.load())
        return {what + ": rank " + std::to_string(r) + " aborted the communicator", true};
    const auto now = std::chrono::steady_clock::now();
    if (now >= next_pid_check) {
      for (int r = 0; r < m_nranks; ++r)
        if (r != m_rank && process_gone(state(r).pid.load()))
          return {what + ": the process of rank " + std::to_string(r) + " (pid " +
                      std::to_string(state(r).pid.load()) + ") exited",
                  true};
      next_pid_check = now + std::chrono::milliseconds(100);
    }
    if (timeout.count() > 0 && now - start > timeout)
      return {what + ": not done after " + std::to_string(timeout.count()) + " ms", true};
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
  return {};
}

}  // namespace gpubench::tests::standin::nccl
