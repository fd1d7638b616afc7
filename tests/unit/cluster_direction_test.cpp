// The verdict per way (issue 35): a pair's bandwidth measured both ways, each its own figure; a
// node judged slow to send or slow to receive; a link named in the way it is slow, only where
// both its ends are fine that way; sparse sweeps (a pair list, K partners per node); slow uplinks
// where the file gives each node's leaf; the second look measuring the slow way.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "cluster/confirm_plan.hpp"
#include "cluster/suspects.hpp"
#include "cluster/verdict.hpp"
#include "core/cluster.hpp"
#include "core/cluster_schedule.hpp"

namespace gpubench::cluster {
namespace direction_test {

// n nodes n0..; TCP bandwidth 1 GB/s each way, to_peer and from_peer measured, with noise
// (relative, log-normal) from a seed. A figure from -> to is the narrowest of the sender's
// send capacity, the receiver's receive capacity, the directed link and, across leaves, the
// leaves' uplinks out and in.
struct fabric {
  std::size_t n = 6;
  double noise = 0.02;
  unsigned seed = 1;
  std::map<std::size_t, double> send, receive;                  // node -> capacity
  std::map<std::pair<std::size_t, std::size_t>, double> links;  // (from, to) -> capacity
  std::vector<std::string> leaves;                              // empty: not known
  std::map<std::string, double> out, in;                        // leaf -> uplink capacity
  std::size_t k = 0;                                            // 0: every pair; else K matchings

  static double at(const std::map<std::size_t, double>& m, std::size_t i) {
    const auto it = m.find(i);
    return it == m.end() ? 1.0 : it->second;
  }
  double capacity(std::size_t from, std::size_t to) const {
    double c = std::min(at(send, from), at(receive, to));
    if (const auto it = links.find({from, to}); it != links.end()) c = std::min(c, it->second);
    if (!leaves.empty() && leaves[from] != leaves[to]) {
      const auto o = out.find(leaves[from]), i = in.find(leaves[to]);
      if (o != out.end()) c = std::min(c, o->second);
      if (i != in.end()) c = std::min(c, i->second);
    }
    return c;
  }

  core::result_file file() const {
    std::mt19937 rng(seed);
    std::normal_distribution<double> jitter(0, noise);
    core::cluster_section c;
    for (std::size_t i = 0; i < n; ++i) {
      core::cluster_node node;
      node.name = "n" + std::to_string(i);
      node.ranks = {static_cast<int>(i)};
      c.nodes.push_back(node);
    }
    c.leaves = leaves;
    if (k > 0) {
      c.plan = {"matchings", k, seed};
      const auto rounds = core::random_matchings(n, k, seed, leaves);
      for (std::size_t r = 0; r < rounds.size(); ++r)
        for (const auto& p : rounds[r])
          c.pair_list.push_back({p.a, p.b, r});
    }
    for (const std::string way : {"to_peer", "from_peer"}) {
      core::pair_measurement m;
      m.benchmark = "net.tcp.bandwidth";
      m.params = {{"streams", 1}, {"direction", way}};
      m.metric = "bandwidth";
      m.unit = "GB/s";
      m.better = "higher";
      m.bytes = 1 << 20;
      const std::size_t slots = core::slot_count(c);
      m.median.assign(slots, std::nullopt);
      m.p99.assign(slots, std::nullopt);
      m.count.assign(slots, 5);
      for (std::size_t i = 0; i < slots; ++i) {
        const auto p = core::slot_pair(c, i);
        const auto [from, to] = way == "to_peer" ? std::pair{p.b, p.a} : std::pair{p.a, p.b};
        m.median[i] = capacity(from, to) * std::exp(jitter(rng));
      }
      c.pairs.push_back(m);
    }
    core::result_file f;
    f.cluster = c;
    return f;
  }

  // The second look as the launch runs it: the plan's pairs, each the way it asks, drawn again.
  void measure_again(core::result_file& f) const {
    auto& c = *f.cluster;
    const auto plan = plan_confirmation(c);
    core::cluster_confirmation second;
    second.complete = true;
    second.candidates = plan.candidates;
    for (const auto& step : plan.steps)
      for (const auto& p : step) {
        core::confirm_pair got{p.a, p.b, p.for_node, {}};
        for (const std::string way : {"to_peer", "from_peer"}) {
          if (!p.direction.empty() && p.direction != way) continue;
          const auto [from, to] = way == "to_peer" ? std::pair{p.b, p.a} : std::pair{p.a, p.b};
          got.figures.push_back({"net.tcp.bandwidth",
                                 {{"streams", 1}, {"direction", way}},
                                 1 << 20,
                                 capacity(from, to),
                                 0,
                                 5});
        }
        second.pairs.push_back(got);
      }
    c.confirmation = second;
  }
};

using strings = std::vector<std::string>;
strings who(const std::vector<suspect>& s) {
  strings out;
  for (const auto& x : s) {
    const char* kind = x.kind == suspect_kind::link     ? "link "
                       : x.kind == suspect_kind::uplink ? "uplink "
                                                        : "node ";
    out.push_back(kind + x.node + (x.peer.empty() ? "" : "-" + x.peer) +
                  (x.direction.empty() ? "" : " " + x.direction));
  }
  return out;
}

// A node flagged both ways whose receiving figures are fine when measured again: named slow to
// send, the way that reproduced.
TEST(ClusterDirection, ANamedNodesWayIsTheWayThatReproduced) {
  fabric f;
  f.send[4] = 0.25;
  f.receive[4] = 0.25;
  auto file = f.file();
  EXPECT_EQ(who(judge(file).named), strings{"node n4"});  // both ways: no one way
  auto healed = f;
  healed.receive.clear();  // the receiving side was a moment
  healed.measure_again(file);
  const auto v = judge(file);
  EXPECT_EQ(who(v.named), strings{"node n4 send"});
  ASSERT_EQ(v.named.size(), 1u);
  EXPECT_NE(v.named[0].evidence.find("again receiving from 3 other partner(s)"), std::string::npos)
      << v.named[0].evidence;
}

// The 6 namespace hosts: n4 slowed on its sending side only (250 Mbit/s of 1 Gbit/s).
// Measured one way (to_peer), n4 sent only where it was the second end; measured both ways it
// sends in all 5 of its pairs: the node, slow to send, and no link.
TEST(ClusterDirection, AHostSlowToSendIsThatNodeSlowToSendAndNoLink) {
  fabric f;
  f.send[4] = 0.25;
  auto file = f.file();
  auto v = judge(file);
  EXPECT_EQ(who(v.named), strings{"node n4 send"});
  ASSERT_FALSE(v.named.empty());
  EXPECT_NE(v.named[0].evidence.find("slow to send: net.tcp.bandwidth 1M (streams=1): median "),
            std::string::npos)
      << v.named[0].evidence;
  EXPECT_NE(v.named[0].evidence.find("sending, cluster median"), std::string::npos);
  EXPECT_NE(v.named[0].evidence.find("5 of 5 pairs slow"), std::string::npos);
  f.measure_again(file);
  v = judge(file);
  EXPECT_EQ(who(v.named), strings{"node n4 send"});
  EXPECT_EQ(v.named[0].check, second_look::confirmed);
  EXPECT_NE(v.named[0].evidence.find("again sending to 3 other partner(s)"), std::string::npos)
      << v.named[0].evidence;
  EXPECT_TRUE(v.unconfirmed.empty());
}

// The console says the way after the name, so a line's "# suspect node n4:" reads as before.
TEST(ClusterDirection, TheConsoleSaysTheWay) {
  fabric f;
  f.n = 8;
  f.send[4] = 0.25;
  f.links[{6, 1}] = 0.3;
  auto file = f.file();
  f.measure_again(file);
  testing::internal::CaptureStdout();
  finish_run(file, false);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out.rfind("# suspects: 2\n# suspect node n4: slow to send: net.tcp.bandwidth ", 0), 0u)
      << out;
  // The link by its ends in the file's order, the way in words.
  EXPECT_NE(out.find("\n# suspect link n1 - n6: slow from n6 to n1: net.tcp.bandwidth "),
            std::string::npos)
      << out;
}

TEST(ClusterDirection, AHostSlowToReceiveIsThatNodeSlowToReceiveAndNoLink) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    fabric f;
    f.seed = seed;
    f.receive[2] = 0.25;
    auto file = f.file();
    f.measure_again(file);
    EXPECT_EQ(who(judge(file).named), strings{"node n2 receive"}) << "seed " << seed;
  }
}

// A file of the old launch, bandwidth to_peer only: the node still is judged by the pairs where
// it sends (the second end of each), not cleared by those where it receives, and measured again
// where it sends.
TEST(ClusterDirection, OneWayFilesJudgeEachNodeByTheFiguresItSent) {
  fabric f;
  f.send[4] = 0.25;
  auto file = f.file();
  file.cluster->pairs.pop_back();  // from_peer gone
  EXPECT_EQ(who(judge(file).named), strings{"node n4 send"});
  // Its second look is measured that one way too: partners where n4 is the sending end (b).
  for (const auto& step : plan_confirmation(*file.cluster).steps)
    for (const auto& p : step) {
      EXPECT_EQ(p.b, 4u) << p.a << "-" << p.b;
      EXPECT_EQ(p.direction, "to_peer");
    }
  // Slow to receive, measured to_peer only: n1 receives where it is the first end (a).
  fabric g;
  g.receive[1] = 0.25;
  auto one_way = g.file();
  one_way.cluster->pairs.pop_back();
  EXPECT_EQ(who(judge(one_way).named), strings{"node n1 receive"});
  const auto plan = plan_confirmation(*one_way.cluster);
  ASSERT_EQ(plan.pair_count(), confirm_partners);
  for (const auto& step : plan.steps)
    for (const auto& p : step)
      EXPECT_EQ(p.a, 1u) << p.a << "-" << p.b;
}

// The second look measures the slow way only, with the candidate on the slow side, against
// partners that are no candidates; a link is measured the way it was slow.
TEST(ClusterDirection, TheSecondLookMeasuresTheWayThatWasSlow) {
  fabric f;
  f.n = 10;
  f.send[3] = 0.3;
  f.receive[7] = 0.3;
  f.links[{5, 1}] = 0.3;  // n5 -> n1 slow, n1 -> n5 fine
  const auto plan = plan_confirmation(*f.file().cluster);
  std::size_t for3 = 0, for7 = 0, link = 0;
  for (const auto& step : plan.steps)
    for (const auto& p : step) {
      const std::size_t sender = p.direction == "to_peer" ? p.b : p.a;
      if (p.for_node == 3u) {
        ++for3;
        EXPECT_EQ(sender, 3u) << p.a << "-" << p.b << " " << p.direction;
      } else if (p.for_node == 7u) {
        ++for7;
        EXPECT_NE(sender, 7u) << p.a << "-" << p.b << " " << p.direction;
      } else {
        ++link;
        EXPECT_EQ(p.a, 1u);
        EXPECT_EQ(p.b, 5u);
        EXPECT_EQ(p.direction, "to_peer");  // b -> a: n5 sends
      }
      EXPECT_FALSE(p.direction.empty());
      for (const auto end : {p.a, p.b}) {
        if (p.for_node && end != *p.for_node) {
          EXPECT_TRUE(end != 1 && end != 5 && end != 3 && end != 7) << "partner n" << end;
        }
      }
    }
  EXPECT_EQ(for3, confirm_partners);
  EXPECT_EQ(for7, confirm_partners);
  EXPECT_EQ(link, 1u);
  auto file = f.file();
  f.measure_again(file);
  const auto v = judge(file);
  EXPECT_EQ(who(v.named), (strings{"node n3 send", "node n7 receive", "link n5-n1 send"}));
  ASSERT_EQ(v.named.size(), 3u);
  EXPECT_NE(v.named[2].evidence.find("n5 sending to n1"), std::string::npos) << v.named[2].evidence;
}

// A link slow one way whose receiving end is slow to send: that end is not slow the way the link
// runs, so it hides nothing; the link is named. A link into a node slow to receive is that
// node's evidence.
TEST(ClusterDirection, ALinkIsNamedOnlyWhereItsEndsAreFineThatWay) {
  fabric f;
  f.n = 10;
  f.send[2] = 0.3;
  f.links[{6, 2}] = 0.3;  // into n2, which receives fine
  auto file = f.file();
  f.measure_again(file);
  EXPECT_EQ(who(judge(file).named), (strings{"node n2 send", "link n6-n2 send"}));

  fabric g;
  g.n = 10;
  g.receive[2] = 0.3;
  g.links[{6, 2}] = 0.1;  // into n2, which is slow to receive: its evidence
  file = g.file();
  g.measure_again(file);
  EXPECT_EQ(who(judge(file).named), strings{"node n2 receive"});
}

// A link slow both ways is one link, with no way.
TEST(ClusterDirection, ALinkSlowBothWaysIsOneLink) {
  fabric f;
  f.n = 8;
  f.links[{2, 5}] = 0.3;
  f.links[{5, 2}] = 0.3;
  auto file = f.file();
  f.measure_again(file);
  EXPECT_EQ(who(judge(file).named), strings{"link n2-n5"});
}

// A sparse sweep: 64 nodes, K = 4 random matchings, 2% noise: a node slowed by 15% one way
// (4 figures that way) is named that way; a slow link on a measured pair is named; nothing else
// in 20 seeds.
TEST(ClusterDirection, SparseSweepsNameNodesByTheirKFiguresEachWay) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    fabric f;
    f.n = 64;
    f.k = 4;
    f.seed = seed;
    f.send[10] = 0.85;
    f.receive[20] = 0.85;
    auto file = f.file();
    ASSERT_EQ(core::slot_count(*file.cluster), 4u * 32);
    // A slow link on a pair the sweep measured, between healthy ends.
    auto p = file.cluster->pair_list[0];
    for (const auto& q : file.cluster->pair_list)
      if (q.a != 10 && q.a != 20 && q.b != 10 && q.b != 20) {
        p = q;
        break;
      }
    f.links[{p.a, p.b}] = 0.4;
    file = f.file();
    f.measure_again(file);
    const std::string link = "link n" + std::to_string(p.a) + "-n" + std::to_string(p.b) + " send";
    EXPECT_EQ(who(judge(file).named), (strings{"node n10 send", "node n20 receive", link}))
        << "seed " << seed;
  }
}

// Healthy sparse clusters at 2% noise, K = 3 and 4: nobody named once the second look has
// measured the candidates again (one pass may name a node whose 3 figures fell low together).
TEST(ClusterDirection, SparseSweepsNameNoHealthyNodeAtTwoPercentNoise) {
  for (const std::size_t k : {3u, 4u})
    for (unsigned seed = 1; seed <= 20; ++seed) {
      fabric f;
      f.n = 256;
      f.k = k;
      f.seed = seed;
      auto file = f.file();
      f.measure_again(file);
      EXPECT_TRUE(find_suspects(file).empty())
          << "K " << k << " seed " << seed << ": " << find_suspects(file).front().evidence;
    }
}

// Two leaves of four with leaf b's uplink slow out of the leaf: the uplinks on that path (b's
// out of b, a's into a: with two leaves nothing tells them apart) and none of the nodes; with no
// leaves in the file, no uplink is invented.
TEST(ClusterDirection, ASlowUplinkIsTheUplinkNotItsNodes) {
  fabric f;
  f.n = 8;
  f.leaves = {"a", "a", "a", "a", "b", "b", "b", "b"};
  f.out["b"] = 0.5;
  auto file = f.file();
  f.measure_again(file);
  const auto v = judge(file);
  EXPECT_EQ(who(v.named), (strings{"uplink a receive", "uplink b send"}));
  ASSERT_EQ(v.named.size(), 2u);
  EXPECT_NE(v.named[1].evidence.find("slow out of the leaf: "), std::string::npos)
      << v.named[1].evidence;
  EXPECT_NE(v.named[1].evidence.find("16 of 16 cross-leaf pairs slow"), std::string::npos)
      << v.named[1].evidence;
  EXPECT_NE(v.named[1].evidence.find("two leaves"), std::string::npos);

  auto unknown = f;
  unknown.leaves.clear();
  unknown.out.clear();
  for (std::size_t i = 4; i < 8; ++i)  // the same figures, the shape not given
    for (std::size_t j = 0; j < 4; ++j)
      unknown.links[{i, j}] = 0.5;
  for (const auto& s : judge(unknown.file()).named)
    EXPECT_NE(s.kind, suspect_kind::uplink) << s.evidence;
}

// Two leaves on a loaded machine (every figure scattered by 20%, as healthy TCP pairs starved
// of CPU are): a median of many crossing figures a little under the one within leaves names no
// uplink, while an uplink at half its rate is named.
TEST(ClusterDirection, NoisyFiguresMakeNoUplinkAHalfRateUplinkDoes) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    fabric f;
    f.n = 8;
    f.noise = 0.2;
    f.seed = seed;
    f.leaves = {"a", "a", "a", "a", "b", "b", "b", "b"};
    for (const auto& s : judge(f.file()).named)
      EXPECT_NE(s.kind, suspect_kind::uplink) << "seed " << seed << ": " << s.evidence;
    f.noise = 0.1;
    f.out["b"] = f.in["b"] = 0.5;
    auto file = f.file();
    f.measure_again(file);
    EXPECT_EQ(who(judge(file).named), (strings{"uplink a", "uplink b"})) << "seed " << seed;
  }
}

// 16 leaves of 16, K = 4 (two rounds within leaves, two across): a leaf whose uplink is slow
// into it is named, its nodes are not, and a slow node on another leaf still is, measured again
// against partners of its own leaf.
TEST(ClusterDirection, TopologyAwareSweepsTellAnUplinkFromANode) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    fabric f;
    f.n = 256;
    f.k = 4;
    f.seed = seed;
    for (std::size_t i = 0; i < f.n; ++i)
      f.leaves.push_back("leaf" + std::to_string(i / 16));
    f.in["leaf3"] = 0.7;
    f.send[200] = 0.8;
    auto file = f.file();
    // n200 measured again within its own leaf (leaf12: n192..n207), no uplink on the path.
    for (const auto& step : plan_confirmation(*file.cluster).steps)
      for (const auto& p : step)
        if (p.for_node == 200u) {
          EXPECT_EQ(p.a / 16, 12u) << p.a << "-" << p.b;
          EXPECT_EQ(p.b / 16, 12u) << p.a << "-" << p.b;
        }
    f.measure_again(file);
    EXPECT_EQ(who(judge(file).named), (strings{"node n200 send", "uplink leaf3 receive"}))
        << "seed " << seed;
  }
}

}  // namespace direction_test
}  // namespace gpubench::cluster
