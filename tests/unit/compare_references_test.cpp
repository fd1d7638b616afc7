// Reference files: validation with clear errors, system selection, bounds checks.
#include "reports/compare/references.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/result_json.hpp"

namespace gpubench::reports::compare {
namespace {

using nlohmann::json;

const std::string golden = std::string(GPUBENCH_TEST_DATA) + "/compare/";

json valid_file() {
  return json::parse(R"({"schema": "gpubench.references/1", "systems": [
    {"label": "ci", "hosts": ["ci-node-*"], "references": [
      {"benchmark": "net.tcp.latency", "params": {"streams": 1}, "bytes": 64, "unit": "us",
       "expected": 30, "upper": 33}]}]})");
}

// The message of the input_error that reading `j` throws ("" when none).
std::string error_of(const json& j) {
  try {
    references_from_json(j, "refs.json");
  } catch (const core::input_error& e) {
    return e.what();
  }
  return "";
}

TEST(compare_references, reads_the_example_file) {
  const reference_file refs = read_reference_file(golden + "references.json");
  ASSERT_EQ(refs.systems.size(), 2u);
  EXPECT_EQ(refs.systems[0].label, "ci");
  ASSERT_EQ(refs.systems[0].references.size(), 3u);
  EXPECT_EQ(refs.systems[0].references[0].bytes, 1u << 20);  // "1MiB"
  EXPECT_FALSE(refs.systems[0].references[1].lower);
}

TEST(compare_references, bad_entries_get_errors_naming_the_field) {
  EXPECT_EQ(error_of(valid_file()), "");

  json j = valid_file();
  j["systems"][0]["references"][0]["lower"] = 40;
  EXPECT_EQ(error_of(j), "refs.json: systems[0].references[0].lower: 40 is above expected 30");

  j = valid_file();
  j["systems"][0]["references"][0].erase("upper");
  EXPECT_EQ(error_of(j),
            "refs.json: systems[0].references[0]: needs a lower or an upper bound (or both)");

  j = valid_file();
  j["systems"][0]["references"][0]["uper"] = 1;
  EXPECT_NE(error_of(j).find("unknown key 'uper'"), std::string::npos);

  j = valid_file();
  j["systems"][0]["references"][0]["expected"] = "30";
  EXPECT_EQ(error_of(j), "refs.json: systems[0].references[0].expected: expected a number");

  j = valid_file();
  j["systems"][0]["references"][0]["bytes"] = "64 parsecs";
  EXPECT_NE(error_of(j).find("systems[0].references[0].bytes"), std::string::npos);

  j = valid_file();
  j["schema"] = core::result_schema_id;
  EXPECT_NE(error_of(j).find("refs.json.schema: expected \"gpubench.references/1\""),
            std::string::npos);

  j = valid_file();
  j["systems"][0].erase("label");
  j["systems"][0].erase("hosts");
  EXPECT_EQ(error_of(j), "refs.json: systems[0]: needs a label or hosts to be matched by");
}

TEST(compare_references, malformed_json_names_the_file) {
  EXPECT_THROW(read_reference_file(golden + "base.json"), core::input_error);  // wrong schema
  try {
    read_reference_file(golden + "no-such-file.json");
    FAIL() << "no error";
  } catch (const core::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-file.json"), std::string::npos);
  }
}

// Found by tests/fuzz/references_fuzz: the JSON parser throws out_of_range (not parse_error)
// for a number beyond a double, and it escaped the reader as an unexpected exception type.
TEST(compare_references, number_beyond_a_double_is_bad_input) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("gpubench-refs-overflow-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << R"({"schema": "gpubench.references/1", "systems": [
    {"label": "ci", "references": [{"benchmark": "a", "unit": "us", "expected": 21e308}]}]})";
  try {
    read_reference_file(path);
    ADD_FAILURE() << "no error";
  } catch (const core::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("number overflow"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

TEST(compare_references, system_is_chosen_by_label_or_host) {
  const reference_file refs = read_reference_file(golden + "references.json");
  EXPECT_EQ(select_system(refs, "ci-node-7", std::nullopt, "r").label, "ci");
  EXPECT_EQ(select_system(refs, "gpu-node-3", std::nullopt, "r").label, "lab-a100");
  EXPECT_EQ(select_system(refs, "ci-node-7", std::string("lab-a100"), "r").label, "lab-a100");
  EXPECT_THROW(select_system(refs, "laptop", std::nullopt, "r"), core::input_error);
  EXPECT_THROW(select_system(refs, "ci-node-7", std::string("nope"), "r"), core::input_error);
}

TEST(compare_references, within_bounds_passes_outside_fails) {
  const reference_file refs = read_reference_file(golden + "references.json");
  const reference_system& ci = refs.systems[0];
  const auto base = core::read_result_file(golden + "base.json");
  const auto pass = check_references(ci, base, {});
  ASSERT_EQ(pass.size(), 3u);
  for (const auto& r : pass) {
    EXPECT_EQ(r.result, verdict::same) << row_label(r);
    EXPECT_FALSE(r.regression);
    EXPECT_EQ(r.basis, row_basis::reference);
  }
  const auto slower = check_references(ci, core::read_result_file(golden + "slower.json"), {});
  std::size_t failing = 0;
  for (const auto& r : slower)
    failing += r.regression ? 1 : 0;
  EXPECT_EQ(failing, 1u);
  EXPECT_EQ(slower[1].result, verdict::slower);
  EXPECT_NE(slower[1].note.find("above the upper bound 33"), std::string::npos) << slower[1].note;
}

TEST(compare_references, too_good_is_outside_too) {
  reference_system s;
  s.label = "x";
  reference_entry e;
  e.benchmark = "memory.host.copy";
  e.unit = "GB/s";
  e.expected = 5;
  e.lower = 4;
  e.upper = 6;
  s.references.push_back(e);
  const auto rows = check_references(s, core::read_result_file(golden + "base.json"), {});
  ASSERT_EQ(rows.size(), 2u);  // both sizes of the case
  EXPECT_EQ(rows[0].result, verdict::faster);
  EXPECT_TRUE(rows[0].regression);
}

TEST(compare_references, unit_mismatch_is_bad_input_and_no_match_is_removed) {
  reference_system s;
  s.label = "x";
  reference_entry e;
  e.benchmark = "net.tcp.latency";
  e.unit = "ms";
  e.expected = 1;
  e.upper = 2;
  s.references.push_back(e);
  const auto base = core::read_result_file(golden + "base.json");
  EXPECT_THROW(check_references(s, base, {}), core::input_error);
  s.references[0].unit = "us";
  s.references[0].params = {{"streams", 99}};
  const auto rows = check_references(s, base, {});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].result, verdict::removed);
  EXPECT_FALSE(rows[0].regression);
}

}  // namespace
}  // namespace gpubench::reports::compare
