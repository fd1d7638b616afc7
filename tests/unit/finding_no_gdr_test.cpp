// collective.no_gdr: a collective that NCCL ran without GPUDirect RDMA (an imported log's
// `GDR 0`, context gdr: false) is named on page one; with GDR, or without a word on it, nothing.
#include <gtest/gtest.h>

#include <string>

#include "core/result.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {
namespace {

core::result_file allreduce(const nlohmann::json& context) {
  core::case_result c;
  c.benchmark = "nccl_tests.all_reduce_perf";
  c.kind = core::collective_kind("allreduce", {});
  c.metric = "bandwidth";
  c.unit = "GB/s";
  c.better = "higher";
  c.params = {{"backend", "nccl"}, {"nodes", 2}, {"ranks", 2}, {"in_place", false}};
  c.context = context;
  for (std::uint64_t bytes : {1ULL << 30, 1ULL << 31}) {
    core::point_result p;
    p.bytes = bytes;
    p.stats.median = bytes == 1ULL << 30 ? 15.1 : 15.0;
    c.points.push_back(p);
  }
  core::result_file f;
  f.results.push_back(c);
  return f;
}

TEST(FindingNoGdr, GdrZeroIsNamedWithTheDeviceAndThePeak) {
  const auto found =
      no_gdr_rule(allreduce({{"gdr", false}, {"net_device", "[0]mlx5_5:1/RoCE"}}), {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule, "collective.no_gdr");
  EXPECT_EQ(found[0].level, severity::warning);
  EXPECT_NE(found[0].title.find("GDR 0"), std::string::npos) << found[0].title;
  EXPECT_NE(found[0].evidence.find("mlx5_5"), std::string::npos) << found[0].evidence;
  EXPECT_NE(found[0].evidence.find("15.10 GB/s at 1G"), std::string::npos) << found[0].evidence;
}

TEST(FindingNoGdr, WithGdrOrNoWordOnItNothing) {
  EXPECT_TRUE(no_gdr_rule(allreduce({{"gdr", true}}), {}).empty());
  EXPECT_TRUE(no_gdr_rule(allreduce(nlohmann::json::object()), {}).empty());
  EXPECT_TRUE(no_gdr_rule(allreduce({{"gdr", "0"}}), {}).empty()) << "not a boolean: not read";
}

}  // namespace
}  // namespace gpubench::reports::page_one::findings
