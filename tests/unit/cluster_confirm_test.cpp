// The second look at cluster suspects (cluster/confirm_plan.hpp, reproduce.hpp, suspects.hpp):
// what is measured again, what is named when it reproduces or does not, the stable-point rule,
// and the result file's confirmation section.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "cluster/confirm_plan.hpp"
#include "cluster/suspects.hpp"
#include "cluster/verdict.hpp"
#include "core/cluster.hpp"
#include "core/errors.hpp"
#include "core/result_json.hpp"

namespace gpubench::cluster {
namespace confirm_test {

using core::pair_index;

// n nodes n0..; every pair's TCP bandwidth 1.0 GB/s and latency 10 us; each node's host copy
// at 64 MiB 20 GB/s with samples that scatter by about `sample_noise` (relative).
struct cluster_builder {
  std::size_t n = 6;
  double sample_noise = 0.01;
  std::map<std::size_t, double> local_factor;                            // node -> host copy x
  std::map<std::pair<std::size_t, std::size_t>, double> bw_factor;       // pair -> bandwidth x
  std::map<std::pair<std::size_t, std::size_t>, double> latency_factor;  // pair -> latency x
  std::set<std::size_t> slow_nodes;                                      // every pair at 1/4
  double latency_tail = 0;  // each latency pair's p99 over its median (0: no p99)

  static core::case_result host_copy(double median, double noise) {
    core::case_result r;
    r.benchmark = "memory.host.copy";
    r.params = {{"threads", 1}};
    r.metric = "bandwidth";
    r.unit = "GB/s";
    r.better = "higher";
    core::point_result p;
    p.bytes = 1 << 26;
    p.stats.median = median;
    // Seven samples around the median, a relative scaled MAD of about `noise`.
    for (double d : {-3.0, -1.0, -0.7, 0.0, 0.7, 1.0, 3.0})
      p.samples.push_back(median * (1 + d * noise / 1.4826));
    r.points.push_back(p);
    return r;
  }

  double pair_factor(std::size_t a, std::size_t b, bool latency) const {
    if (slow_nodes.count(a) || slow_nodes.count(b)) return latency ? 4.0 : 0.25;
    const auto& m = latency ? latency_factor : bw_factor;
    const auto it = m.find({std::min(a, b), std::max(a, b)});
    return it == m.end() ? 1.0 : it->second;
  }

  // Mild, fixed variation so the MAD is not zero.
  static double wobble(std::size_t i) { return 1.0 + 0.01 * static_cast<double>(i % 5) - 0.02; }

  core::result_file file() const {
    core::cluster_section c;
    for (std::size_t i = 0; i < n; ++i) {
      core::cluster_node node;
      node.name = "n" + std::to_string(i);
      node.ranks = {static_cast<int>(i)};
      const auto f = local_factor.find(i);
      node.results.push_back(
          host_copy(20.0 * wobble(i) * (f == local_factor.end() ? 1.0 : f->second), sample_noise));
      c.nodes.push_back(node);
    }
    for (const bool latency : {false, true}) {
      core::pair_measurement m;
      m.benchmark = latency ? "net.tcp.latency" : "net.tcp.bandwidth";
      m.params = {{"streams", 1}};
      m.metric = latency ? "latency" : "bandwidth";
      m.unit = latency ? "us" : "GB/s";
      m.better = latency ? "lower" : "higher";
      m.bytes = latency ? 8 : 1 << 20;
      m.median.assign(core::pair_count(n), std::nullopt);
      m.p99.assign(core::pair_count(n), std::nullopt);
      m.count.assign(core::pair_count(n), 100);
      for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = a + 1; b < n; ++b) {
          const std::size_t i = pair_index(a, b, n);
          m.median[i] = (latency ? 10.0 : 1.0) * wobble(a + b) * pair_factor(a, b, latency);
          if (latency && latency_tail > 0) m.p99[i] = *m.median[i] * latency_tail;
        }
      c.pairs.push_back(m);
    }
    core::result_file out;
    out.cluster = c;
    return out;
  }
};

// What the launch does, as a function: the plan of `f`, each pair measured again by `pair`
// (a, b, the pair measurement) and each local point by `local` (node, first-pass median).
using pair_again_fn =
    std::function<double(std::size_t, std::size_t, const core::pair_measurement&)>;
using local_again_fn = std::function<double(std::size_t, double)>;

void measure_again(core::result_file& f, const pair_again_fn& pair, const local_again_fn& local) {
  auto& c = *f.cluster;
  const auto plan = plan_confirmation(c);
  core::cluster_confirmation k;
  k.complete = true;
  k.candidates = plan.candidates;
  for (const auto& rerun : plan.local) {
    core::confirm_node node{rerun.node, {}};
    for (const auto& r : c.nodes[rerun.node].results)
      node.results.push_back(
          cluster_builder::host_copy(local(rerun.node, r.points[0].stats.median), 0.01));
    k.nodes.push_back(node);
  }
  for (const auto& step : plan.steps)
    for (const auto& p : step) {
      core::confirm_pair got{p.a, p.b, p.for_node, {}};
      for (const auto& m : c.pairs)
        got.figures.push_back({m.benchmark, m.params, m.bytes, pair(p.a, p.b, m), 0, 100});
      k.pairs.push_back(got);
    }
  c.confirmation = k;
}

// The same figures as the first pass: a real fault reproduces.
pair_again_fn same_pairs(const core::result_file& f) {
  const std::size_t n = f.cluster->nodes.size();
  return [n](std::size_t a, std::size_t b, const core::pair_measurement& m) {
    return *m.median[pair_index(a, b, n)];
  };
}
// Every figure at the cluster's usual value: a moment that passed.
double usual_pair(std::size_t, std::size_t, const core::pair_measurement& m) {
  return m.better == "lower" ? 10.0 : 1.0;
}
double same_local(std::size_t, double first) {
  return first;
}
double usual_local(std::size_t, double) {
  return 20.0;
}

using strings = std::vector<std::string>;
strings who(const std::vector<suspect>& s) {
  strings out;
  for (const auto& x : s)
    out.push_back((x.kind == suspect_kind::link ? "link " : "node ") + x.node +
                  (x.peer.empty() ? "" : "-" + x.peer));
  return out;
}

TEST(ClusterConfirm, WithoutASecondLookTheFirstLookStandsMarkedNotReMeasured) {
  cluster_builder b;
  b.local_factor[4] = 0.5;
  const auto v = judge(b.file());
  EXPECT_FALSE(v.second_look);
  EXPECT_EQ(who(v.named), strings{"node n4"});
  EXPECT_EQ(v.named[0].check, second_look::not_taken);
  EXPECT_TRUE(v.unconfirmed.empty());
  testing::internal::CaptureStdout();
  finish_run(b.file(), false);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out.rfind("# suspects: 1\n# suspect node n4: memory.host.copy 10.2 GB/s against "
                      "cluster median 19.7 GB/s (not re-measured): ",
                      0),
            0u)
      << out;
}

TEST(ClusterConfirm, ASlowLocalFigureThatReproducesIsNamedConfirmed) {
  cluster_builder b;
  b.local_factor[4] = 0.5;
  auto f = b.file();
  measure_again(f, same_pairs(f), same_local);
  const auto v = judge(f);
  EXPECT_TRUE(v.second_look);
  ASSERT_EQ(who(v.named), strings{"node n4"});
  EXPECT_EQ(v.named[0].check, second_look::confirmed);
  EXPECT_NEAR(v.named[0].again, 10.0, 0.5);
  EXPECT_NE(v.named[0].evidence.find(": reproduced"), std::string::npos) << v.named[0].evidence;
  EXPECT_TRUE(v.unconfirmed.empty());
}

TEST(ClusterConfirm, ANoisyLocalFigureThatDoesNotReproduceIsUnconfirmedWithBothFigures) {
  cluster_builder b;
  b.local_factor[4] = 0.76;
  auto f = b.file();
  measure_again(f, same_pairs(f), usual_local);
  const auto v = judge(f);
  EXPECT_TRUE(v.named.empty()) << v.named[0].evidence;
  ASSERT_EQ(who(v.unconfirmed), strings{"node n4"});
  EXPECT_EQ(v.unconfirmed[0].check, second_look::not_reproduced);
  EXPECT_NEAR(v.unconfirmed[0].value, 15.5, 0.1);  // the first figure
  EXPECT_NEAR(v.unconfirmed[0].again, 20.0, 0.5);  // the second
  testing::internal::CaptureStdout();
  EXPECT_EQ(finish_run(f, true), 0);  // --fail-on-suspect: nothing named
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("# suspects: none\n# unconfirmed: 1"), std::string::npos) << out;
  EXPECT_NE(out.find("# unconfirmed node n4: memory.host.copy 15.5 GB/s against cluster median "),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("again 20 GB/s (not reproduced)"), std::string::npos) << out;
}

// The machine busier during the second look than during the first: the candidate comes out slow
// again, but so does every node run beside it at the same moment, so it is not confirmed.
TEST(ClusterConfirm, ALocalFigureSlowOnlyBecauseTheMachineIsBusyIsNotConfirmed) {
  cluster_builder b;
  b.local_factor[4] = 0.6;
  auto f = b.file();
  const auto plan = plan_confirmation(*f.cluster);
  ASSERT_EQ(plan.local.size(), b.n);  // every node runs the flagged point again
  ASSERT_EQ(plan.local[0].points.size(), 1u);
  EXPECT_EQ(plan.local[0].points[0].bytes, 1u << 26);
  measure_again(f, same_pairs(f), [](std::size_t, double) { return 11.0; });
  const auto v = judge(f);
  EXPECT_TRUE(v.named.empty());
  ASSERT_EQ(who(v.unconfirmed), strings{"node n4"});
  EXPECT_NE(
      v.unconfirmed[0].evidence.find("cluster median again 11.00 GB/s (6 nodes): not reproduced"),
      std::string::npos)
      << v.unconfirmed[0].evidence;
}

// A local point where the typical node's samples scatter (thread wake-ups on a busy machine)
// makes no suspect, however far one node's median lies; the same point measured steadily does.
TEST(ClusterConfirm, StablePointRuleJudgesOnlyPointsWhoseSamplesAgree) {
  cluster_builder noisy;
  noisy.sample_noise =
      0.3;  // typical spread 30% (memory.host.copy with 2 threads under load: 50-80%)
  noisy.local_factor[2] = 0.3;
  EXPECT_TRUE(find_suspects(noisy.file()).empty());
  EXPECT_TRUE(plan_confirmation(*noisy.file().cluster).empty());

  cluster_builder steady = noisy;
  steady.sample_noise = 0.05;  // under the 10% threshold
  EXPECT_EQ(who(find_suspects(steady.file())), strings{"node n2"});

  // A point without samples (an imported or simulated file) is judged as before.
  auto bare = noisy.file();
  for (auto& node : bare.cluster->nodes)
    node.results[0].points[0].samples.clear();
  EXPECT_EQ(who(find_suspects(bare)), strings{"node n2"});
}

// Latency pairs whose typical p99 is 50 times the median (round trips waiting for a CPU on a
// loaded machine) name no one, however slow one pair's median; a steady measurement does.
TEST(ClusterConfirm, StablePointRuleForPairsJudgesOnlyMeasurementsWithATameTail) {
  cluster_builder loaded;
  loaded.latency_factor[{1, 3}] = 2.4;
  loaded.latency_tail = 50;
  const auto v = judge(loaded.file());
  EXPECT_TRUE(v.named.empty()) << v.named[0].evidence;
  ASSERT_EQ(v.unsteady.size(), 1u);
  EXPECT_EQ(v.unsteady[0],
            "net.tcp.latency 8B (streams=1): the typical pair's p99 is 50.00x its "
            "median");
  testing::internal::CaptureStdout();
  finish_run(loaded.file(), false);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("# not judged: 1 measurement(s) too unsteady to name anyone: "
                     "net.tcp.latency 8B"),
            std::string::npos)
      << out;

  cluster_builder steady = loaded;
  steady.latency_tail = 2;
  EXPECT_EQ(who(find_suspects(steady.file())), strings{"link n1-n3"});
  EXPECT_TRUE(judge(steady.file()).unsteady.empty());
}

TEST(ClusterConfirm, ASlowNodeByItsPairsIsMeasuredAgainstPartnersThatAreNoCandidates) {
  cluster_builder b;
  b.n = 8;
  b.slow_nodes = {3};
  b.bw_factor[{1, 6}] = 0.2;  // a candidate link: its ends are no partners of n3
  auto f = b.file();
  const auto plan = plan_confirmation(*f.cluster);
  std::set<std::size_t> partners;
  std::size_t for_n3 = 0;
  for (const auto& step : plan.steps) {
    std::set<std::size_t> busy;
    for (const auto& p : step) {
      EXPECT_TRUE(busy.insert(p.a).second && busy.insert(p.b).second) << "a node twice in a step";
      if (p.for_node == 3u) {
        ++for_n3;
        partners.insert(p.a == 3 ? p.b : p.a);
      }
    }
  }
  EXPECT_EQ(for_n3, confirm_partners);
  for (const auto x : {1u, 3u, 6u})
    EXPECT_FALSE(partners.count(x)) << "partner n" << x << " is a candidate";
  measure_again(f, same_pairs(f), same_local);
  const auto v = judge(f);
  EXPECT_EQ(who(v.named), (strings{"node n3", "link n1-n6"}));
  EXPECT_EQ(v.named[0].check, second_look::confirmed);
  EXPECT_NE(v.named[0].evidence.find("3 of 3 slow: reproduced"), std::string::npos)
      << v.named[0].evidence;
  EXPECT_EQ(v.named[1].check, second_look::confirmed);
}

TEST(ClusterConfirm, ANodeWhosePairsAreFineAgainIsUnconfirmed) {
  cluster_builder b;
  b.n = 8;
  b.slow_nodes = {3};
  auto f = b.file();
  measure_again(f, usual_pair, same_local);
  const auto v = judge(f);
  EXPECT_TRUE(v.named.empty());
  EXPECT_EQ(who(v.unconfirmed), strings{"node n3"});
}

// The operator's case: a slow link n2-n5, and n5 with a noisy memory figure (0.76x) that made
// it a suspect node, so the link's end was not "fine", and a latency outlier n2-n4 in the first
// pass. With the second look n5's figure and n2-n4 do not reproduce, and the link is named.
TEST(ClusterConfirm, ASlowLinkIsNamedWhenItsEndsNoisyFigureDidNotReproduce) {
  cluster_builder b;
  b.bw_factor[{2, 5}] = 0.2;
  b.local_factor[5] = 0.76;
  b.latency_factor[{2, 4}] = 3.58;
  auto f = b.file();
  // One pass: n5 is a slow node, which hides the link; the latency moment is named instead.
  EXPECT_EQ(who(find_suspects(f)), (strings{"node n5", "link n2-n4"}));

  const auto plan = plan_confirmation(*f.cluster);
  std::set<std::string> planned;
  for (const auto& x : plan.candidates)
    planned.insert(x.b ? "n" + std::to_string(x.a) + "-n" + std::to_string(*x.b)
                       : "n" + std::to_string(x.a));
  EXPECT_EQ(planned, (std::set<std::string>{"n5", "n2-n5", "n2-n4"}));

  const std::size_t n = b.n;
  measure_again(
      f,
      [n](std::size_t a, std::size_t c, const core::pair_measurement& m) {
        if (m.better == "lower") return 10.0;   // latency: the moment passed
        return *m.median[pair_index(a, c, n)];  // bandwidth: the link is still slow
      },
      usual_local);
  const auto v = judge(f);
  ASSERT_EQ(who(v.named), strings{"link n2-n5"});
  EXPECT_EQ(v.named[0].benchmark, "net.tcp.bandwidth");
  EXPECT_EQ(v.named[0].check, second_look::confirmed);
  EXPECT_EQ(who(v.unconfirmed), (strings{"node n5", "link n2-n4"}));
}

// A slow link n2-n4 and two noisy pairs of n2 make 3 of its 5 pairs slow: one pass names the
// node n2. Measured again, n2 is fine with other partners, n2-n4 alone is still slow: the link.
TEST(ClusterConfirm, ASlowLinkBehindANodeThatDidNotReproduceIsNamed) {
  cluster_builder b;
  b.bw_factor[{2, 4}] = 0.25;
  b.bw_factor[{1, 2}] = 0.7;
  b.bw_factor[{2, 5}] = 0.7;
  auto f = b.file();
  EXPECT_EQ(who(find_suspects(f)), strings{"node n2"});
  const std::size_t n = b.n;
  measure_again(
      f,
      [n](std::size_t a, std::size_t c, const core::pair_measurement& m) {
        return a == 2 && c == 4 ? *m.median[pair_index(a, c, n)] : usual_pair(a, c, m);
      },
      same_local);
  const auto v = judge(f);
  ASSERT_EQ(who(v.named), strings{"link n2-n4"});
  EXPECT_EQ(v.named[0].check, second_look::confirmed);
  EXPECT_NE(v.named[0].evidence.find("one of n2's slow pairs"), std::string::npos);
  EXPECT_EQ(who(v.unconfirmed), (strings{"node n2", "link n1-n2", "link n2-n5"}));
}

// A second look cut short: what was measured again is judged, the rest keeps the first look's
// verdict, marked as not measured again.
TEST(ClusterConfirm, ACandidateWithoutSecondFiguresKeepsTheFirstVerdict) {
  cluster_builder b;
  b.local_factor[1] = 0.5;
  b.bw_factor[{2, 4}] = 0.2;
  auto f = b.file();
  measure_again(f, usual_pair, usual_local);
  f.cluster->confirmation->complete = false;
  f.cluster->confirmation->pairs.clear();  // the link's step never came back
  const auto v = judge(f);
  EXPECT_EQ(who(v.named), strings{"link n2-n4"});
  EXPECT_EQ(v.named[0].check, second_look::not_taken);
  EXPECT_EQ(who(v.unconfirmed), strings{"node n1"});
}

TEST(ClusterConfirm, PlanStepsHonourTheConcurrencyCap) {
  cluster_builder b;
  b.n = 12;
  b.slow_nodes = {2, 9};
  const auto plan = plan_confirmation(*b.file().cluster, {}, 1);
  EXPECT_EQ(plan.pair_count(), 2 * confirm_partners);
  for (const auto& step : plan.steps)
    EXPECT_EQ(step.size(), 1u);
  const auto open = plan_confirmation(*b.file().cluster);
  EXPECT_EQ(open.steps.size(), confirm_partners);  // two candidates measured side by side
  EXPECT_TRUE(plan_confirmation(*cluster_builder{}.file().cluster).empty());
}

TEST(ClusterConfirm, TheConfirmationRoundTripsThroughTheFile) {
  cluster_builder b;
  b.local_factor[4] = 0.5;
  b.bw_factor[{0, 2}] = 0.2;
  auto f = b.file();
  measure_again(f, same_pairs(f), same_local);
  f.cluster->confirmation->failures.push_back({0, 2, "net.tcp.latency", "timed out"});
  const auto j = core::to_json(f);
  EXPECT_EQ(j.at("schema"), core::result_schema_id);
  const auto back = core::result_from_json(j, "t");
  ASSERT_TRUE(back.cluster->confirmation);
  const auto& k = *back.cluster->confirmation;
  EXPECT_TRUE(k.complete);
  EXPECT_EQ(k.candidates.size(), 2u);
  EXPECT_EQ(k.pairs.size(), f.cluster->confirmation->pairs.size());
  EXPECT_EQ(k.nodes.size(), f.cluster->confirmation->nodes.size());
  EXPECT_EQ(k.failures.at(0).reason, "timed out");
  EXPECT_EQ(who(judge(back).named), who(judge(f).named));

  auto bad = j;
  bad["cluster"]["confirmation"]["pairs"][0]["for"] = "node";  // without "node"
  bad["cluster"]["confirmation"]["pairs"][0].erase("node");
  EXPECT_THROW(core::result_from_json(bad, "f"), core::input_error);
  bad = j;
  bad["cluster"]["confirmation"]["candidates"][0]["a"] = 99;
  try {
    core::result_from_json(bad, "f.json");
    FAIL() << "accepted a candidate that is no node";
  } catch (const core::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("cluster.confirmation.candidates[0].a"), std::string::npos)
        << e.what();
  }
}

}  // namespace confirm_test
}  // namespace gpubench::cluster
