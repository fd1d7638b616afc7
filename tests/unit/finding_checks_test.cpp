// A finding's "what to check" fits the run it is about: an MPI collective over host buffers is
// not sent to NCCL's settings and GPU memory, an NCCL one is.
#include <gtest/gtest.h>

#include <string>

#include "core/result.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {
namespace {

// One allreduce case whose busbw rises to 10 GB/s at 1 MiB and falls to 4 at 16 MiB.
core::result_file falling_allreduce(const std::string& backend) {
  core::case_result c;
  c.benchmark = "coll.allreduce";
  c.kind = core::collective_kind("allreduce", {});
  c.metric = "bandwidth";
  c.unit = "GB/s";
  c.better = "higher";
  c.status = core::case_status::ok;
  c.params = {{"backend", backend}, {"nodes", 1}, {"ranks", 2}, {"transport", "auto"}};
  for (auto [bytes, busbw] : {std::pair{1u << 16, 2.0}, {1u << 20, 10.0}, {1u << 24, 4.0}}) {
    core::point_result p;
    p.bytes = bytes;
    p.stats.median = busbw;
    p.extra["busbw"] = busbw;
    c.points.push_back(p);
  }
  core::result_file f;
  f.results.push_back(c);
  return f;
}

TEST(FindingChecks, BusbwFallsOverMpiNamesOpenMpiNotNccl) {
  const auto found = busbw_falls_rule(falling_allreduce("mpi"), {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].check.find("Open MPI"), std::string::npos) << found[0].check;
  EXPECT_EQ(found[0].check.find("NCCL"), std::string::npos) << found[0].check;
  EXPECT_EQ(found[0].check.find("GPU"), std::string::npos) << found[0].check;
}

TEST(FindingChecks, BusbwFallsOverNcclNamesNcclAndGpuMemory) {
  const auto found = busbw_falls_rule(falling_allreduce("nccl"), {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].check.find("NCCL_DEBUG=INFO"), std::string::npos) << found[0].check;
  EXPECT_NE(found[0].check.find("GPU memory"), std::string::npos) << found[0].check;
}

}  // namespace
}  // namespace gpubench::reports::page_one::findings
