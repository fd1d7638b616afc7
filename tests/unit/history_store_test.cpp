// The results store on SQLite: runs added once, series in run order, fingerprints and their
// events, a store from a newer gpubench refused, an older one migrated with its data kept.
#include "history/store.hpp"

#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/statistics.hpp"
#include "history/analysis.hpp"
#include "history/schema.hpp"
#include "history/series_key.hpp"

namespace gpubench::history {
namespace {

class temp_store : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() /
            ("gpubench-history-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(m_dir);
    std::filesystem::create_directories(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }
  std::string path() const { return (m_dir / "sub" / "gpubench.db").string(); }

  std::filesystem::path m_dir;
};

// A run of one bandwidth case at two sizes; `kernel` goes into its fingerprint.
core::result_file make_run(const std::string& id, const std::string& started, double value,
                           const std::string& kernel = "6.1.0") {
  core::result_file f;
  f.run.id = id;
  f.run.started = started;
  f.run.suite = "memory";
  f.tool.version = "0.1.0";
  f.system = {{"host", "node-a"}, {"kernel", kernel}, {"cpu", {{"model", "Xeon"}}}};
  core::case_result c;
  c.benchmark = "memory.host.copy";
  c.kind = core::host_memory_kind({"numa"});
  c.params = {{"threads", 1}};
  c.metric = "bandwidth";
  c.unit = "GB/s";
  c.better = "higher";
  for (std::uint64_t bytes : {4096ULL, 1048576ULL}) {
    core::point_result p;
    p.bytes = bytes;
    p.samples = {value, value * 1.01, value * 0.99};
    p.stats = core::summarize(p.samples);
    c.points.push_back(p);
  }
  f.results.push_back(c);
  core::case_result skipped = c;
  skipped.benchmark = "gpu.h2d";
  skipped.status = core::case_status::skipped;
  skipped.points.clear();
  f.results.push_back(skipped);
  return f;
}

TEST_F(temp_store, AddsARunOnceAndCreatesItsFolder) {
  store s(path());
  const auto first = s.add(make_run("run-1", "2026-11-01T00:00:00Z", 10), "a.json");
  EXPECT_TRUE(first.added);
  EXPECT_EQ(first.points, 2u);  // the skipped case has none
  const auto again = s.add(make_run("run-1", "2026-11-01T00:00:00Z", 10), "a.json");
  EXPECT_FALSE(again.added);
  EXPECT_EQ(s.run_count(), 1u);
  EXPECT_TRUE(std::filesystem::exists(path()));
}

TEST_F(temp_store, SeriesFollowTheOrderRunsStartedIn) {
  store s(path());
  // Added out of order; two runs in the same second keep the order they were added in.
  s.add(make_run("run-3", "2026-11-03T00:00:00Z", 30), "c");
  s.add(make_run("run-1", "2026-11-01T00:00:00Z", 10), "a");
  s.add(make_run("run-2a", "2026-11-02T00:00:00Z", 20), "b");
  s.add(make_run("run-2b", "2026-11-02T00:00:00Z", 21), "b");
  const auto all = s.load();
  ASSERT_EQ(all.size(), 2u);  // two sizes
  const auto& big = all[0].bytes == 1048576 ? all[0] : all[1];
  ASSERT_EQ(big.points.size(), 4u);
  EXPECT_EQ(big.points[0].run_id, "run-1");
  EXPECT_EQ(big.points[1].run_id, "run-2a");
  EXPECT_EQ(big.points[2].run_id, "run-2b");
  EXPECT_EQ(big.points[3].run_id, "run-3");
  EXPECT_DOUBLE_EQ(big.points[3].value, 30);
  EXPECT_EQ(big.unit, "GB/s");
  EXPECT_EQ(big.host, "node-a");
  EXPECT_EQ(big.params, (nlohmann::json{{"threads", 1}}));

  EXPECT_EQ(s.load({"@4096 ", ""}).size(), 1u);
  const auto since = s.load({"", "2026-11-02"});
  ASSERT_FALSE(since.empty());
  EXPECT_EQ(since[0].points.size(), 3u);
  EXPECT_THROW(s.load({"(", ""}), core::usage_error);
}

TEST_F(temp_store, AFingerprintChangeIsAnEventWithWhatChanged) {
  store s(path());
  s.add(make_run("r1", "2026-11-01T00:00:00Z", 10, "6.1.0"), "x");
  s.add(make_run("r2", "2026-11-02T00:00:00Z", 10, "6.1.0"), "x");
  s.add(make_run("r3", "2026-11-03T00:00:00Z", 10, "6.5.0"), "x");
  const auto found = analyse(s.load(), s.fingerprints(), {});
  ASSERT_EQ(found.size(), 2u);
  ASSERT_EQ(found[0].events.size(), 1u);
  EXPECT_EQ(found[0].events[0].index, 2u);
  ASSERT_EQ(found[0].events[0].changes.size(), 1u);
  EXPECT_EQ(found[0].events[0].changes[0], "kernel: 6.1.0 -> 6.5.0");
  // A new point of the old kernel has no segment to be judged against.
  EXPECT_TRUE(latest_segment(found[0].data, found[0].data.points[0].fingerprint, {}).empty());
  EXPECT_EQ(latest_segment(found[0].data, found[0].data.points[2].fingerprint, {}).size(), 1u);
}

TEST_F(temp_store, RefusesAStoreFromANewerGpubench) {
  { store s(path()); }
  {
    auto db = open_database(path());
    db->query("UPDATE gpubench_store SET value = $1 WHERE name = 'schema_version'",
              {std::to_string(schema_version + 1)});
    db->query("UPDATE gpubench_store SET value = '9.9.9' WHERE name = 'written_by'");
  }
  try {
    store s(path());
    FAIL() << "a newer store was opened";
  } catch (const core::input_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("schema version " + std::to_string(schema_version + 1)), std::string::npos)
        << what;
    EXPECT_NE(what.find("gpubench 9.9.9"), std::string::npos) << what;
    EXPECT_NE(what.find("use a newer gpubench"), std::string::npos) << what;
  }
}

TEST_F(temp_store, MigratesAVersionOneStoreKeepingItsRuns) {
  {
    auto db = open_database(path());
    prepare_schema(*db, 1);
    EXPECT_EQ(stored_schema_version(*db), 1);
    db->query(
        "INSERT INTO runs (run_id, seq, started, host, suite, tool_version, source, added) "
        "VALUES ('old', 1, '2026-10-01T00:00:00Z', 'node-a', 'memory', '0.0.9', 'x', 'now')");
  }
  store s(path());
  EXPECT_EQ(s.run_count(), 1u);
  s.add(make_run("new", "2026-11-01T00:00:00Z", 10), "y");
  EXPECT_EQ(s.run_count(), 2u);
  EXPECT_EQ(s.fingerprints().size(), 1u);  // the table version 2 added
  auto db = open_database(path());
  EXPECT_EQ(stored_schema_version(*db), schema_version);
}

TEST_F(temp_store, ImportedRunsAreKeptApartByTheirCases) {
  auto a = make_run("import:nccl.log", "2026-11-01T00:00:00Z", 10);
  auto b = make_run("import:nccl.log", "2026-11-02T00:00:00Z", 11);
  for (auto* f : {&a, &b})
    f->results[0].imported = core::import_source{"nccl-tests", "", "", "nccl.log", ""};
  EXPECT_NE(stored_run_id(a), stored_run_id(b));
  EXPECT_EQ(stored_run_id(a), stored_run_id(a));
  EXPECT_EQ(stored_run_id(make_run("run-7", "", 1)), "run-7");
}

TEST_F(temp_store, AnUnopenableStoreIsAUsageError) {
  std::filesystem::create_directories(path());  // a folder where the file should be
  EXPECT_THROW(store s(path()), core::usage_error);
}

TEST(store_location, APasswordIsNeverPrinted) {
  EXPECT_EQ(printable_location("postgresql://ci:s3cret@db.example:5432/gpubench"),
            "postgresql://ci:***@db.example:5432/gpubench");
  EXPECT_EQ(printable_location("postgresql://ci@db/gpubench"), "postgresql://ci@db/gpubench");
  EXPECT_EQ(printable_location("results/a:b@c.db"), "results/a:b@c.db");
  EXPECT_TRUE(is_postgresql("postgres://x/y"));
  EXPECT_FALSE(is_postgresql("results/gpubench.db"));
}

TEST(series_key, NamesBenchmarkParamsSizeAndHost) {
  EXPECT_EQ(series_key("net.tcp.latency", {{"peer", "198.18.0.2"}, {"a", 1}}, 64, "h"),
            R"(net.tcp.latency {"a":1,"peer":"198.18.0.2"} @64 on h)");
}

TEST(fingerprint, TakesWhatTheKindDependsOn) {
  const nlohmann::json system = {
      {"kernel", "6.1"},
      {"cpu", {{"model", "Xeon"}}},
      {"gpus", {{{"name", "H100"}}, {{"name", "A100"}}}},
      {"nics",
       {{{"name", "eth0"},
         {"virtual", false},
         {"driver", "mlx5_core"},
         {"mtu", 9000},
         {"speed_mbps", 400000}},
        {{"name", "veth0"}, {"virtual", true}, {"mtu", 1500}}}},
      {"software", {{"compiler", "gcc 12"}, {"nccl", "2.28.9"}, {"cuda_driver", "13.0"}}}};
  const auto memory = fingerprint_detail(system, core::host_memory_kind({}));
  EXPECT_EQ(memory, (nlohmann::json{{"kernel", "6.1"}, {"cpu", "Xeon"}}));
  const auto gpu = fingerprint_detail(system, core::host_gpu_kind("to_gpu", {}));
  EXPECT_EQ(gpu["gpus"], (nlohmann::json{"A100", "H100"}));
  EXPECT_EQ(gpu["cuda_driver"], "13.0");
  EXPECT_FALSE(gpu.contains("nccl"));
  EXPECT_FALSE(gpu.contains("compiler"));
  const auto net = fingerprint_detail(system, core::network_kind("tcp", {}));
  // Physical NICs only, without their speed: a link that trained down is a change to find.
  EXPECT_EQ(net["nics"],
            (nlohmann::json{{{"name", "eth0"}, {"driver", "mlx5_core"}, {"mtu", 9000}}}));
  const auto coll = fingerprint_detail(system, core::collective_kind("allreduce", {}));
  EXPECT_EQ(coll["nccl"], "2.28.9");
  EXPECT_NE(fingerprint_id(memory), fingerprint_id(net));
  EXPECT_EQ(fingerprint_id(memory), fingerprint_id({{"cpu", "Xeon"}, {"kernel", "6.1"}}));
  EXPECT_EQ(fingerprint_id(memory).size(), 16u);
  EXPECT_EQ(fingerprint_changes(memory, {{"kernel", "6.2"}, {"cpu", "Xeon"}, {"x", 1}}),
            (std::vector<std::string>{"kernel: 6.1 -> 6.2", "x: (none) -> 1"}));
}

}  // namespace
}  // namespace gpubench::history
