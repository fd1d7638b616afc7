// The training projection's inputs by hand: the options a user types (model, strategy), the
// messages one step sends under each strategy, and the alpha-beta fit of a ring.
#include <cmath>
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "reports/model/training_options.hpp"
#include "reports/page_one/projection/alpha_beta.hpp"
#include "reports/page_one/projection/strategy.hpp"

namespace gpubench::reports::page_one::projection {
namespace {

using model::training_model;
using model::training_strategy;
using model::training_text;

TEST(TrainingOptions, ParsesAModelAndAStrategy) {
  training_text t;
  t.strategy = "fsdp";
  t.parameters = "1.5B";
  t.element_bytes = "bf16";
  t.bucket = "1GiB";
  const auto m = model::parse_training_model(t);
  EXPECT_EQ(m.strategy, training_strategy::sharded);
  EXPECT_DOUBLE_EQ(m.parameters, 1.5e9);
  EXPECT_DOUBLE_EQ(m.element_bytes, 2);
  EXPECT_DOUBLE_EQ(m.bucket_bytes, 1073741824);
  EXPECT_DOUBLE_EQ(model::parse_count("340M", "--params"), 340e6);
  EXPECT_DOUBLE_EQ(model::parse_count("7e9", "--params"), 7e9);
  // Nothing given: data-parallel over the built-in sizes, fp32, the whole gradient at once.
  const auto d = model::parse_training_model({});
  EXPECT_EQ(d.strategy, training_strategy::data_parallel);
  EXPECT_DOUBLE_EQ(d.parameters, 0);
  EXPECT_DOUBLE_EQ(d.element_bytes, 4);
  EXPECT_DOUBLE_EQ(d.bucket_bytes, 0);
}

TEST(TrainingOptions, RejectsBadInputWithTheOptionNamed) {
  for (const char* bad : {"", "0", "-5", "abc", "1.5X", "nan", "inf"})
    EXPECT_THROW(model::parse_count(bad, "--params"), core::usage_error) << bad;
  struct bad_case {
    std::function<void(training_text&)> set;
    const char* says;
  };
  const std::vector<bad_case> cases = {
      {[](training_text& t) { t.strategy = "pipeline"; }, "--strategy 'pipeline'"},
      {[](training_text& t) { t.parameters = "lots"; }, "--params 'lots'"},
      {[](training_text& t) { t.element_bytes = "3"; }, "--element-bytes '3'"},
      {[](training_text& t) { t.bucket = "25 parsecs"; }, "--bucket"},
      {[](training_text& t) { t.bucket = "0"; }, "--bucket"},
      // moe needs its shape, and its shape needs moe.
      {[](training_text& t) {
         t.strategy = "moe";
         t.moe_layers = "24";
       },
       "needs --moe-layers"},
      {[](training_text& t) { t.moe_hidden = "4096"; }, "need --strategy moe"},
      {[](training_text& t) {
         t.strategy = "moe";
         t.parameters = "1B";
         t.moe_layers = "2";
         t.moe_tokens = "8";
         t.moe_hidden = "16";
       },
       "--params"},
      {[](training_text& t) {
         t.strategy = "moe";
         t.moe_layers = "2";
         t.moe_tokens = "8";
         t.moe_hidden = "-16";
       },
       "--moe-hidden '-16'"},
  };
  for (const auto& c : cases) {
    training_text t;
    c.set(t);
    try {
      model::parse_training_model(t);
      ADD_FAILURE() << "accepted; expected an error with: " << c.says;
    } catch (const core::usage_error& e) {
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
    }
  }
}

TEST(StrategyMessages, DataParallelBucketsTheGradient) {
  training_model m;
  m.element_bytes = 2;
  m.bucket_bytes = 1073741824;  // 1 GiB
  // 1.5 B x 2 B = 3e9 B: two whole buckets and 3e9 - 2 x 2^30 = 852,516,352 B.
  const auto msgs = messages_per_step(m, 1.5e9);
  ASSERT_EQ(msgs.size(), 2u);
  EXPECT_EQ(msgs[0].operation, "allreduce");
  EXPECT_DOUBLE_EQ(msgs[0].bytes, 1073741824);
  EXPECT_DOUBLE_EQ(msgs[0].per_step, 2);
  EXPECT_DOUBLE_EQ(msgs[1].bytes, 852516352);
  EXPECT_DOUBLE_EQ(msgs[1].per_step, 1);
  // No bucket: the whole gradient, 25 M x 4 B = 100 MB, once.
  const auto whole = messages_per_step(training_model{}, 25e6);
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_DOUBLE_EQ(whole[0].bytes, 100e6);
  EXPECT_DOUBLE_EQ(whole[0].per_step, 1);
  EXPECT_EQ(operations_of(training_strategy::data_parallel), std::vector<std::string>{"allreduce"});
}

TEST(StrategyMessages, ShardedGathersTwiceAndScattersOnce) {
  training_model m;
  m.strategy = training_strategy::sharded;
  const auto msgs = messages_per_step(m, 350e6);  // 1.4e9 B in fp32, one unit
  ASSERT_EQ(msgs.size(), 2u);
  EXPECT_EQ(msgs[0].operation, "allgather");
  EXPECT_DOUBLE_EQ(msgs[0].bytes, 1.4e9);  // the total; each rank holds 1/n
  EXPECT_DOUBLE_EQ(msgs[0].per_step, 2);
  EXPECT_EQ(msgs[1].operation, "reduce_scatter");
  EXPECT_DOUBLE_EQ(msgs[1].bytes, 1.4e9);
  EXPECT_DOUBLE_EQ(msgs[1].per_step, 1);
  // Units of 500 MB: two whole ones and 400 MB.
  m.bucket_bytes = 500e6;
  const auto units = messages_per_step(m, 350e6);
  ASSERT_EQ(units.size(), 4u);
  EXPECT_DOUBLE_EQ(units[0].per_step, 4);  // 2 units x 2 gathers
  EXPECT_DOUBLE_EQ(units[1].per_step, 2);
  EXPECT_DOUBLE_EQ(units[2].bytes, 400e6);
  EXPECT_EQ(operations_of(training_strategy::sharded),
            (std::vector<std::string>{"reduce_scatter", "allgather"}));
}

TEST(StrategyMessages, MoeSendsTokensFourTimesPerLayer) {
  training_model m;
  m.strategy = training_strategy::moe;
  m.element_bytes = 2;
  m.moe = {24, 8192, 4096, 2};
  // 8192 tokens x top-2 x 4096 x 2 B = 134,217,728 B = 128 MiB, 4 x 24 = 96 times per step.
  const auto msgs = messages_per_step(m, 0);
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_EQ(msgs[0].operation, "alltoall");
  EXPECT_DOUBLE_EQ(msgs[0].bytes, 134217728);
  EXPECT_DOUBLE_EQ(msgs[0].per_step, 96);
  EXPECT_EQ(size_text(134217728), "128 MiB");
  EXPECT_EQ(size_text(1.4e9), "1.4 GB");
  EXPECT_EQ(models_of(m).size(), 1u);
}

TEST(StrategyMessages, BuiltInModelsAreTheFormerGradientSizes) {
  const auto ms = models_of(training_model{});
  ASSERT_EQ(ms.size(), 3u);
  // fp32: 100 MB (ResNet-50, 25.6 M), 1.4 GB (BERT-large, 340 M), 6 GB (GPT-2 XL, 1.5 B).
  EXPECT_DOUBLE_EQ(ms[0].parameters * 4, 100e6);
  EXPECT_DOUBLE_EQ(ms[1].parameters * 4, 1.4e9);
  EXPECT_DOUBLE_EQ(ms[2].parameters * 4, 6e9);
  training_model one;
  one.parameters = 7e9;
  ASSERT_EQ(models_of(one).size(), 1u);
  EXPECT_EQ(models_of(one)[0].name, "7 B parameters");
}

TEST(AlphaBeta, RingTermsPerOperation) {
  EXPECT_DOUBLE_EQ(ring_terms_of("allreduce", 4)->latency_steps, 6);
  EXPECT_DOUBLE_EQ(ring_terms_of("allreduce", 4)->bus_factor, 1.5);
  EXPECT_DOUBLE_EQ(ring_terms_of("allgather", 8)->latency_steps, 7);
  EXPECT_DOUBLE_EQ(ring_terms_of("reduce_scatter", 8)->bus_factor, 0.875);
  EXPECT_DOUBLE_EQ(ring_terms_of("alltoall", 2)->bus_factor, 0.5);
  EXPECT_DOUBLE_EQ(ring_terms_of("broadcast", 4)->bus_factor, 1);
  EXPECT_FALSE(ring_terms_of("gossip", 4));
  EXPECT_FALSE(ring_terms_of("allreduce", 0));
}

TEST(AlphaBeta, RecoversAnExactRingAndPredictsBeyondIt) {
  // alpha = 5 us, B = 1 GB/s. 2 ranks, 1 MB: 2 x 5 us + 1 x 1 ms = 1.01 ms; 4 ranks, 4 MB:
  // 6 x 5 us + 1.5 x 4 ms = 6.03 ms. A one-rank point moves nothing and is left out.
  const std::vector<timed_point> pts = {{2, 1e6, 1.01e-3}, {4, 4e6, 6.03e-3}, {1, 4e6, 1e-4}};
  const auto fit = fit_alpha_beta("allreduce", pts);
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->alpha_seconds, 5e-6, 1e-12);
  EXPECT_NEAR(fit->bus_bytes_per_s, 1e9, 1e-3);
  EXPECT_EQ(fit->points, 2);
  EXPECT_NEAR(fit->max_residual, 0, 1e-9);
  // 8 ranks, 8 MB: 14 x 5 us + 1.75 x 8 ms = 14.07 ms.
  EXPECT_NEAR(*predict_seconds(*fit, "allreduce", 8, 8e6), 14.07e-3, 1e-12);
}

TEST(AlphaBeta, NegativeAlphaIsRefittedAsZeroWithItsResiduals) {
  // All-gather over 2 ranks (a = 1, f = 1/2): 1 MB in 0.4 ms and 2 MB in 1.2 ms fit a line
  // with alpha = -0.4 ms. With alpha = 0, beta = sum(x) / sum(x^2), x = f S / t = 1.25e9 and
  // 8.333e8: B = 1.0833 GB/s; residuals +15.4 % and -23.1 %, rms 19.6 %.
  const auto fit = fit_alpha_beta("allgather", {{2, 1e6, 0.4e-3}, {2, 2e6, 1.2e-3}});
  ASSERT_TRUE(fit);
  EXPECT_DOUBLE_EQ(fit->alpha_seconds, 0);
  EXPECT_NEAR(fit->bus_bytes_per_s, 1.0833333e9, 1e3);
  EXPECT_NEAR(fit->max_residual, 0.230769, 1e-5);
  EXPECT_NEAR(fit->rms_residual, 0.196116, 1e-5);
}

TEST(AlphaBeta, NoFitWithoutTwoTellingPoints) {
  EXPECT_FALSE(fit_alpha_beta("allreduce", {}));
  EXPECT_FALSE(fit_alpha_beta("allreduce", {{2, 1e6, 1e-3}}));
  // The same size at the same ranks twice: alpha and B cannot be told apart.
  EXPECT_FALSE(fit_alpha_beta("allreduce", {{2, 1e6, 1e-3}, {2, 1e6, 1.1e-3}}));
  // Only one-rank points.
  EXPECT_FALSE(fit_alpha_beta("allreduce", {{1, 1e6, 1e-3}, {1, 2e6, 2e-3}}));
  EXPECT_FALSE(fit_alpha_beta("gossip", {{2, 1e6, 1e-3}, {4, 2e6, 3e-3}}));
}

}  // namespace
}  // namespace gpubench::reports::page_one::projection
