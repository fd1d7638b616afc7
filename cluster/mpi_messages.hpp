// Cluster mode's point-to-point messages over MPI: JSON documents with a tag, and every
// receive bounded by a deadline (MPI_Iprobe in a loop), so a silent rank never hangs rank 0.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace gpubench::cluster {

inline constexpr int tag_command = 7101;  // rank 0 -> a rank: what to do next
inline constexpr int tag_report = 7102;   // a rank -> rank 0: what it measured
inline constexpr int tag_peer = 7103;     // between the two ends of a pair

using deadline = std::chrono::steady_clock::time_point;

// Sends `doc` to world rank `dest`; false when it was not taken by `until`.
bool send_json(int dest, int tag, const nlohmann::json& doc, deadline until);

struct message {
  int source = 0;
  nlohmann::json doc;
};

// The next message with `tag` from `source` (MPI_ANY_SOURCE: any rank), or nothing at `until`,
// or as soon as `give_up` (called while waiting, on this thread) says true.
std::optional<message> receive_json(int source, int tag, deadline until,
                                    const std::function<bool()>& give_up = {});

// Rank 0's `text` (exactly `width` characters there; ignored elsewhere) on every rank. A
// collective (MPI_Bcast): every rank calls it, under the caller's watchdog.
std::string broadcast_from_rank0(const std::string& text, std::size_t width);

}  // namespace gpubench::cluster
