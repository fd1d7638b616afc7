#include "core/topology.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace gpubench::core {
namespace {

using names = std::vector<std::string>;

// The message of the input_error `text` raises, or "" when it parses.
std::string parse_error(const std::string& text) {
  try {
    topology::parse(text, "topo.conf");
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}

TEST(Hostlist, ExpandsRangesListsAndPadding) {
  EXPECT_EQ(expand_hostlist("node[01-03]"), (names{"node01", "node02", "node03"}));
  EXPECT_EQ(expand_hostlist("gpu[1,3-4]x,login"), (names{"gpu1x", "gpu3x", "gpu4x", "login"}));
  EXPECT_EQ(expand_hostlist("n[8-10]"), (names{"n8", "n9", "n10"}));
  EXPECT_EQ(expand_hostlist("r[1-2]b[0-1]"), (names{"r1b0", "r1b1", "r2b0", "r2b1"}));
  EXPECT_EQ(expand_hostlist("plain"), (names{"plain"}));
}

TEST(Hostlist, RefusesWhatIsNoList) {
  for (const char* bad : {"n[1-", "n]1[", "n[]", "n[a-b]", "n[3-1]", "a,,b", "n[[1]]",
                          "n[1-99999999]", "n[0-9999][0-9999]"})
    EXPECT_THROW(expand_hostlist(bad), std::invalid_argument) << bad;
}

TEST(Topology, GivesEachNodeItsLeaf) {
  const auto t = topology::parse(
      "# two leaves under a spine\n"
      "SwitchName=leaf1 Nodes=node[01-04] LinkSpeed=100\n"
      "SwitchName=leaf2 Nodes=node[05-06],gpu7\n"
      "SwitchName=spine Switches=leaf[1-2]   # the top\n",
      "topo.conf");
  EXPECT_EQ(t.switches().size(), 3u);
  EXPECT_EQ(t.node_count(), 7u);
  EXPECT_EQ(t.leaf_of("node03"), "leaf1");
  EXPECT_EQ(t.leaf_of("gpu7"), "leaf2");
  EXPECT_FALSE(t.leaf_of("node07").has_value());
  EXPECT_EQ(t.switches()[2].switches, (names{"leaf1", "leaf2"}));
  EXPECT_EQ(t.switches()[2].line, 4u);
  // A node the file does not place gets "": nothing invented.
  EXPECT_EQ(t.leaves_of({"node01", "other", "node06"}), (names{"leaf1", "", "leaf2"}));
}

TEST(Topology, TakesSlurmsSpellingAndContinuations) {
  const auto t = topology::parse(
      "switchname=s0 nodes=a[1-2] \\\n"
      "  linkspeed=10\n"
      "\n"
      "SwitchName=top Switches=s0\n",
      "topo.conf");
  EXPECT_EQ(t.leaf_of("a2"), "s0");
  EXPECT_EQ(t.switches()[1].line, 4u);
}

TEST(Topology, SaysWhatIsWrongAndOnWhichLine) {
  EXPECT_NE(parse_error("SwitchName=a Nodes=n1\nSwitchName=b Node=n2\n")
                .find("line 2: unknown key 'Node'"),
            std::string::npos);
  EXPECT_NE(parse_error("Nodes=n1 SwitchName=a\n").find("line 1: a line starts with SwitchName="),
            std::string::npos);
  EXPECT_NE(parse_error("SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n2\n")
                .find("line 2: node 'n2' is already under switch 'a'"),
            std::string::npos);
  EXPECT_NE(parse_error("SwitchName=a Nodes=n1\n\nSwitchName=a Nodes=n2\n")
                .find("line 3: switch 'a' is already defined on line 1"),
            std::string::npos);
  EXPECT_NE(parse_error("SwitchName=a Nodes=n1\nSwitchName=top Switches=a,b\n")
                .find("line 2: switch 'top' lists 'b' in Switches=, which no SwitchName= defines"),
            std::string::npos);
  EXPECT_NE(parse_error("SwitchName=a Nodes=n[5-1]\n")
                .find("line 1: 'Nodes=n[5-1]': range '5-1' runs backwards"),
            std::string::npos);
  EXPECT_NE(
      parse_error("SwitchName=a\n").find("line 1: switch 'a' has neither Nodes= nor Switches="),
      std::string::npos);
  EXPECT_NE(parse_error("SwitchName=a Nodes=\n").find("line 1: 'Nodes=': no value"),
            std::string::npos);
  EXPECT_NE(parse_error("SwitchName=a Nodes=n1 junk\n").find("line 1: 'junk': expected KEY=VALUE"),
            std::string::npos);
  EXPECT_NE(parse_error("SwitchName=a Switches=a\n").find("line 1: switch 'a' lists itself"),
            std::string::npos);
  EXPECT_NE(parse_error("# only a comment\n\n").find("topo.conf: no switch defined"),
            std::string::npos);
  EXPECT_EQ(parse_error("SwitchName=a Nodes=n1\n"), "");
}

TEST(Topology, AFileThatCannotBeReadIsAnInputError) {
  try {
    topology::read("/nonexistent/topology.conf");
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/topology.conf: cannot read"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace gpubench::core
