// The result file of a run as far as it got, for a write from any thread. The main thread
// writes the file through it (so it always holds the latest) and tells it of the cases in
// progress; a thread that cannot wait for the main thread writes it at once with status
// "partial": the interrupt watch (the main thread may sit in a collective that cannot return,
// and mpirun's SIGKILL follows its SIGTERM within a second) or a watchdog about to end the job.
#pragma once

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/reporter.hpp"
#include "core/result.hpp"

namespace gpubench::core {

class partial_file {
 public:
  explicit partial_file(std::filesystem::path path) : m_path(std::move(path)) {}
  partial_file(const partial_file&) = delete;
  partial_file& operator=(const partial_file&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  // Main thread: writes `file` (atomically) and keeps it; the noted cases are then in it. After
  // a partial write, a file still "running" is written "partial": the run is stopping.
  void write(const result_file& file);
  // Main thread: the case now measured (with its points so far) by a runner that writes no
  // file of its own; `finished` when it is done, to be kept beside the file until the next write.
  void note(const case_result& c, bool finished);
  // Any thread: the kept file, the finished noted cases and the one in progress (failed, with
  // its points; its reason "<why> after N measured point(s)..."), status "partial". Nothing
  // before the first write (a rank other than 0). Errors are printed, never thrown. True when
  // it wrote.
  bool write_partial(const std::string& why = "interrupted") noexcept;

 private:
  std::filesystem::path m_path;
  std::mutex m_mutex;
  std::optional<result_file> m_file;
  std::vector<case_result> m_done;
  std::optional<case_result> m_current;
  bool m_stopping = false;
};

// A reporter that notes every case of its runner in a partial_file (a runner whose results
// are merged into the file later, as cluster mode's allreduce phase).
class partial_notes final : public reporter {
 public:
  explicit partial_notes(partial_file& file) : m_file(file) {}
  void case_started(const case_result& c, const run_position&) override {
    m_file.note(c, false);
  }
  void point_finished(const case_result& c, const point_result&) override { m_file.note(c, false); }
  void case_finished(const result_file&, const case_result& c) override { m_file.note(c, true); }

 private:
  partial_file& m_file;
};

}  // namespace gpubench::core
