// The PDF's page flow and wide tables, read back with poppler's pdftotext: sections flow and
// break only where asked, a heading stays with its table, no page is empty, and a table too
// wide for the page is split by columns into parts that each repeat the row label.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "reports/model/document.hpp"
#include "reports/render/charts.hpp"

namespace gpubench::reports {
namespace {

using namespace model;
using namespace render;

// The text of each page (pdftotext separates pages with form feeds), or a reason to skip.
class pdf_text {
 public:
  explicit pdf_text(const document& doc) {
    if (charts_unavailable()) {
      m_skip = "PDF: " + *charts_unavailable();
      return;
    }
    if (std::system("command -v pdftotext >/dev/null 2>&1") != 0) {
      m_skip = "pdftotext (poppler-utils) not installed";
      return;
    }
    const auto base = std::filesystem::temp_directory_path() /
                      ("gpubench-pdf-test-" + std::to_string(::getpid()));
    const auto pdf = base.string() + ".pdf";
    const auto txt = base.string() + ".txt";
    write_pdf(doc, pdf);
    const int rc = std::system(("pdftotext '" + pdf + "' '" + txt + "'").c_str());
    std::ifstream in(txt);
    std::stringstream all;
    all << in.rdbuf();
    std::filesystem::remove(pdf);
    std::filesystem::remove(txt);
    if (rc != 0) throw std::runtime_error("pdftotext failed on " + pdf);
    std::string page;
    for (const char c : all.str()) {
      if (c == '\f') {
        m_pages.push_back(page);
        page.clear();
      } else {
        page += c;
      }
    }
    if (!page.empty()) m_pages.push_back(page);
  }

  const std::string& skip() const { return m_skip; }
  const std::vector<std::string>& pages() const { return m_pages; }
  std::string all() const {
    std::string s;
    for (const auto& p : m_pages)
      s += p;
    return s;
  }
  // The first page (from 0) whose text has `what`, or -1; page 0 (the title page) lists the
  // headings too.
  int page_of(const std::string& what, std::size_t first = 0) const {
    for (std::size_t i = first; i < m_pages.size(); ++i)
      if (m_pages[i].find(what) != std::string::npos) return static_cast<int>(i);
    return -1;
  }

 private:
  std::string m_skip;
  std::vector<std::string> m_pages;
};

section text_section(const std::string& title, bool new_page, int paragraphs = 1) {
  section s{title, 1, {}};
  s.new_page = new_page;
  for (int i = 0; i < paragraphs; ++i)
    s.blocks.emplace_back(paragraph{title + " text " + std::to_string(i)});
  return s;
}

// Every page has more than its footer ("gpubench report, page N").
void expect_no_empty_page(const pdf_text& pdf) {
  for (std::size_t i = 0; i < pdf.pages().size(); ++i) {
    std::string rest = pdf.pages()[i];
    const auto footer = rest.find("gpubench report, page");
    if (footer != std::string::npos) rest.erase(footer, rest.find('\n', footer) - footer);
    EXPECT_NE(rest.find_first_not_of(" \n"), std::string::npos) << "page " << i + 1 << " empty";
  }
}

TEST(PdfWriter, SectionsFlowAndBreakOnlyWhereAsked) {
  document doc;
  doc.title = "flow test";
  doc.sections.push_back(text_section("Page one", true));
  for (int i = 0; i < 8; ++i)
    doc.sections.push_back(text_section("Short part " + std::to_string(i), false));
  doc.sections.push_back(text_section("Appendix Z", true));
  const pdf_text pdf(doc);
  if (!pdf.skip().empty()) GTEST_SKIP() << pdf.skip();
  // Title page; page one with the eight short parts after it; the appendix on a page of its own.
  ASSERT_EQ(pdf.pages().size(), 3u) << pdf.all();
  EXPECT_EQ(pdf.page_of("Short part 7 text"), 1);
  EXPECT_EQ(pdf.page_of("Appendix Z text"), 2);
  expect_no_empty_page(pdf);
}

TEST(PdfWriter, LongTitlePageRunsOnInsteadOfOffThePage) {
  document doc;
  doc.title = "many inputs";
  for (int i = 0; i < 40; ++i)
    doc.subtitle.push_back("input file " + std::to_string(i));
  for (int i = 0; i < 30; ++i)
    doc.sections.push_back(text_section("Part " + std::to_string(i), i == 0));
  const pdf_text pdf(doc);
  if (!pdf.skip().empty()) GTEST_SKIP() << pdf.skip();
  // Text drawn below the page is not in the file's text: each line must be on a page.
  const int contents = pdf.page_of("Contents");
  ASSERT_GE(contents, 0) << pdf.all();
  EXPECT_NE(pdf.page_of("input file 39"), -1);
  EXPECT_LE(pdf.page_of("Part 29"), contents + 1);  // the last contents line
  EXPECT_GT(pdf.page_of("Part 0 text"), pdf.page_of("Part 29"));
  expect_no_empty_page(pdf);
}

TEST(PdfWriter, HeadingStaysWithItsTableAndTablesBreakBetweenRows) {
  // Filler of every length that leaves the heading near the foot of the first page.
  for (int filler = 30; filler <= 38; ++filler) {
    SCOPED_TRACE("paragraphs of filler: " + std::to_string(filler));
    document doc;
    doc.title = "keep test";
    doc.sections.push_back(text_section("Filler", true, filler));
    section s{"Kept heading", 1, {}};
    table t;
    t.caption = "kept caption";
    t.header = {"variant", "value"};
    t.numeric = {false, true};
    for (int i = 0; i < 200; ++i)
      t.rows.push_back({"row " + std::to_string(i), std::to_string(i * 7)});
    s.blocks.emplace_back(t);
    doc.sections.push_back(s);
    const pdf_text pdf(doc);
    if (!pdf.skip().empty()) GTEST_SKIP() << pdf.skip();
    const int heading = pdf.page_of("Kept heading", 1);
    ASSERT_GE(heading, 1);
    EXPECT_EQ(pdf.page_of("kept caption"), heading);
    EXPECT_EQ(pdf.page_of("row 0"), heading);
    // The table runs on over pages, each starting with its header.
    const int last = pdf.page_of("row 199");
    ASSERT_GT(last, heading);
    for (int p = heading; p <= last; ++p)
      EXPECT_NE(pdf.pages()[static_cast<std::size_t>(p)].find("variant"), std::string::npos) << p;
    expect_no_empty_page(pdf);
  }
}

TEST(PdfWriter, WideTableSplitsByColumnsRepeatingTheRowLabel) {
  document doc;
  doc.title = "wide test";
  section s{"Every point", 1, {}};
  s.new_page = true;
  table t;
  t.caption = "wide caption";
  t.header = {"variant", "size"};
  for (int c = 0; c < 15; ++c)
    t.header.push_back("measurement" + std::to_string(c));
  t.numeric.assign(t.header.size(), true);
  t.numeric[0] = false;
  for (int r = 0; r < 12; ++r) {
    std::vector<std::string> row{"label" + std::to_string(r), std::to_string(1 << r) + "K"};
    for (int c = 0; c < 15; ++c)
      row.push_back(std::to_string(123456.789 + r * 1000 + c));
    t.rows.push_back(row);
  }
  s.blocks.emplace_back(t);
  doc.sections.push_back(s);
  const pdf_text pdf(doc);
  if (!pdf.skip().empty()) GTEST_SKIP() << pdf.skip();
  const auto text = pdf.all();
  // Each header whole: no column squashed to a few characters a line.
  for (const auto& h : t.header)
    EXPECT_NE(text.find(h), std::string::npos) << h;
  EXPECT_NE(text.find("wide caption (part 1 of"), std::string::npos) << text;
  EXPECT_NE(text.find("wide caption (part 2 of"), std::string::npos) << text;
  // The row label in every part; each value whole.
  std::size_t labels = 0;
  for (auto at = text.find("label11"); at != std::string::npos; at = text.find("label11", at + 1))
    ++labels;
  EXPECT_GE(labels, 2u);
  EXPECT_NE(text.find("134470.789000"), std::string::npos);  // the last row's last value
  expect_no_empty_page(pdf);
}

}  // namespace
}  // namespace gpubench::reports
