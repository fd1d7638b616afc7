#include "cluster/mpi_messages.hpp"

#include <mpi.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "transports/mpi/mpi_comm.hpp"

namespace gpubench::cluster {

namespace {
// Waiting ranks share cores with measuring ones on small machines: poll gently.
void poll_pause() {
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
}
}  // namespace

bool send_json(int dest, int tag, const nlohmann::json& doc, deadline until) {
  auto text = std::make_unique<std::string>(doc.dump());
  MPI_Request request = MPI_REQUEST_NULL;
  transports::mpi::check(MPI_Isend(text->data(), static_cast<int>(text->size()), MPI_CHAR, dest,
                                   tag, MPI_COMM_WORLD, &request),
                         "MPI_Isend to rank " + std::to_string(dest));
  for (;;) {
    int done = 0;
    transports::mpi::check(MPI_Test(&request, &done, MPI_STATUS_IGNORE),
                           "MPI_Test of a send to rank " + std::to_string(dest));
    if (done) return true;
    if (std::chrono::steady_clock::now() >= until) {
      // MPI may still read the buffer of a request no one waits for: it is handed over to MPI
      // (never freed) rather than freed under it. Only a stalled receiver gets here.
      MPI_Request_free(&request);
      static_cast<void>(text.release());
      return false;
    }
    poll_pause();
  }
}

std::optional<message> receive_json(int source, int tag, deadline until,
                                    const std::function<bool()>& give_up) {
  for (;;) {
    int found = 0;
    MPI_Status status{};
    transports::mpi::check(MPI_Iprobe(source, tag, MPI_COMM_WORLD, &found, &status),
                           "MPI_Iprobe for tag " + std::to_string(tag));
    if (found) {
      int count = 0;
      transports::mpi::check(MPI_Get_count(&status, MPI_CHAR, &count), "MPI_Get_count");
      std::string text(static_cast<std::size_t>(count), '\0');
      transports::mpi::check(MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, tag,
                                      MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                             "MPI_Recv from rank " + std::to_string(status.MPI_SOURCE));
      return message{status.MPI_SOURCE, nlohmann::json::parse(text)};
    }
    if (std::chrono::steady_clock::now() >= until) return std::nullopt;
    if (give_up && give_up()) return std::nullopt;
    poll_pause();
  }
}

std::string broadcast_from_rank0(const std::string& text, std::size_t width) {
  int rank = 0;
  transports::mpi::check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  if (rank == 0 && text.size() != width)
    throw std::logic_error("broadcast_from_rank0: " + std::to_string(text.size()) +
                           " characters, expected " + std::to_string(width));
  std::string buffer = rank == 0 ? text : std::string(width, '\0');
  transports::mpi::check(
      MPI_Bcast(buffer.data(), static_cast<int>(width), MPI_CHAR, 0, MPI_COMM_WORLD),
      "MPI_Bcast from rank 0");
  return buffer;
}

}  // namespace gpubench::cluster
