// The four renderings of a comparison: content, ordering, escaping, well-formed XML and JSON.
#include "reports/compare/formats.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/result_json.hpp"

namespace gpubench::reports::compare {
namespace {

const std::string golden = std::string(GPUBENCH_TEST_DATA) + "/compare/";

comparison slower_comparison() {
  return compare_results(core::read_result_file(golden + "base.json"),
                         core::read_result_file(golden + "slower.json"), {}, "base.json",
                         "slower.json");
}

// A comparison whose labels and notes carry every character the formats must escape.
comparison awkward_comparison() {
  comparison c = slower_comparison();
  c.rows[0].params["peer"] = "a<b>&\"c\"|'d'\x01";
  c.rows[0].note = "line one\nline | two <&>";
  return c;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    ++n;
  return n;
}

// Enough of XML 1.0 to catch what a formatter gets wrong: unbalanced or crossed tags,
// unquoted attributes, raw '<' or '&' in text, control characters.
std::string xml_problem(const std::string& doc) {
  std::vector<std::string> open;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const char ch = doc[i];
    if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t' && ch != '\r')
      return "control character at " + std::to_string(i);
    if (ch == '&') {
      const auto semi = doc.find(';', i);
      const std::string entity = doc.substr(i, semi == std::string::npos ? 1 : semi - i + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
          entity != "&apos;")
        return "bad entity at " + std::to_string(i);
      continue;
    }
    if (ch == '>') return "raw '>' outside a tag at " + std::to_string(i);
    if (ch != '<') continue;
    const auto end = doc.find('>', i);
    if (end == std::string::npos) return "unterminated tag";
    std::string tag = doc.substr(i + 1, end - i - 1);
    if (occurrences(tag, "\"") % 2 != 0) return "unbalanced quotes in <" + tag + ">";
    if (tag.find('<') != std::string::npos) return "'<' inside <" + tag + ">";
    i = end;
    if (tag.front() == '?') continue;
    if (tag.back() == '/') continue;
    if (tag.front() == '/') {
      if (open.empty() || open.back() != tag.substr(1))
        return "unexpected </" + tag.substr(1) + ">";
      open.pop_back();
      continue;
    }
    open.push_back(tag.substr(0, tag.find(' ')));
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

TEST(compare_formats, format_names) {
  EXPECT_EQ(parse_output_format("junit"), output_format::junit);
  EXPECT_EQ(parse_output_format("md"), output_format::md);
  EXPECT_THROW(parse_output_format("xml"), core::usage_error);
}

TEST(compare_formats, text_lists_regressions_first_and_colours_only_on_request) {
  const comparison c = slower_comparison();
  const std::string plain = format_text(c, false);
  EXPECT_EQ(plain.rfind("gpubench compare: FAIL: 1 regression\n", 0), 0u) << plain;
  const auto table = plain.find("VERDICT");
  ASSERT_NE(table, std::string::npos);
  const auto first_row = plain.find('\n', table) + 1;
  EXPECT_EQ(plain.substr(first_row, 6), "SLOWER");
  EXPECT_EQ(plain.find('\033'), std::string::npos);
  const std::string coloured = format_text(c, true);
  EXPECT_NE(coloured.find("\033[1;31mSLOWER"), std::string::npos);
}

TEST(compare_formats, markdown_is_a_table_with_escaped_cells) {
  const std::string md = format_markdown(awkward_comparison());
  EXPECT_EQ(md.rfind("### gpubench compare: FAIL: 1 regression", 0), 0u);
  EXPECT_NE(md.find("| **SLOWER** |"), std::string::npos) << md;
  EXPECT_NE(md.find("line one line \\| two"), std::string::npos) << md;
  EXPECT_NE(md.find("<details>"), std::string::npos);
  // Every table line has the same number of unescaped cell separators.
  std::size_t expected_bars = 0;
  std::size_t start = 0;
  while (start < md.size()) {
    const auto end = md.find('\n', start);
    const std::string line = md.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line[0] != '|') continue;
    const std::size_t bars = occurrences(line, "|") - occurrences(line, "\\|");
    if (expected_bars == 0) expected_bars = bars;
    EXPECT_EQ(bars, expected_bars) << line;
  }
}

TEST(compare_formats, json_text_is_the_documents_text) {
  comparison c = slower_comparison();
  c.warnings.push_back("a warning that quotes \\n  \"rows\": [] in its text");
  EXPECT_EQ(format_json(c), to_json(c).dump(2) + "\n");
  c.rows.clear();
  EXPECT_EQ(format_json(c), to_json(c).dump(2) + "\n");
}

TEST(compare_formats, json_carries_every_row_and_the_verdicts) {
  const comparison c = slower_comparison();
  const auto j = nlohmann::json::parse(format_json(c));
  EXPECT_EQ(j["schema"], "gpubench.compare/1");
  EXPECT_EQ(j["regressed"], true);
  EXPECT_EQ(j["regressions"], 1);
  EXPECT_EQ(j["counts"]["SLOWER"], 1);
  ASSERT_EQ(j["rows"].size(), c.rows.size());
  bool saw_slower = false;
  for (const auto& row : j["rows"]) {
    if (row["verdict"] != "SLOWER") continue;
    saw_slower = true;
    EXPECT_EQ(row["benchmark"], "net.tcp.latency");
    EXPECT_EQ(row["bytes"], 64);
    EXPECT_NEAR(row["change"].get<double>(), -0.2, 1e-9);
    EXPECT_EQ(row["test"]["method"], "exact");
    EXPECT_LT(row["test"]["p"].get<double>(), 0.05);
  }
  EXPECT_TRUE(saw_slower);
  // The skipped-on-both-sides case has no values: nulls, not NaN or strings.
  for (const auto& row : j["rows"])
    if (row["verdict"] == "UNMEASURED") {
      EXPECT_TRUE(row["base"].is_null());
    }
}

TEST(compare_formats, junit_is_well_formed_with_one_testcase_per_row) {
  const comparison c = awkward_comparison();
  const std::string xml = format_junit(c);
  EXPECT_EQ(xml_problem(xml), "") << xml;
  EXPECT_EQ(occurrences(xml, "<testcase "), c.rows.size());
  EXPECT_EQ(occurrences(xml, "<failure "), 1u);
  EXPECT_EQ(occurrences(xml, "<skipped "), 1u);  // the case skipped on both sides
  EXPECT_NE(xml.find("failures=\"1\""), std::string::npos);
  EXPECT_NE(xml.find("a&lt;b&gt;&amp;&quot;c&quot;"), std::string::npos) << xml;
}

TEST(compare_formats, the_checker_catches_broken_xml) {
  EXPECT_NE(xml_problem("<a><b></a></b>"), "");
  EXPECT_NE(xml_problem("<a>x & y</a>"), "");
  EXPECT_NE(xml_problem("<a>"), "");
  EXPECT_EQ(xml_problem("<?xml version=\"1.0\"?>\n<a x=\"1\"><b/>t&amp;</a>"), "");
}

}  // namespace
}  // namespace gpubench::reports::compare
