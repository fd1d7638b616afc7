// The in-process message_link pair: two queues under one mutex.
#include <stdexcept>

#include "transports/rdma/message_link.hpp"

namespace gpubench::transports::rdma {

namespace {

struct shared_queues {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::vector<std::byte>> to[2];
  bool closed = false;
};

class local_link final : public message_link {
 public:
  local_link(std::shared_ptr<shared_queues> q, int side) : m_q(std::move(q)), m_side(side) {}
  ~local_link() override { close(); }
  local_link(const local_link&) = delete;
  local_link& operator=(const local_link&) = delete;

  void send(std::span<const std::byte> message) override {
    std::lock_guard lock(m_q->mutex);
    if (m_q->closed) throw std::runtime_error("loopback control link: peer closed");
    m_q->to[1 - m_side].emplace_back(message.begin(), message.end());
    m_q->changed.notify_all();
  }

  std::vector<std::byte> receive(std::chrono::milliseconds timeout) override {
    std::unique_lock lock(m_q->mutex);
    auto& in = m_q->to[m_side];
    if (!m_q->changed.wait_for(lock, timeout, [&] { return !in.empty() || m_q->closed; }))
      throw std::runtime_error("loopback control link: no message within " +
                               std::to_string(timeout.count()) + " ms");
    if (in.empty()) throw std::runtime_error("loopback control link: peer closed");
    auto m = std::move(in.front());
    in.pop_front();
    return m;
  }

  std::optional<std::vector<std::byte>> try_receive() override {
    std::lock_guard lock(m_q->mutex);
    auto& in = m_q->to[m_side];
    if (in.empty()) {
      if (m_q->closed) throw std::runtime_error("loopback control link: peer closed");
      return std::nullopt;
    }
    auto m = std::move(in.front());
    in.pop_front();
    return m;
  }

  void close() override {
    std::lock_guard lock(m_q->mutex);
    m_q->closed = true;
    m_q->changed.notify_all();
  }

 private:
  std::shared_ptr<shared_queues> m_q;
  int m_side;
};

}  // namespace

std::pair<std::unique_ptr<message_link>, std::unique_ptr<message_link>> make_local_link_pair() {
  auto q = std::make_shared<shared_queues>();
  return {std::make_unique<local_link>(q, 0), std::make_unique<local_link>(q, 1)};
}

}  // namespace gpubench::transports::rdma
