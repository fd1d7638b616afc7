// The one text-table printer: fitted and fixed columns, what runs free, fill, trim and colour.
#include <gtest/gtest.h>

#include "core/text_table.hpp"

using namespace gpubench::core;

TEST(TextTable, FitsColumnsToTheWidestCellAndLeavesTheLastFree) {
  text_table_style style;
  style.header_prefix = "  ";
  style.row_prefix = "  ";
  text_table t({{"name"}, {"speed"}, {"ipv4"}}, style);
  t.add_row({"eth0", "100 Gb/s", "198.18.0.1"});
  t.add_row({"lo", "-", ""});
  EXPECT_EQ(t.render(),
            "  name  speed     ipv4\n"
            "  eth0  100 Gb/s  198.18.0.1\n"
            "  lo    -         \n");
}

TEST(TextTable, FixedColumnsLetALongCellPushItsLine) {
  text_table_style style;
  style.header_prefix = "# ";
  style.row_prefix = "  ";
  style.fit = false;
  text_table t(
      {{"size", align::right, 6}, {"value", align::right, 6, 1}, {"by", align::left, 0, 2}}, style);
  t.add_row({"4 KiB", "1.50", "noise"});
  t.add_row({"123456789 B", "2", "timeout"});
  EXPECT_EQ(t.render(),
            "#   size  value  by\n"
            "   4 KiB   1.50  noise\n"
            "  123456789 B      2  timeout\n");
}

TEST(TextTable, FillsShortRowsDropsExtraCellsAndTrims) {
  text_table_style style;
  style.fill = "-";
  style.trim = true;
  style.pad_last = true;
  text_table t({{"a"}, {"b"}, {"c"}}, style);
  t.add_row({"1"});
  t.add_row({"1", "2", "3", "4"});
  t.add_row({"1", "", ""});
  EXPECT_EQ(t.render(),
            "a  b  c\n"
            "1  -  -\n"
            "1  2  3\n"
            "1\n");
}

TEST(TextTable, WrappedCellsTakeNoWidth) {
  text_table_style style;
  style.trim = true;
  text_table t({{"VERDICT"}, {"CASE"}, {""}}, style);
  t.add_row({"SLOWER", "a", "note"});
  t.wrap_cell(0, "\033[31m", "\033[0m");
  t.add_row({"SAME", "bb", ""});
  EXPECT_EQ(t.render(),
            "VERDICT  CASE\n"
            "\033[31mSLOWER \033[0m  a     note\n"
            "SAME     bb\n");
}

TEST(TextTable, NoColumnsIsOnePrefixPerLine) {
  text_table_style style;
  style.header_prefix = "  ";
  style.row_prefix = "  ";
  text_table t({}, style);
  t.add_row({});
  EXPECT_EQ(t.render(), "  \n  \n");
}
