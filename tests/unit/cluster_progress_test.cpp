#include <gtest/gtest.h>

#include "cluster/cluster_progress.hpp"

using gpubench::cluster::cluster_progress;

TEST(ClusterProgress, BudgetsBoundTheRunUntilAPhaseHasFinished) {
  cluster_progress p({100, 3, 10, 50});
  EXPECT_DOUBLE_EQ(p.left_s(), 100 + 3 * 10 + 50);
  EXPECT_EQ(p.text(), "0 s elapsed, at most 3:00 left");
}

TEST(ClusterProgress, AFinishedPhaseScalesWhatIsLeft) {
  cluster_progress p({100, 3, 10, 50});
  p.local_done();  // at once: a tiny fraction of its budget, so the rest shrinks with it
  EXPECT_LT(p.left_s(), 1.0);
  EXPECT_NE(p.text().find("about"), std::string::npos) << p.text();
  p.round_done();
  p.round_done();
  p.round_done();
  p.round_done();  // more rounds than planned never makes the estimate negative
  EXPECT_GE(p.left_s(), 0.0);
}

TEST(ClusterProgress, NoPairRounds) {
  cluster_progress p({20, 0, 0, 0});
  EXPECT_DOUBLE_EQ(p.left_s(), 20);
  p.local_done();
  EXPECT_DOUBLE_EQ(p.left_s(), 0);
}
