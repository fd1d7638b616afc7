#include "transports/rdma/point_events.hpp"

#include <fcntl.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace gpubench::transports::rdma {

namespace {

std::string event_name(ibv_event_type t) {
  switch (t) {
#define GPUBENCH_EVENT(x) \
  case IBV_EVENT_##x:     \
    return "IBV_EVENT_" #x;
    GPUBENCH_EVENT(CQ_ERR)
    GPUBENCH_EVENT(QP_FATAL)
    GPUBENCH_EVENT(QP_REQ_ERR)
    GPUBENCH_EVENT(QP_ACCESS_ERR)
    GPUBENCH_EVENT(COMM_EST)
    GPUBENCH_EVENT(SQ_DRAINED)
    GPUBENCH_EVENT(PATH_MIG)
    GPUBENCH_EVENT(PATH_MIG_ERR)
    GPUBENCH_EVENT(DEVICE_FATAL)
    GPUBENCH_EVENT(PORT_ACTIVE)
    GPUBENCH_EVENT(PORT_ERR)
    GPUBENCH_EVENT(LID_CHANGE)
    GPUBENCH_EVENT(PKEY_CHANGE)
    GPUBENCH_EVENT(SM_CHANGE)
    GPUBENCH_EVENT(SRQ_ERR)
    GPUBENCH_EVENT(SRQ_LIMIT_REACHED)
    GPUBENCH_EVENT(QP_LAST_WQE_REACHED)
    GPUBENCH_EVENT(CLIENT_REREGISTER)
    GPUBENCH_EVENT(GID_CHANGE)
    GPUBENCH_EVENT(WQ_FATAL)
#undef GPUBENCH_EVENT
  }
  return "IBV_EVENT_" + std::to_string(static_cast<int>(t));
}

// What the event names, and whether it is this case's.
void locate(const ibv_async_event& ev, const endpoint& ep, async_event& out) {
  switch (ev.event_type) {
    case IBV_EVENT_CQ_ERR:
      out.element = "CQ";
      out.ours = ep.owns_cq(ev.element.cq);
      return;
    case IBV_EVENT_QP_FATAL:
    case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR:
    case IBV_EVENT_COMM_EST:
    case IBV_EVENT_SQ_DRAINED:
    case IBV_EVENT_PATH_MIG:
    case IBV_EVENT_PATH_MIG_ERR:
    case IBV_EVENT_QP_LAST_WQE_REACHED:
      out.element = fmt::format("QP {:#x}", ev.element.qp ? ev.element.qp->qp_num : 0u);
      out.ours = ev.element.qp && ev.element.qp->qp_num == ep.qp_num();
      return;
    case IBV_EVENT_PORT_ACTIVE:
    case IBV_EVENT_PORT_ERR:
    case IBV_EVENT_LID_CHANGE:
    case IBV_EVENT_PKEY_CHANGE:
    case IBV_EVENT_SM_CHANGE:
    case IBV_EVENT_CLIENT_REREGISTER:
    case IBV_EVENT_GID_CHANGE:
      out.element = "port " + std::to_string(ev.element.port_num);
      out.ours = ev.element.port_num == ep.port_number();
      return;
    case IBV_EVENT_SRQ_ERR:
    case IBV_EVENT_SRQ_LIMIT_REACHED:
    case IBV_EVENT_WQ_FATAL:
      out.element = ev.event_type == IBV_EVENT_WQ_FATAL ? "WQ" : "SRQ";
      out.ours = false;  // a case uses neither
      return;
    case IBV_EVENT_DEVICE_FATAL:
      break;
  }
  out.element = "device";
}

}  // namespace

point_events::point_events(endpoint& ep) : m_ep(ep) {
  const int fd = ep.context()->async_fd;
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
    throw_verbs("fcntl O_NONBLOCK on the asynchronous event descriptor", ep.device_name(), errno);
}

void point_events::read(std::chrono::milliseconds wait, bool before_point) {
  ibv_context* ctx = m_ep.context();
  if (wait.count() > 0) {
    pollfd p{ctx->async_fd, POLLIN, 0};
    ::poll(&p, 1, static_cast<int>(wait.count()));
  }
  ibv_async_event ev{};
  while (ibv_get_async_event(ctx, &ev) == 0) {
    async_event e;
    e.name = event_name(ev.event_type);
    e.description = ibv_event_type_str(ev.event_type);
    e.before_point = before_point;
    locate(ev, m_ep, e);
    ibv_ack_async_event(&ev);  // every event is acknowledged, or its object cannot be destroyed
    m_events.push_back(std::move(e));
  }
}

void point_events::begin() {
  m_events.clear();
  read(std::chrono::milliseconds(0), true);
  if (!m_started) m_case_rate = m_ep.rate();
  m_started = true;
  m_rate = m_ep.rate_now();
  if (auto why = failure_of(m_events, m_ep.device_name())) throw std::runtime_error(*why);
  if (!m_ep.port_active())
    throw std::runtime_error(fmt::format("port {} of {} is not active at the start of the point",
                                         m_ep.port_number(), m_ep.device_name()));
}

void point_events::end() {
  read(std::chrono::milliseconds(0), false);
  if (auto why = failure_of(m_events, m_ep.device_name())) throw std::runtime_error(*why);
}

void point_events::failed(std::exception_ptr e, std::chrono::milliseconds wait) {
  // The event that explains a failed completion may come after it: a soft-RoCE guest saw a
  // port's failed completions with no event read 200 ms later.
  const auto end = std::chrono::steady_clock::now() + wait;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        end - std::chrono::steady_clock::now());
    read(std::max(left, std::chrono::milliseconds(0)), false);
    if (left.count() <= 0 || failure_of(m_events, m_ep.device_name())) break;
  }
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    if (auto why = failure_of(m_events, m_ep.device_name(), x.what()))
      throw std::runtime_error(*why);
    throw;
  }
}

nlohmann::json point_events::facts(bool both_directions) const {
  nlohmann::json j = nlohmann::json::object();
  if (!m_events.empty()) {
    auto list = nlohmann::json::array();
    for (const auto& e : m_events)
      list.push_back(to_json(e));
    j["async_events"] = std::move(list);
  }
  if (const auto change = rate_change(m_case_rate, m_rate)) {
    j["line_rate_gbyte_per_s"] = for_directions(*m_rate, both_directions).gbyte_per_s;
    j["line_rate_change"] = *change;
  }
  return j;
}

}  // namespace gpubench::transports::rdma
