// FlashAttention-4's conditional rescale (online_softmax.h, MergeConditional; issue 33): the state
// keeps its reference max while a block's max grows by at most τ, and the output does not change.
// Exact: over random integer single-query problems, the conditional run's rational output equals
// the FlashAttention-2 run's and the direct Σwv/Σw exactly, the double output is within 1e-12
// (relative) of it, and the number of rescales skipped equals an independent count from the weights.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/single_query.h"

namespace bw::engine {
namespace {

SingleQueryProblem Problem(const std::vector<long>& w, const std::vector<long>& v, const std::vector<int>& blocks, std::optional<double> tau) {
  SingleQueryProblem p;
  p.mode = SoftmaxMode::kStable;
  p.rescale_threshold = tau;
  p.values.resize(static_cast<Eigen::Index>(v.size()), 1);
  std::vector<Rational> ew, row;
  std::vector<std::vector<Rational>> ev;
  for (size_t i = 0; i < w.size(); ++i) {
    p.scores.push_back(static_cast<double>(w[i]));
    p.values(static_cast<Eigen::Index>(i), 0) = static_cast<double>(v[i]);
    ew.emplace_back(w[i]);
    ev.push_back({Rational(v[i])});
  }
  p.block_sizes = blocks;
  p.exact_weights = ew;
  p.exact_values = ev;
  return p;
}

// Weights 1, 2, 4 in blocks of one, values 10, 20, 30: the max doubles twice. τ = 1.5 > ln 4 skips
// both rescales — the reference stays at 1 and l, u grow by β = 2 and 4 — and the output is
// (10 + 40 + 120) / 7 = 170/7 either way. τ = 0.75 skips block 2's (ln 2) but not block 3's: 4 is
// ln 4 past the kept reference 1, not ln 2 past the max 2 (the reference, not the max, is compared).
TEST(ConditionalRescale, AMaxThatDoublesUnderTauIsNotRescaled) {
  const SingleQueryRun fa2 = RunSingleQuery(Problem({1, 2, 4}, {10, 20, 30}, {1, 1, 1}, std::nullopt));
  const SingleQueryRun fa4 = RunSingleQuery(Problem({1, 2, 4}, {10, 20, 30}, {1, 1, 1}, 1.5));
  ASSERT_TRUE(fa2.exact && fa4.exact);
  EXPECT_EQ(ToFractionString(fa4.exact->output[0]), "170/7");
  EXPECT_EQ(fa4.exact->output, fa2.exact->output);
  EXPECT_EQ(fa2.rescales_skipped, 0);
  EXPECT_EQ(fa4.rescales_skipped, 2);
  EXPECT_FALSE(fa4.blocks[0].rescale_skipped);  // the first block: an empty state has nothing to rescale
  for (int j : {1, 2}) {
    const auto& b = fa4.blocks[static_cast<size_t>(j)];
    EXPECT_TRUE(b.rescale_skipped) << j;
    EXPECT_EQ(b.factors.alpha, 1.0);
    EXPECT_EQ(b.exact->alpha, Rational(1));
    EXPECT_EQ(b.exact->beta, Rational(j == 1 ? 2 : 4));       // M_b / M_ref, M_ref = 1 kept
    EXPECT_EQ(b.exact->after.M, Rational(1));
  }
  EXPECT_EQ(fa4.blocks[2].exact->after.l, Rational(7));        // 1 + 2 + 4, never rescaled
  EXPECT_EQ(fa2.blocks[2].exact->after.l, Rational(7, 4));     // FA-2: rescaled to the max 4
  const SingleQueryRun mid = RunSingleQuery(Problem({1, 2, 4}, {10, 20, 30}, {1, 1, 1}, 0.75));
  EXPECT_EQ(mid.rescales_skipped, 1);
  EXPECT_TRUE(mid.blocks[1].rescale_skipped);
  EXPECT_FALSE(mid.blocks[2].rescale_skipped);
  EXPECT_EQ(mid.blocks[2].exact->alpha, Rational(1, 4));       // from the kept reference 1 to 4
  EXPECT_EQ(mid.blocks[2].exact->after.l, Rational(7, 4));
  EXPECT_EQ(mid.exact->output, fa2.exact->output);
  // τ = 0.5 < ln 2: every growth is past τ, so FA-4 is FA-2.
  const SingleQueryRun tight = RunSingleQuery(Problem({1, 2, 4}, {10, 20, 30}, {1, 1, 1}, 0.5));
  EXPECT_EQ(tight.rescales_skipped, 0);
  EXPECT_EQ(tight.blocks[2].exact->after.l, Rational(7, 4));
}

TEST(ConditionalRescale, RandomProblemsKeepTheOutputExactlyAndCountTheSkips) {
  std::mt19937 rng(20261205);
  const double taus[] = {0.0, 0.3, 0.75, 1.2, 2.5, 100.0};
  int skipped_total = 0, problems = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 12)(rng);
    std::vector<long> w(static_cast<size_t>(n)), v(static_cast<size_t>(n));
    for (auto& x : w) x = std::uniform_int_distribution<long>(0, 40)(rng);   // 0 masks
    for (auto& x : v) x = std::uniform_int_distribution<long>(-20, 20)(rng);
    if (std::all_of(w.begin(), w.end(), [](long x) { return x == 0; })) w[0] = 1;
    std::vector<int> blocks;
    for (int left = n; left > 0;) {
      const int b = std::uniform_int_distribution<int>(1, left)(rng);
      blocks.push_back(b);
      left -= b;
    }
    const double tau = taus[trial % 6];
    const SingleQueryRun fa2 = RunSingleQuery(Problem(w, v, blocks, std::nullopt));
    const SingleQueryRun fa4 = RunSingleQuery(Problem(w, v, blocks, tau));
    ASSERT_TRUE(fa2.exact && fa4.exact);
    EXPECT_EQ(fa4.exact->output, fa2.exact->output) << "trial " << trial;
    EXPECT_EQ(fa4.exact->output, fa4.exact->reference_output) << "trial " << trial;
    const double want = ToDouble(fa4.exact->output[0]);
    const double got = fa4.output(0);
    EXPECT_FALSE(std::isnan(got));
    EXPECT_LE(std::abs(got - want), 1e-12 * std::max(1.0, std::abs(want))) << "trial " << trial;
    // The independent count: walk the blocks' max weights against a reference kept in rationals.
    Rational ref = 0;
    int skips = 0;
    size_t at = 0;
    for (int b : blocks) {
      long m_b = 0;
      for (int i = 0; i < b; ++i) m_b = std::max(m_b, w[at + static_cast<size_t>(i)]);
      at += static_cast<size_t>(b);
      if (m_b == 0) continue;
      if (ref != 0 && Rational(m_b) > ref && std::log(static_cast<double>(m_b) / ToDouble(ref)) <= tau) ++skips;
      else ref = std::max(ref, Rational(m_b));
    }
    EXPECT_EQ(fa4.rescales_skipped, skips) << "trial " << trial;
    skipped_total += fa4.rescales_skipped;
    ++problems;
  }
  EXPECT_EQ(problems, 400);
  EXPECT_GT(skipped_total, 50);  // the sample does exercise the skip (it is not all τ = 0)
}

TEST(ConditionalRescale, TheThresholdNeedsTheStableModeAndIsFinite) {
  SingleQueryProblem p = Problem({2, 1, 4}, {10, 20, 30}, {2, 1}, 1.0);
  EXPECT_FALSE(Validate(p).has_value());
  p.rescale_threshold = -0.5;
  ASSERT_TRUE(Validate(p).has_value());
  EXPECT_EQ(Validate(p)->field, "rescale_threshold");
  p.rescale_threshold = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(Validate(p).has_value());
  p.rescale_threshold = 1.0;
  p.mode = SoftmaxMode::kRaw;
  ASSERT_TRUE(Validate(p).has_value());
  EXPECT_NE(Validate(p)->reason.find("stable"), std::string::npos);
}

}  // namespace
}  // namespace bw::engine
