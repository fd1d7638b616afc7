// Prefixing the ids of inline SVG charts: right, and in one pass over the text.
#include <gtest/gtest.h>

#include <string>

#include "reports/render/svg_ids.hpp"

using gpubench::reports::render::prefix_svg_ids;
using gpubench::reports::render::replace_all;

TEST(SvgIds, PrefixesIdsAndTheirReferences) {
  const std::string svg =
      "<?xml version=\"1.0\"?>\n<svg><clipPath id=\"clip1\"/><use xlink:href=\"#glyph0-1\"/>"
      "<g clip-path=\"url(#clip1)\"/></svg>";
  EXPECT_EQ(prefix_svg_ids(svg, "c3-"),
            "<svg><clipPath id=\"c3-clip1\"/><use xlink:href=\"#c3-glyph0-1\"/>"
            "<g clip-path=\"url(#c3-clip1)\"/></svg>");
}

TEST(SvgIds, ReplaceAllEdges) {
  EXPECT_EQ(replace_all("", "a", "b"), "");
  EXPECT_EQ(replace_all("aaa", "a", "aa"), "aaaaaa");  // a replacement is not searched again
  EXPECT_EQ(replace_all("xax", "", "b"), "xax");
  EXPECT_EQ(replace_all("abab", "ab", ""), "");
}

// A chart of thousands of series holds hundreds of thousands of ids. Replacing them in place
// moved the rest of the text each time: about 3e11 bytes moved for this input (minutes, and
// the test's timeout), where one pass takes milliseconds. Not timed: the result is checked.
TEST(SvgIds, HundredsOfThousandsOfIds) {
  std::string svg = "<svg>";
  const int n = 200000;
  for (int i = 0; i < n; ++i)
    svg += "<path id=\"p\"/>";
  svg += "</svg>";
  const std::string out = prefix_svg_ids(svg, "c1-");
  EXPECT_EQ(out.size(), svg.size() + 3u * n);
  EXPECT_EQ(out.find("id=\"p\""), std::string::npos);
}
