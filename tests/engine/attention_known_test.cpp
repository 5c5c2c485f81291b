// Small attention cases with known answers (issue 3 acceptance list): the [0, 10] logits and the
// wrong-merge variants, top-left vs bottom-right causal, a masked tail, a masked first tile, empty
// shapes, block size 0, the N = 2 backward, DeriveTileSizes and Compare's NaN handling.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "engine/attention.h"

namespace bw::engine {
namespace {

AttentionMatrix M(std::initializer_list<std::initializer_list<double>> rows) {
  AttentionMatrix m(static_cast<Eigen::Index>(rows.size()), rows.size() ? static_cast<Eigen::Index>(rows.begin()->size()) : 0);
  Eigen::Index r = 0;
  for (auto row : rows) {
    Eigen::Index c = 0;
    for (double v : row) m(r, c++) = v;
    ++r;
  }
  return m;
}

RunOptions Tiles(std::int64_t B_r, std::int64_t B_c, MergeVariant v = MergeVariant::kCorrect) {
  RunOptions o;
  o.tiles = {B_r, B_c};
  o.merge = v;
  return o;
}

// one row, logits [0, 10], V = [1, 0], B_c = 1
AttentionProblem ZeroTen() { return AttentionProblem::FromLogits(M({{0, 10}}), M({{1}, {0}})); }

TEST(AttentionKnown, ZeroTenCorrectInEveryPath) {
  const auto p = ZeroTen();
  const double expected = std::exp(-10.0) / (1.0 + std::exp(-10.0));  // 4.5398e-5
  EXPECT_NEAR(expected, 4.5398e-5, 1e-9);
  EXPECT_NEAR(RunReference(p).O(0, 0), expected, 1e-18);
  EXPECT_NEAR(RunFlash2(p, Tiles(1, 1)).O(0, 0), expected, 1e-18);
  EXPECT_NEAR(RunFlash1(p, Tiles(1, 1)).O(0, 0), expected, 1e-18);
  EXPECT_NEAR(RunFlash2(p, Tiles(1, 2)).O(0, 0), expected, 1e-18);
}

TEST(AttentionKnown, ZeroTenWrongMergeVariants) {
  const auto p = ZeroTen();
  auto run = [&](MergeVariant v) { return RunFlash2(p, Tiles(1, 1, v)).O(0, 0); };
  EXPECT_DOUBLE_EQ(run(MergeVariant::kNoRescale), 0.5);
  EXPECT_NEAR(run(MergeVariant::kRescaleLOnly), 0.99995, 1e-5);
  EXPECT_NEAR(run(MergeVariant::kRescaleLOnly), 1.0 / (1.0 + std::exp(-10.0)), 1e-15);
  EXPECT_NEAR(run(MergeVariant::kRescaleUOnly), 2.27e-5, 1e-7);
  EXPECT_NEAR(run(MergeVariant::kRescaleUOnly), std::exp(-10.0) / 2.0, 1e-18);
  EXPECT_NEAR(run(MergeVariant::kInvertedFactorOnU), 22025.0, 1.0);
  EXPECT_NEAR(run(MergeVariant::kInvertedFactorOnU), std::exp(10.0) / (1.0 + std::exp(-10.0)), 1e-9);
  EXPECT_DOUBLE_EQ(run(MergeVariant::kAverageBlockOutputs), 0.5);
  // Each variant gives its own number on a 3-tile row.
  const auto q = AttentionProblem::FromLogits(M({{0, 3, 1}}), M({{1}, {2}, {4}}));
  std::vector<double> seen;
  for (MergeVariant v : kAllMergeVariants) {
    const double o = RunFlash2(q, Tiles(1, 1, v)).O(0, 0);
    for (double s : seen) EXPECT_GT(std::abs(o - s), 1e-6) << ToString(v);
    seen.push_back(o);
  }
}

TEST(AttentionKnown, CausalTopLeftAndBottomRight) {
  // 2 queries, 5 keys, logits 0, V = 1…5
  const AttentionMatrix S = AttentionMatrix::Zero(2, 5);
  const AttentionMatrix V = M({{1}, {2}, {3}, {4}, {5}});
  const auto tl = AttentionProblem::FromLogits(S, V, Mask::Causal(CausalAlignment::kTopLeft));
  const auto br = AttentionProblem::FromLogits(S, V, Mask::Causal(CausalAlignment::kBottomRight));
  EXPECT_EQ(Mask::Causal().alignment, CausalAlignment::kTopLeft);  // the documented default
  for (const auto& [p, a, b] : {std::tuple{tl, 1.0, 1.5}, std::tuple{br, 2.5, 3.0}}) {
    for (const AttentionResult& r : {RunReference(p), RunFlash2(p, Tiles(1, 2)), RunFlash1(p, Tiles(1, 2)),
                                     RunFlash2(p, Tiles(2, 3)), RunFlash1(p, Tiles(2, 1))}) {
      EXPECT_NEAR(r.O(0, 0), a, 1e-15) << ToString(r.algorithm);
      EXPECT_NEAR(r.O(1, 0), b, 1e-15) << ToString(r.algorithm);
    }
  }
}

TEST(AttentionKnown, TailIsMaskedNotPadded) {
  // one row, 3 keys, equal logits, V all 1, B_c = 2 → exactly 1.0 (a zero-padded key would give 0.75)
  const auto p = AttentionProblem::FromLogits(M({{0.7, 0.7, 0.7}}), M({{1}, {1}, {1}}));
  EXPECT_EQ(RunFlash2(p, Tiles(1, 2)).O(0, 0), 1.0);
  EXPECT_EQ(RunFlash1(p, Tiles(1, 2)).O(0, 0), 1.0);
  RunOptions f = Tiles(1, 2);
  f.precision = Precision::kFloat;
  EXPECT_EQ(RunFlash2(p, f).O(0, 0), 1.0);
}

TEST(AttentionKnown, MaskedFirstTileLeavesNoZeroBehind) {
  // one row, 4 keys, B_c = 2, mask [0,0,1,1], logits [·,·,−200,−201], V = [0,0,3,4] → 3.2689
  const auto p = AttentionProblem::FromLogits(M({{5, 7, -200, -201}}), M({{0}, {0}, {3}, {4}}),
                                              Mask::KeyPadding({0, 0, 1, 1}));
  const double expected = (3.0 + 4.0 * std::exp(-1.0)) / (1.0 + std::exp(-1.0));
  EXPECT_NEAR(expected, 3.2689, 1e-4);
  RunOptions o = Tiles(1, 2);
  o.record_trace = true;
  const auto r2 = RunFlash2(p, o);
  EXPECT_NEAR(r2.O(0, 0), expected, 1e-14);
  EXPECT_EQ(r2.counters.tiles_skipped, 1);
  EXPECT_EQ(r2.counters.tiles_computed, 1);
  const BlockState st = r2.trace.StateAt(p, r2.trace.size() - 1);
  ASSERT_TRUE(st.valid);
  EXPECT_EQ(st.m[0], -200.0);  // the running max ends at −200, not 0
  EXPECT_NEAR(RunFlash1(p, Tiles(1, 2)).O(0, 0), expected, 1e-14);
  EXPECT_NEAR(RunReference(p).O(0, 0), expected, 1e-14);
  EXPECT_NEAR(RunReference(p).L[0], -200.0 + std::log(1.0 + std::exp(-1.0)), 1e-12);
  // Same with an explicit mask, where the tile is not skipped but only masked within (B_c = 4).
  AttentionMaskMatrix keep(1, 4);
  keep << 0, 0, 1, 1;
  const auto e = AttentionProblem::FromLogits(M({{5, 7, -200, -201}}), M({{0}, {0}, {3}, {4}}), Mask::Explicit(keep));
  EXPECT_NEAR(RunFlash2(e, Tiles(1, 4)).O(0, 0), expected, 1e-14);
}

TEST(AttentionKnown, MaskedKeysContributeExactlyZero) {
  // Eigen's vectorised exp(−∞) is a denormal, not 0: every path must still give exactly [1, 0].
  const auto p = AttentionProblem::FromLogits(M({{0.3, 0.9}, {0.1, 0.2}}), M({{1, 0}, {0, 1}}), Mask::Causal());
  for (Precision prec : {Precision::kDouble, Precision::kFloat}) {
    RunOptions o = Tiles(2, 2);
    o.precision = prec;
    for (const AttentionResult& r : {RunReference(p, o), RunFlash2(p, o), RunFlash1(p, o)}) {
      EXPECT_EQ(r.O(0, 0), 1.0) << ToString(r.algorithm);
      EXPECT_EQ(r.O(0, 1), 0.0) << ToString(r.algorithm);
    }
  }
}

TEST(AttentionKnown, EmptyKeysGiveFlaggedZeroRows) {
  AttentionProblem p;
  p.Q = AttentionMatrix::Ones(3, 2);
  p.K = AttentionMatrix(0, 2);
  p.V = AttentionMatrix(0, 4);
  for (const AttentionResult& r : {RunReference(p), RunFlash2(p, Tiles(2, 2)), RunFlash1(p, Tiles(2, 2))}) {
    ASSERT_EQ(r.O.rows(), 3);
    ASSERT_EQ(r.O.cols(), 4);
    EXPECT_TRUE(r.O.isZero(0));
    EXPECT_EQ(r.row_fully_masked, std::vector<std::uint8_t>({1, 1, 1})) << ToString(r.algorithm);
    EXPECT_TRUE(std::isinf(r.L[0]) && r.L[0] < 0);
  }
}

TEST(AttentionKnown, EmptyQueriesGiveEmptyOutput) {
  AttentionProblem p;
  p.Q = AttentionMatrix(0, 2);
  p.K = AttentionMatrix::Ones(5, 2);
  p.V = AttentionMatrix::Ones(5, 3);
  for (const AttentionResult& r : {RunReference(p), RunFlash2(p, Tiles(2, 2)), RunFlash1(p, Tiles(2, 2))}) {
    EXPECT_EQ(r.O.rows(), 0);
    EXPECT_EQ(r.O.cols(), 3);
    EXPECT_TRUE(r.row_fully_masked.empty());
  }
}

TEST(AttentionKnown, FullyMaskedRowIsZeroAndFlaggedInEveryPath) {
  AttentionMaskMatrix keep(2, 3);
  keep << 1, 0, 1, 0, 0, 0;
  const auto p = AttentionProblem::FromLogits(M({{1, 2, 3}, {4, 5, 6}}), M({{1}, {2}, {3}}), Mask::Explicit(keep));
  for (const AttentionResult& r : {RunReference(p), RunFlash2(p, Tiles(1, 2)), RunFlash1(p, Tiles(1, 2)), RunFlash2(p, Tiles(2, 1))}) {
    EXPECT_EQ(r.row_fully_masked, std::vector<std::uint8_t>({0, 1})) << ToString(r.algorithm);
    EXPECT_EQ(r.O(1, 0), 0.0);
    EXPECT_FALSE(std::isnan(r.O(0, 0)));
  }
  // Bottom-right causal with N_q > N_k masks the first N_q − N_k rows entirely.
  const auto br = AttentionProblem::FromLogits(AttentionMatrix::Zero(3, 1), M({{2}}), Mask::Causal(CausalAlignment::kBottomRight));
  EXPECT_EQ(RunFlash2(br, Tiles(1, 1)).row_fully_masked, std::vector<std::uint8_t>({1, 1, 0}));
  EXPECT_EQ(RunReference(br).row_fully_masked, std::vector<std::uint8_t>({1, 1, 0}));
}

TEST(AttentionKnown, BlockSizeZeroIsAValidationError) {
  const auto p = ZeroTen();
  EXPECT_THROW(RunFlash2(p, Tiles(0, 1)), ValidationError);
  EXPECT_THROW(RunFlash2(p, Tiles(1, 0)), ValidationError);
  EXPECT_THROW(RunFlash1(p, Tiles(0, 1)), ValidationError);
  EXPECT_THROW(RunFlash2(p, RunOptions{}), ValidationError);
  EXPECT_THROW(DeriveTileSizes(0, 64), ValidationError);
  AttentionProblem bad = p;
  bad.V = AttentionMatrix::Ones(3, 1);
  EXPECT_THROW(RunReference(bad), ValidationError);
  bad = p;
  bad.mask = Mask::KeyPadding({1});
  EXPECT_THROW(RunReference(bad), ValidationError);
}

TEST(AttentionKnown, BackwardTwoByOne) {
  // N = 2, d = 1, Q = [[1],[2]], K = [[1],[−1]], V = [[1],[0]], dO = [[1],[1]], non-causal
  AttentionProblem p;
  p.Q = M({{1}, {2}});
  p.K = M({{1}, {-1}});
  p.V = M({{1}, {0}});
  const AttentionMatrix dO = M({{1}, {1}});
  const auto ref = RunBackwardReference(p, dO);
  const auto fwd = RunFlash2(p, Tiles(1, 1));
  const auto rec = RunBackwardRecompute(p, fwd, dO, Tiles(1, 1));
  for (const BackwardResult* r : {&ref, &rec}) {
    EXPECT_NEAR(r->dV(0, 0), 1.8628, 5e-5);
    EXPECT_NEAR(r->dV(1, 0), 0.1372, 5e-5);
    EXPECT_NEAR(r->dQ(0, 0), 0.2100, 5e-5);
    EXPECT_NEAR(r->dQ(1, 0), 0.0353, 5e-5);
    EXPECT_NEAR(r->dK(0, 0), 0.1403, 5e-5);
    EXPECT_NEAR(r->dK(1, 0), -0.1403, 5e-5);
  }
}

TEST(AttentionKnown, DeriveTileSizesFromSram) {
  // M = 100 KB of floats = 25600 elements, d = 64: B_c = ⌈25600/256⌉ = 100, B_r = min(100, 64) = 64
  const auto t = DeriveTileSizes(25600, 64);
  EXPECT_EQ(t.tiles, (TileSizes{64, 100}));
  EXPECT_EQ(DeriveTileSizes(1000, 3).tiles, (TileSizes{3, 84}));  // ⌈1000/12⌉ = 84
  EXPECT_EQ(DeriveTileSizes(1, 9).tiles, (TileSizes{1, 1}));
  ASSERT_FALSE(t.steps.empty());
  EXPECT_NE(t.steps[2].find("= 100"), std::string::npos);
}

TEST(Compare, NanAndInfAreCountedNotFolded) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  AttentionMatrix a = M({{1, nan, inf, 2, nan}}), b = M({{1, 3, inf, 2.5, nan}});
  const auto rep = Compare(a, b, 1e-9, 0);
  EXPECT_EQ(rep.nan_actual, 2);
  EXPECT_EQ(rep.nan_expected, 1);
  EXPECT_EQ(rep.pos_inf_actual, 1);
  EXPECT_EQ(rep.mismatches, 3);  // NaN vs 3, 2 vs 2.5, and NaN vs NaN (NaN equals nothing); Inf vs Inf agrees
  EXPECT_EQ(rep.nonfinite_mismatches, 2);
  EXPECT_TRUE(rep.has_first_mismatch);
  EXPECT_EQ(rep.first_col, 1);
  EXPECT_DOUBLE_EQ(rep.max_abs_error, 0.5);
  EXPECT_DOUBLE_EQ(rep.max_rel_error, 0.2);
  EXPECT_FALSE(rep.ok());
  EXPECT_TRUE(Compare(M({{1, 2}}), M({{1, 2}})).ok());
  EXPECT_TRUE(Compare(M({{1, 2}}), M({{1, 2, 3}})).shape_mismatch);
  EXPECT_EQ(Compare(M({{-inf}}), M({{inf}})).mismatches, 1);
}

// Issue 16: above 2048² scores the reference forms S and P a block of query rows at a time (the
// counters still count them whole). P handed out through probability_rows is P exactly, every row
// once and in order; asking for it changes nothing else; and O still agrees with FA-2.
TEST(AttentionKnown, ReferenceInRowBlocksHandsOutPExactly) {
  const std::int64_t n = 2100, d = 4;   // 2100² > 2048²: blocks of 2^18 / 2100 = 124 rows
  std::mt19937 rng(16);
  std::normal_distribution<double> g;
  AttentionProblem p;
  for (auto* m : {&p.Q, &p.K, &p.V}) *m = AttentionMatrix::NullaryExpr(n, d, [&] { return g(rng); });
  p.mask = Mask::Causal();
  RunOptions keep;
  keep.keep_probabilities = true;
  const AttentionResult whole = RunReference(p, keep);
  ASSERT_EQ(whole.P.rows(), n);
  RunOptions sink;
  std::int64_t next = 0, calls = 0;
  bool same = true;
  sink.probability_rows = [&](std::int64_t first, const float* rows, std::int64_t count) {
    EXPECT_EQ(first, next);
    for (std::int64_t k = 0; k < count * n; ++k) same = same && rows[k] == whole.P.data()[first * n + k];
    next += count;
    ++calls;
  };
  const AttentionResult streamed = RunReference(p, sink);
  EXPECT_EQ(next, n);
  EXPECT_EQ(calls, (n + 123) / 124);
  EXPECT_TRUE(same);
  EXPECT_EQ(streamed.P.size(), 0);
  EXPECT_TRUE(streamed.O == whole.O);
  EXPECT_TRUE(streamed.L == whole.L);
  EXPECT_EQ(streamed.counters, whole.counters);
  EXPECT_EQ(whole.counters.hbm_scratch_bytes, 2 * n * n * 8);   // S and P counted whole
  RunOptions tiled;
  tiled.tiles = {64, 64};
  EXPECT_TRUE(Compare(RunFlash2(p, tiled).O, whole.O, 1e-12, 1e-12).ok());
}

}  // namespace
}  // namespace bw::engine
