// What an RDMA case watches beside its completion queues, point by point: the device's
// asynchronous events (ibv_get_async_event: port down, QP or CQ in error, device lost) and
// the port's line rate, read again at every point.
#pragma once

#include <chrono>
#include <exception>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "transports/rdma/async_event.hpp"
#include "transports/rdma/endpoint.hpp"

namespace gpubench::transports::rdma {

class point_events {
 public:
  // Makes the device context's event descriptor non-blocking.
  explicit point_events(endpoint& ep);

  // A point starts: the events read now came between points and are kept with this one; the
  // port is queried again for its state and rate (the first time, the rate the case's peak
  // was taken from is kept to compare with). Throws when the port is not active.
  void begin();
  // The point is over: reads the events that came during it and throws naming the first that
  // fails it.
  void end();
  // The point failed with `e` (a completion in error, a timeout): waits up to `wait` for an
  // event that explains it, and throws `e`'s words led by the event; rethrows `e` when none
  // came.
  [[noreturn]] void failed(std::exception_ptr e, std::chrono::milliseconds wait);

  // For the point's extra: "async_events" when any came, and the point's own line rate where
  // it differs from the case's ("line_rate_gbyte_per_s", both directions for a both-ways
  // case, and "line_rate_change").
  nlohmann::json facts(bool both_directions) const;
  // The port's line rate at this point (one direction).
  const std::optional<line_rate>& rate() const { return m_rate; }

 private:
  void read(std::chrono::milliseconds wait, bool before_point);

  endpoint& m_ep;
  bool m_started = false;
  std::optional<line_rate> m_case_rate;
  std::optional<line_rate> m_rate;
  std::vector<async_event> m_events;  // this point's
};

}  // namespace gpubench::transports::rdma
