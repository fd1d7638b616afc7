#include "core/partial_file.hpp"

#include <cstdio>
#include <exception>
#include <string>

#include "core/result_json.hpp"

namespace gpubench::core {

void partial_file::write(const result_file& file) {
  std::lock_guard lock(m_mutex);
  m_file = file;
  m_done.clear();
  m_current.reset();
  if (m_stopping && m_file->run.status == run_status::running) {
    m_file->run.status = run_status::partial;
    m_file->run.finished = rfc3339_now();
  }
  write_result_file(m_path, *m_file);
}

void partial_file::note(const case_result& c, bool finished) {
  std::lock_guard lock(m_mutex);
  if (finished) {
    m_done.push_back(c);
    m_current.reset();
  } else {
    m_current = c;
  }
}

bool partial_file::write_partial(const std::string& why) noexcept {
  try {
    std::lock_guard lock(m_mutex);
    if (!m_file) return false;
    m_stopping = true;
    result_file out = *m_file;
    for (const auto& c : m_done)
      out.results.push_back(c);
    if (m_current && !m_current->points.empty()) {
      case_result c = *m_current;
      c.status = case_status::failed;
      c.reason =
          why + " after " + std::to_string(c.points.size()) + " measured point(s); those are kept";
      out.results.push_back(std::move(c));
    }
    if (out.run.status == run_status::running) out.run.status = run_status::partial;
    if (out.run.finished.empty()) out.run.finished = rfc3339_now();
    // Not synced to disk: mpirun's SIGKILL may follow within a second on a loaded machine.
    write_result_file(m_path, out, false);
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpubench: writing the partial result file %s: %s\n", m_path.c_str(),
                 e.what());
    return false;
  }
}

}  // namespace gpubench::core
