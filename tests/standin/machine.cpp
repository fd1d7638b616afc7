#include "machine.hpp"

#include <cstdlib>
#include <stdexcept>

#include "runtime.hpp"

namespace gpubench::tests::standin {

machine::machine(machine_config config) {
  if (installed_runtime()) throw std::logic_error("a stand-in machine is already installed");
  if (config.devices < 1) throw std::invalid_argument("a stand-in machine needs a device");
  m_runtime = std::make_unique<runtime>(std::move(config));
  install_runtime(m_runtime.get());
}

machine::~machine() {
  install_runtime(nullptr);
  const auto left = m_runtime->memory().live();
  m_runtime.reset();  // stops the workers before their memory goes
  for (const auto& r : left)
    if (r.kind != memory_kind::host_registered) std::free(reinterpret_cast<void*>(r.base));
}

std::vector<allocation_record> machine::allocations() const {
  return m_runtime->memory().history();
}

std::set<int> machine::contexts() const {
  return m_runtime->contexts();
}

std::vector<std::string> machine::faults() const {
  return m_runtime->faults();
}

std::vector<std::string> machine::leaks() const {
  return m_runtime->leaks();
}

bool machine::peer_enabled(int from, int to) const {
  return m_runtime->peer_enabled(from, to);
}

stream_counts machine::counts_at(cudaEvent_t event) const {
  const std::lock_guard lock(m_runtime->event_mutex());
  if (!event->last || !event->last->done())
    throw std::logic_error("the event's stream has not reached it");
  return event->last->counts();
}

std::vector<reached_event> machine::reached_events() const {
  return m_runtime->reached_events();
}

void machine::clear_reached_events() {
  m_runtime->clear_reached_events();
}

}  // namespace gpubench::tests::standin
