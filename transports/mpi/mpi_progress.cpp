#include "transports/mpi/mpi_progress.hpp"

#include "transports/mpi/mpi_comm.hpp"

namespace gpubench::transports::mpi {

namespace {

// A tag of its own on MPI_COMM_WORLD: nothing else sends point-to-point there.
constexpr int progress_tag = 0x6b17;

}  // namespace

progress_sender::progress_sender(std::vector<int> idle, std::chrono::milliseconds interval)
    : m_idle(std::move(idle)), m_interval(interval) {}

progress_sender::~progress_sender() {
  // Only reached without finish() when the case is being abandoned: free, never wait.
  for (auto& r : m_requests)
    if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
}

void progress_sender::beat() {
  if (m_idle.empty()) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - m_last < m_interval) return;
  m_last = now;
  for (const int r : m_idle) {
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Issend(nullptr, 0, MPI_BYTE, r, progress_tag, MPI_COMM_WORLD, &request),
          "MPI_Issend of a progress message to rank " + std::to_string(r));
    m_requests.push_back(request);
  }
}

void progress_sender::finish() {
  if (m_requests.empty()) return;
  check(MPI_Waitall(static_cast<int>(m_requests.size()), m_requests.data(), MPI_STATUSES_IGNORE),
        "MPI_Waitall of the progress messages to the idle ranks");
  m_requests.clear();
}

bool take_progress() {
  bool any = false;
  for (;;) {
    int flag = 0;
    check(MPI_Iprobe(0, progress_tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE),
          "MPI_Iprobe for progress messages");
    if (!flag) return any;
    check(MPI_Recv(nullptr, 0, MPI_BYTE, 0, progress_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "MPI_Recv of a progress message");
    any = true;
  }
}

}  // namespace gpubench::transports::mpi
