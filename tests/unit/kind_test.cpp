// The kind a case declares: its JSON form, the format version, and files of format 1.0.
#include <gtest/gtest.h>

#include "benchmarks/register_all.hpp"
#include "core/errors.hpp"
#include "core/kind.hpp"
#include "core/registry.hpp"
#include "core/result_json.hpp"

using namespace gpubench;

namespace {

nlohmann::json one_case_file(const std::string& schema, const nlohmann::json& extra_case_fields) {
  nlohmann::json c = {{"benchmark", "net.tcp.latency"},
                      {"params", {{"peer", "198.18.0.2:18515"}}},
                      {"status", "skipped"},
                      {"reason", "no peer"},
                      {"metric", "latency"},
                      {"unit", "us"},
                      {"better", "lower"},
                      {"points", nlohmann::json::array()}};
  c.update(extra_case_fields);
  return {{"schema", schema},
          {"tool", {{"name", "gpubench"}, {"version", "0"}, {"git", ""}}},
          {"run",
           {{"id", "r"},
            {"started", ""},
            {"finished", ""},
            {"argv", nlohmann::json::array()},
            {"suite", "network"},
            {"status", "complete"}}},
          {"system", nlohmann::json::object()},
          {"results", {c}}};
}

}  // namespace

TEST(Kind, JsonRoundTripOmitsEmptyQualifiers) {
  const auto k = core::network_kind("rdma", {"peer", "device"});
  const auto j = core::to_json(k);
  EXPECT_EQ(j, (nlohmann::json{
                   {"path", "network"}, {"transport", "rdma"}, {"endpoints", {"peer", "device"}}}));
  EXPECT_EQ(core::kind_from_json(j), k);
}

TEST(Kind, ReaderRefusesWrongTypesAndIgnoresUnknownFields) {
  EXPECT_THROW(core::kind_from_json(nlohmann::json::array()), std::invalid_argument);
  EXPECT_THROW(core::kind_from_json({{"path", 3}}), std::invalid_argument);
  EXPECT_THROW(core::kind_from_json({{"endpoints", {"gpu"}}}), std::invalid_argument);
  EXPECT_THROW(core::kind_from_json({{"path", "gpu_gpu"}, {"endpoints", "src"}}),
               std::invalid_argument);
  const auto k = core::kind_from_json({{"path", "fabric"}, {"lanes", 4}});
  EXPECT_EQ(k.path, "fabric");  // a path of a newer writer is kept and matches no known one
  EXPECT_FALSE(k.is(core::paths::network));
}

// The table for files of format 1.0 must say what each benchmark declares today, or an old
// file and a new one would land in different places of a report.
TEST(Kind, FormatOneZeroTableMatchesTheRegistrations) {
  core::registry r;
  benchmarks::register_all(r);
  std::size_t known = 0;
  for (const auto* def : r.select("interconnect")) {
    EXPECT_FALSE(def->kind.empty()) << def->id;
    const auto legacy = core::kind_of_format_1_0(def->id);
    if (legacy.empty()) continue;  // an id that format 1.0 did not have
    ++known;
    EXPECT_EQ(legacy, def->kind) << def->id;
  }
  EXPECT_GE(known, 12u);
}

TEST(Kind, RegistryRefusesABenchmarkWithoutKind) {
  core::registry r;
  core::benchmark_def d;
  d.id = "x.y";
  d.body = [](core::case_state&) {};
  EXPECT_THROW(r.add(d), std::logic_error);
}

TEST(Kind, SchemaMinorVersionsAreRead) {
  EXPECT_TRUE(core::readable_schema("gpubench.result/1"));
  EXPECT_TRUE(core::readable_schema("gpubench.result/1.1"));
  EXPECT_TRUE(core::readable_schema("gpubench.result/1.27"));
  EXPECT_TRUE(core::readable_schema(core::result_schema_id));
  EXPECT_FALSE(core::readable_schema("gpubench.result/2"));
  EXPECT_FALSE(core::readable_schema("gpubench.result/10"));
  EXPECT_FALSE(core::readable_schema("gpubench.result/1."));
  EXPECT_FALSE(core::readable_schema("gpubench.result/1.x"));
  EXPECT_FALSE(core::readable_schema("gpubench.result/1.1.1"));
  EXPECT_FALSE(core::readable_schema("gpubench.references/1"));
}

TEST(Kind, FormatOneZeroFileGetsTheDerivedKind) {
  const auto f = core::result_from_json(
      one_case_file("gpubench.result/1", nlohmann::json::object()), "old.json");
  ASSERT_EQ(f.results.size(), 1u);
  EXPECT_EQ(f.results[0].kind, core::network_kind("tcp", {"peer"}));
}

TEST(Kind, NewerMinorWithUnknownFieldsIsRead) {
  auto j = one_case_file("gpubench.result/1.9",
                         {{"kind", {{"path", "network"}, {"transport", "ucx"}, {"qos", 3}}},
                          {"provenance", {{"tool", "x"}}}});
  j["future_block"] = {{"a", 1}};
  const auto f = core::result_from_json(j, "new.json");
  EXPECT_EQ(f.results[0].kind.transport, "ucx");
  // Written back in the current version, with the kind it read.
  const auto out = core::to_json(f);
  EXPECT_EQ(out["schema"], core::result_schema_id);
  EXPECT_EQ(out["results"][0]["kind"]["transport"], "ucx");
}

TEST(Kind, BadKindIsAnInputErrorNamingTheField) {
  try {
    core::result_from_json(one_case_file(core::result_schema_id, {{"kind", {{"path", 1}}}}), "f");
    FAIL() << "no error";
  } catch (const core::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("results[0].kind"), std::string::npos) << e.what();
  }
}

TEST(Kind, OtherMajorVersionIsRefused) {
  EXPECT_THROW(
      core::result_from_json(one_case_file("gpubench.result/2", nlohmann::json::object()), "f"),
      core::input_error);
}
