// core::partial_file: the result file as far as it got, written "partial" from any thread.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <thread>
#include <vector>

#include "core/partial_file.hpp"
#include "core/result_json.hpp"

using namespace gpubench::core;
namespace fs = std::filesystem;

namespace {

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() /
         ("gpubench-partial-" + std::to_string(::getpid()) + "-" + name);
}

result_file running_file() {
  result_file f;
  f.tool = {"gpubench", "0.1.0", "abc"};
  f.run.id = "id1";
  f.run.started = "2026-01-01T00:00:00Z";
  f.run.suite = "memory";
  f.run.status = run_status::running;
  f.system = {{"host", "h"}};
  return f;
}

case_result measured_case(const std::string& id, std::size_t points) {
  case_result c;
  c.benchmark = id;
  c.kind = host_memory_kind({});
  c.metric = "bandwidth";
  c.unit = "GB/s";
  c.better = "higher";
  for (std::size_t i = 0; i < points; ++i) {
    point_result p;
    p.bytes = 4096u << i;
    p.samples = {1.0, 2.0};
    p.stats = summarize(p.samples);
    p.stopped_by = "noise";
    c.points.push_back(p);
  }
  return c;
}

}  // namespace

TEST(PartialFile, NothingToWriteBeforeTheFirstWrite) {
  const auto path = temp_path("none.json");
  partial_file f(path);
  EXPECT_FALSE(f.write_partial());  // a rank other than 0 never writes
  EXPECT_FALSE(fs::exists(path));
}

TEST(PartialFile, PartialWriteKeepsFinishedCasesAndThePointsOfTheOneInProgress) {
  const auto path = temp_path("progress.json");
  partial_file f(path);
  result_file file = running_file();
  f.write(file);
  f.note(measured_case("a.done", 2), true);  // finished since the last write
  f.note(measured_case("b.now", 1), false);  // in progress, one point so far
  f.note(measured_case("b.now", 3), false);  // ... now three
  ASSERT_TRUE(f.write_partial("interrupted"));
  const result_file back = read_result_file(path);
  EXPECT_EQ(back.run.status, run_status::partial);
  EXPECT_FALSE(back.run.finished.empty());
  ASSERT_EQ(back.results.size(), 2u);
  EXPECT_EQ(back.results[0].benchmark, "a.done");
  EXPECT_EQ(back.results[0].status, case_status::ok);
  EXPECT_EQ(back.results[1].status, case_status::failed);
  EXPECT_EQ(back.results[1].points.size(), 3u);
  EXPECT_NE(back.results[1].reason.find("interrupted after 3 measured point(s)"),
            std::string::npos);
  fs::remove(path);
}

TEST(PartialFile, AfterAPartialWriteARunningFileIsWrittenPartial) {
  const auto path = temp_path("stopping.json");
  partial_file f(path);
  result_file file = running_file();
  f.write(file);
  ASSERT_TRUE(f.write_partial());
  // The main thread goes on to write a case it finished: the run is stopping all the same.
  file.results.push_back(measured_case("c", 1));
  f.write(file);
  EXPECT_EQ(read_result_file(path).run.status, run_status::partial);
  // A run that did complete says so.
  file.run.status = run_status::complete;
  f.write(file);
  EXPECT_EQ(read_result_file(path).run.status, run_status::complete);
  fs::remove(path);
}

TEST(PartialFile, WritesFromTwoThreadsLeaveAValidFile) {
  const auto path = temp_path("threads.json");
  partial_file f(path);
  result_file file = running_file();
  f.write(file);
  std::thread other([&] {
    for (int i = 0; i < 50; ++i)
      f.write_partial();
  });
  for (int i = 0; i < 50; ++i) {
    file.results.push_back(measured_case("t" + std::to_string(i), 1));
    f.write(file);
  }
  other.join();
  const result_file back = read_result_file(path);  // throws on a torn file
  EXPECT_EQ(back.results.size(), 50u);
  fs::remove(path);
}
