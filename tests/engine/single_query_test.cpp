// Engine tests for the RC-T3 worked examples: exact rationals, block states, the wrong average,
// the stable recurrence, and the empty state. Every expected value comes from the seed material.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/online_softmax.h"
#include "engine/single_query.h"
#include "weights_problem.h"

namespace bw::engine {
namespace {

SingleQueryProblem Weights(std::vector<int> w, std::vector<int> v, std::vector<int> blocks, SoftmaxMode mode) {
  return testing::WeightsProblem(std::move(w), std::move(v), std::move(blocks), mode);
}

TEST(SingleQuery, WorkedExampleRawIs160Over7) {
  const auto run = RunSingleQuery(Weights({2, 1, 4}, {10, 20, 30}, {2, 1}, SoftmaxMode::kRaw));
  ASSERT_EQ(run.BlockCount(), 2);
  ASSERT_TRUE(run.exact.has_value());
  EXPECT_EQ(run.exact->output[0], Rational(160, 7));
  EXPECT_EQ(ToFractionString(run.exact->output[0]), "160/7");
  EXPECT_NEAR(run.output[0], 22.857142857142858, 1e-12);
  EXPECT_NEAR(run.reference_output[0], 160.0 / 7.0, 1e-12);
  // Block states: u1 = 40, l1 = 3; u2 = 120, l2 = 4 (raw: no shift).
  EXPECT_EQ(run.blocks[0].exact->local.u[0], 40);
  EXPECT_EQ(run.blocks[0].exact->local.l, 3);
  EXPECT_EQ(run.blocks[1].exact->local.u[0], 120);
  EXPECT_EQ(run.blocks[1].exact->local.l, 4);
  EXPECT_DOUBLE_EQ(run.blocks[0].local.u[0], 40.0);
  EXPECT_DOUBLE_EQ(run.blocks[1].local.l, 4.0);
  // Merged: u = 160, l = 7.
  EXPECT_EQ(run.blocks[1].exact->after.u[0], 160);
  EXPECT_EQ(run.blocks[1].exact->after.l, 7);
  // The wrong merge: (40/3 + 30) / 2 = 65/3.
  EXPECT_EQ(run.exact->average_of_block_outputs[0], Rational(65, 3));
  EXPECT_NEAR(run.average_of_block_outputs[0], 65.0 / 3.0, 1e-12);
  EXPECT_NE(run.exact->average_of_block_outputs[0], run.exact->output[0]);
}

TEST(SingleQuery, StableRecurrenceRescalesByOneHalf) {
  const auto run = RunSingleQuery(Weights({2, 1, 4}, {10, 20, 30}, {2, 1}, SoftmaxMode::kStable));
  const auto& b1 = run.blocks[0];
  const auto& b2 = run.blocks[1];
  // After block 1: m = ln 2, l = 3/2, u = 20.
  EXPECT_EQ(b1.exact->after.M, 2);  // m = ln M
  EXPECT_NEAR(b1.after.m, std::log(2.0), 1e-15);
  EXPECT_EQ(b1.exact->after.l, Rational(3, 2));
  EXPECT_EQ(b1.exact->after.u[0], 20);
  // Block 2: m_b = ln 4 > ln 2, so the old state is scaled by e^{ln2 − ln4} = 1/2; u_b = 30, l_b = 1.
  EXPECT_EQ(b2.exact->alpha, Rational(1, 2));
  EXPECT_NEAR(b2.factors.alpha, 0.5, 1e-15);
  EXPECT_EQ(b2.exact->local.u[0], 30);
  EXPECT_EQ(b2.exact->local.l, 1);
  EXPECT_EQ(b2.exact->after.l, Rational(7, 4));
  EXPECT_EQ(b2.exact->after.u[0], 40);
  EXPECT_NEAR(b2.after.m, std::log(4.0), 1e-15);
  EXPECT_EQ(run.exact->output[0], Rational(160, 7));
  EXPECT_NEAR(run.output[0], 22.857142857142858, 1e-12);
}

TEST(SingleQuery, LogitsLn2ZeroLn4MatchWeights) {
  SingleQueryProblem p;
  p.score_kind = ScoreKind::kLogits;
  p.mode = SoftmaxMode::kStable;
  p.scores = {std::log(2.0), 0.0, std::log(4.0)};
  p.values = Eigen::MatrixXd(3, 1);
  p.values << 10, 20, 30;
  p.block_sizes = {2, 1};
  const auto run = RunSingleQuery(p);
  EXPECT_FALSE(run.exact.has_value());
  EXPECT_NEAR(run.blocks[0].after.m, std::log(2.0), 1e-15);
  EXPECT_NEAR(run.blocks[0].after.l, 1.5, 1e-15);
  EXPECT_NEAR(run.blocks[0].after.u[0], 20.0, 1e-13);
  EXPECT_NEAR(run.blocks[1].factors.alpha, 0.5, 1e-15);
  EXPECT_NEAR(run.blocks[1].after.l, 1.75, 1e-15);
  EXPECT_NEAR(run.blocks[1].after.u[0], 40.0, 1e-13);
  EXPECT_NEAR(run.output[0], 22.857142857142858, 1e-12);
}

TEST(SingleQuery, HistoricalExample213GivesEqualDenominators) {
  const auto run = RunSingleQuery(Weights({2, 1, 3}, {10, 20, 30}, {2, 1}, SoftmaxMode::kRaw));
  EXPECT_EQ(run.blocks[0].exact->local.l, 3);
  EXPECT_EQ(run.blocks[1].exact->local.l, 3);
  EXPECT_EQ(run.blocks[1].exact->after.u[0], 130);  // shown as 130/6
  EXPECT_EQ(run.blocks[1].exact->after.l, 6);
  const Rational expected(130, 6);  // kept in lowest terms (engine/exact.h): 65/3
  EXPECT_EQ(run.exact->output[0], expected);
  // Equal denominators: here the average of block outputs happens to agree.
  EXPECT_EQ(run.exact->average_of_block_outputs[0], run.exact->output[0]);
}

TEST(SingleQuery, RationalIsCanonicalAndPrintsAsAFraction) {
  EXPECT_EQ(ToFractionString(Rational(130, 6)), "65/3");
  EXPECT_EQ(ToFractionString(Rational(160, 7)), "160/7");
  EXPECT_EQ(ToFractionString(Rational(80, 2)), "40");
  EXPECT_EQ(ToFractionString(Rational(-3, 2)), "-3/2");
  EXPECT_EQ(ToFractionString(Rational(3) / Rational(-2)), "-3/2");  // the sign moves to the numerator
  EXPECT_EQ(Denominator(Rational(130, 6)), 3);
  EXPECT_NE(Rational(1, 3), Rational(333333, 1000000));
  EXPECT_EQ(ToDouble(Rational(7, 4)), 1.75);
}

TEST(SingleQuery, VectorValues) {
  SingleQueryProblem p;
  p.scores = {2, 1, 4};
  p.values = Eigen::MatrixXd(3, 2);
  p.values << 10, 1, 20, 2, 30, 3;
  p.block_sizes = {1, 1, 1};
  const auto run = RunSingleQuery(p);
  EXPECT_NEAR(run.output[0], 160.0 / 7.0, 1e-12);
  EXPECT_NEAR(run.output[1], 16.0 / 7.0, 1e-12);
}

TEST(OnlineSoftmax, MergingIntoTheEmptyStateGivesNoNaN) {
  const SoftmaxState empty = SoftmaxState::Empty(1);
  MergeFactors f;
  const SoftmaxState both_empty = Merge(empty, empty, &f);
  EXPECT_FALSE(std::isnan(both_empty.l));
  EXPECT_FALSE(std::isnan(both_empty.u[0]));
  EXPECT_EQ(both_empty.l, 0.0);
  EXPECT_EQ(f.alpha, 0.0);
  EXPECT_TRUE(std::isinf(both_empty.m) && both_empty.m < 0);
  SoftmaxState b{std::log(2.0), 1.5, Eigen::VectorXd::Constant(1, 20.0)};
  const SoftmaxState merged = Merge(empty, b, &f);
  EXPECT_EQ(f.alpha, 0.0);
  EXPECT_EQ(f.beta, 1.0);
  EXPECT_EQ(merged.l, 1.5);
  EXPECT_EQ(merged.u[0], 20.0);
  EXPECT_EQ(Output(empty)[0], 0.0);
}

TEST(SingleQuery, FullyMaskedBlockContributesNothing) {
  const auto run = RunSingleQuery(Weights({0, 0, 4}, {10, 20, 30}, {2, 1}, SoftmaxMode::kStable));
  EXPECT_TRUE(run.blocks[0].after.IsEmpty());
  EXPECT_FALSE(std::isnan(run.blocks[0].output_so_far[0]));
  EXPECT_EQ(run.exact->output[0], 30);
  EXPECT_EQ(run.exact->average_of_block_outputs[0], 30);  // the empty block is not averaged in
  const auto all = RunSingleQuery(Weights({0, 0}, {1, 2}, {1, 1}, SoftmaxMode::kStable));
  EXPECT_TRUE(all.all_masked);
  EXPECT_EQ(all.output[0], 0.0);
}

TEST(SingleQuery, TraceEventsAndPositions) {
  const auto run = RunSingleQuery(Weights({2, 1, 4}, {10, 20, 30}, {2, 1}, SoftmaxMode::kRaw));
  ASSERT_EQ(run.events.size(), 6u);
  EXPECT_EQ(run.events.front().label, "start");
  EXPECT_EQ(run.FindEvent("load:2"), 3);
  EXPECT_EQ(run.FindEvent("write"), 5);
  EXPECT_EQ(run.FindEvent("nope"), -1);
  EXPECT_EQ(run.BlocksMergedAt(run.FindEvent("load:2")), 1);
  EXPECT_EQ(run.BlockInSramAt(run.FindEvent("load:2")), 2);
  EXPECT_EQ(run.BlockInSramAt(run.FindEvent("write")), 0);
  EXPECT_DOUBLE_EQ(run.StateAt(run.FindEvent("update:1")).u[0], 40.0);
  EXPECT_EQ(run.StateAt(0).l, 0.0);
}

TEST(SingleQuery, ValidationNamesFieldAndIndex) {
  auto p = Weights({2, 1, 4}, {10, 20, 30}, {2, 1}, SoftmaxMode::kRaw);
  p.scores[1] = -1;
  auto err = Validate(p);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->field, "scores");
  EXPECT_EQ(err->index, 1);
  p.scores[1] = 1;
  p.block_sizes = {2, 0, 1};
  err = Validate(p);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->field, "block_sizes");
  EXPECT_EQ(err->index, 1);
  p.block_sizes = {2, 2};
  err = Validate(p);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->index, -1);
  EXPECT_THROW(RunSingleQuery(p), std::invalid_argument);
}

}  // namespace
}  // namespace bw::engine
