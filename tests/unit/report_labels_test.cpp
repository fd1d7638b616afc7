// How a report names its runs: by host; two gpubench runs of one host by their start time, two
// imported logs of one host by their files (an import's time is only when it was read).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reports/model/report_inputs.hpp"

namespace gpubench::reports::model {
namespace {

run_input run_of(const std::string& path, const std::string& host, const std::string& id,
                 bool imported) {
  run_input r;
  r.path = path;
  r.file.run.id = id;
  r.file.run.started = "2026-11-26T08:00:0" + id + "Z";
  r.file.run.suite = imported ? "import" : "interconnect";
  if (!host.empty()) r.file.system["host"] = host;
  core::case_result c;
  c.benchmark = "x.bw";
  c.unit = "GB/s";
  if (imported)
    c.imported = core::import_source{"nccl-tests", "2.18.5", "", path, "all_reduce_perf"};
  r.file.results.push_back(c);
  return r;
}

TEST(ReportLabels, ImportedLogsOfOneHostAreNamedByTheirFiles) {
  std::vector<run_input> runs = {run_of("logs/before.txt", "node-a", "1", true),
                                 run_of("logs/after.txt", "node-a", "2", true)};
  check_and_label(runs);
  EXPECT_EQ(runs[0].label, "node-a (before.txt)");
  EXPECT_EQ(runs[1].label, "node-a (after.txt)");
}

TEST(ReportLabels, GpubenchRunsOfOneHostByTheirStartAndLogsWithoutHostByFile) {
  std::vector<run_input> runs = {
      run_of("a.json", "node-a", "1", false), run_of("b.json", "node-a", "2", false),
      run_of("x/nccl.txt", "", "3", true), run_of("y/nccl.txt", "", "4", true)};
  check_and_label(runs);
  EXPECT_EQ(runs[0].label, "node-a 2026-11-26T08:00:01Z");
  EXPECT_EQ(runs[1].label, "node-a 2026-11-26T08:00:02Z");
  EXPECT_EQ(runs[2].label, "x/nccl.txt");  // one file name twice: the paths tell them apart
  EXPECT_EQ(runs[3].label, "y/nccl.txt");
  std::vector<run_input> one = {run_of("only.txt", "node-b", "5", true)};
  check_and_label(one);
  EXPECT_EQ(one[0].label, "node-b");
}

}  // namespace
}  // namespace gpubench::reports::model
