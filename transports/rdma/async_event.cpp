#include "transports/rdma/async_event.hpp"

#include <cmath>

#include <fmt/format.h>

namespace gpubench::transports::rdma {

bool fails_point(const std::string& name, bool ours) {
  // Device loss fails every point; the rest only when they name this case's objects.
  if (name == "IBV_EVENT_DEVICE_FATAL") return true;
  static constexpr const char* fatal[] = {
      "IBV_EVENT_PORT_ERR",      "IBV_EVENT_QP_FATAL", "IBV_EVENT_QP_REQ_ERR",
      "IBV_EVENT_QP_ACCESS_ERR", "IBV_EVENT_CQ_ERR",   "IBV_EVENT_SRQ_ERR",
      "IBV_EVENT_PATH_MIG_ERR",
  };
  if (!ours) return false;
  for (const char* f : fatal)
    if (name == f) return true;
  return false;
}

std::string event_text(const async_event& e, const std::string& device) {
  std::string s = e.name;
  if (!e.description.empty()) s += " (" + e.description + ")";
  s += e.element == "device" ? " on " + device : " on " + e.element + " of " + device;
  if (e.before_point) s += ", between points";
  return s;
}

std::optional<std::string> failure_of(const std::vector<async_event>& events,
                                      const std::string& device, const std::string& what) {
  std::string named;
  for (const auto& e : events)
    if (fails_point(e.name, e.ours)) named += (named.empty() ? "" : "; ") + event_text(e, device);
  if (named.empty()) return std::nullopt;
  return "asynchronous event " + named + (what.empty() ? std::string() : ": " + what);
}

nlohmann::json to_json(const async_event& e) {
  nlohmann::json j{{"event", e.name}, {"element", e.element}};
  if (!e.ours) j["other"] = true;  // another port, QP or CQ of the device
  if (!e.description.empty()) j["description"] = e.description;
  if (e.before_point) j["when"] = "between points";
  return j;
}

std::optional<std::string> rate_change(const std::optional<line_rate>& at_start,
                                       const std::optional<line_rate>& now) {
  if (!at_start || !now || !(at_start->gbit_per_s > 0)) return std::nullopt;
  if (std::fabs(now->gbit_per_s - at_start->gbit_per_s) <= 1e-3 * at_start->gbit_per_s)
    return std::nullopt;
  return fmt::format("{:.4g} Gb/s at the case's start, {:.4g} Gb/s at this point ({})",
                     at_start->gbit_per_s, now->gbit_per_s, now->basis);
}

}  // namespace gpubench::transports::rdma
