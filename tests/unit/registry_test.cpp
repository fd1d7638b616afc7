#include <gtest/gtest.h>

#include <set>

#include "benchmarks/register_all.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"

using namespace gpubench;

namespace {
core::benchmark_def make(const std::string& id, const std::string& suite) {
  core::benchmark_def d;
  d.id = id;
  d.kind = core::host_memory_kind({});
  d.suites = {suite};
  d.metric = core::bandwidth_metric();
  d.body = [](core::case_state&) {};
  return d;
}
}  // namespace

TEST(Registry, SelectsBySuiteAndFilter) {
  core::registry r;
  r.add(make("memory.host.copy", "memory"));
  r.add(make("net.tcp.latency", "network"));
  r.add(make("net.tcp.bandwidth", "network"));
  EXPECT_EQ(r.select("interconnect").size(), 3u);
  EXPECT_EQ(r.select("network").size(), 2u);
  EXPECT_EQ(r.select("network", "latency$").size(), 1u);
  EXPECT_EQ(r.select("gpu").size(), 0u);
  EXPECT_THROW(r.select("nosuch"), core::usage_error);
  EXPECT_THROW(r.select("network", "("), core::usage_error);
}

TEST(Registry, RejectsDuplicates) {
  core::registry r;
  r.add(make("a", "memory"));
  EXPECT_THROW(r.add(make("a", "memory")), std::logic_error);
}

TEST(Registry, CartesianAxes) {
  const auto cases = core::cartesian({{"threads", {1, 2}}, {"numa", {0, 1, 2}}});
  ASSERT_EQ(cases.size(), 6u);
  EXPECT_EQ(cases[0], (nlohmann::json{{"threads", 1}, {"numa", 0}}));
  EXPECT_EQ(cases[5], (nlohmann::json{{"threads", 2}, {"numa", 2}}));
  EXPECT_EQ(core::cartesian({}).size(), 1u);
}

// Every identifier of the design's table is registered, in its suite, with a description.
TEST(Registry, AllDesignIdsRegistered) {
  core::registry r;
  benchmarks::register_all(r);
  const std::map<std::string, std::string> expected = {{"memory.host.copy", "memory"},
                                                       {"gpu.h2d", "gpu"},
                                                       {"gpu.d2h", "gpu"},
                                                       {"gpu.bidir", "gpu"},
                                                       {"gpu.p2p.bandwidth", "gpu"},
                                                       {"gpu.p2p.latency", "gpu"},
                                                       {"gpu.host.latency", "gpu"},
                                                       {"net.tcp.latency", "network"},
                                                       {"net.tcp.bandwidth", "network"},
                                                       {"net.rdma.latency", "network"},
                                                       {"net.rdma.bandwidth", "network"},
                                                       {"coll.allreduce", "collectives"}};
  for (const auto& [id, suite] : expected) {
    const auto found = r.select(suite, "^" + id + "$");
    ASSERT_EQ(found.size(), 1u) << id;
    EXPECT_FALSE(found[0]->description.empty()) << id;
  }
}
