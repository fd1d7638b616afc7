// A device's asynchronous events (ibv_get_async_event) as a point records them, which of them
// fail the point, and how a change of the port's line rate between points is said: the pure
// part, without libibverbs (the reader is point_events.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "transports/rdma/port_rate.hpp"

namespace gpubench::transports::rdma {

struct async_event {
  std::string name;           // "IBV_EVENT_PORT_ERR"
  std::string description;    // libibverbs' words: "port error"
  std::string element;        // "port 1", "QP 0x11", "CQ", "device"
  bool ours = true;           // names this case's port, QP or CQ, or the device
  bool before_point = false;  // read at the start of the point: it came between points
};

// Events that leave the queue pair unable to finish the point: the port going down, the QP
// or a CQ in error, the device lost. The others (port active, LID, GID or P_Key change, SM
// change, client reregister, communication established, SQ drained, last WQE reached, SRQ
// limit) are recorded only, as is an event of another port, QP or CQ (`ours` false).
bool fails_point(const std::string& name, bool ours);

// "IBV_EVENT_PORT_ERR (port error) on port 1 of mlx5_0".
std::string event_text(const async_event& e, const std::string& device);
// The message a point fails with when `events` hold one that fails it; nullopt otherwise.
// `what` follows it when the point also failed on its own (a completion in error, a
// timeout): the event says why.
std::optional<std::string> failure_of(const std::vector<async_event>& events,
                                      const std::string& device, const std::string& what = "");

nlohmann::json to_json(const async_event& e);

// How a port's line rate differs from the one the case started with: "200 Gb/s at the case's
// start, 100 Gb/s at this point (...basis...)"; nullopt when it is the same (within 0.1 %) or
// either is unknown.
std::optional<std::string> rate_change(const std::optional<line_rate>& at_start,
                                       const std::optional<line_rate>& now);

}  // namespace gpubench::transports::rdma
