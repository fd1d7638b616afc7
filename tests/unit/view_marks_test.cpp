// The point tables say when a point was measured with less than its method asks: fewer samples
// than the stopping rule's minimum ("short"), fewer operations per sample than nccl-tests'
// 20 ("cut"), and neither mark becomes a column of its own.
#include <gtest/gtest.h>

#include "reports/views/view_blocks.hpp"

namespace gpubench::reports::views {
namespace {

core::point_result point_of(nlohmann::json extra) {
  core::point_result p;
  p.bytes = 16 << 20;
  p.stats.count = 5;
  p.samples = {1, 1, 1, 1, 1};
  p.extra = std::move(extra);
  return p;
}

TEST(ViewMarks, SamplesTextSaysShortAndCut) {
  EXPECT_EQ(samples_text(point_of({{"busbw", 1.0}})), "5");
  EXPECT_EQ(samples_text(point_of({{"min_samples", 7}})), "5 (short: the rule asks 7)");
  EXPECT_EQ(samples_text(point_of({{"iterations_per_sample", 4}, {"min_iterations", 20}})),
            "5 (cut: under 20 operations per sample)");
  EXPECT_EQ(samples_text(point_of({{"min_samples", 7}, {"min_iterations", 20}})),
            "5 (short: the rule asks 7) (cut: under 20 operations per sample)");
}

}  // namespace
}  // namespace gpubench::reports::views
