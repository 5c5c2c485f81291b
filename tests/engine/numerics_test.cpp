// Issue 12, "every number honest", in the engine: the cases of the issue with their right values
// (computed independently, by hand or by Python's math module — the comment beside each gives the
// arithmetic) or their exact diagnostics, and a property test over random extreme inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "engine/attention.h"
#include "engine/numerics.h"
#include "engine/single_query.h"

namespace bw::engine {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

AttentionMatrix M(std::initializer_list<std::initializer_list<double>> rows) {
  AttentionMatrix m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index r = 0;
  for (const auto& row : rows) {
    Eigen::Index c = 0;
    for (double x : row) m(r, c++) = x;
    ++r;
  }
  return m;
}

RunOptions Tiles(std::int64_t B_r, std::int64_t B_c, Precision pr = Precision::kDouble) {
  RunOptions o;
  o.tiles = {B_r, B_c};
  o.precision = pr;
  return o;
}

std::vector<std::string> Lines(const NumericsReport& r) {
  std::vector<std::string> out;
  for (const auto& e : r.events) out.push_back(Describe(e));
  return out;
}

SingleQueryProblem Query(ScoreKind kind, std::vector<double> scores, std::vector<double> values, std::vector<int> blocks,
                         SoftmaxMode mode) {
  SingleQueryProblem p;
  p.score_kind = kind;
  p.scores = std::move(scores);
  p.values = Eigen::Map<Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
  p.block_sizes = std::move(blocks);
  p.mode = mode;
  return p;
}

// ---- Case 1: Q·K overflows double; NaN is never a match ------------------------------------------

TEST(NumericsCase1, OverflowingScoreIsNamedAndNaNNeverMatches) {
  AttentionProblem p;
  p.Q = M({{2e154}});
  p.K = M({{2e154}, {2e154}});
  p.V = M({{1}, {3}});
  const auto fa2 = RunFlash2(p, Tiles(1, 1));
  const auto ref = RunReference(p);
  ASSERT_TRUE(std::isnan(fa2.O(0, 0)));
  ASSERT_TRUE(std::isnan(ref.O(0, 0)));
  // 2e154 · 2e154 = 4e308 > DBL_MAX ≈ 1.7977e308: S = +inf for both keys, in tiles (1,1) and (1,2).
  EXPECT_EQ(Lines(fa2.numerics),
            (std::vector<std::string>{"infinite score: S = +inf at row 1 key 1 (tile 1,1) (double)",
                                      "NaN: l is NaN at row 1 (tile 1,1) (double)",  // e^(S − m) = e^(∞ − ∞)
                                      "infinite score: S = +inf at row 1 key 2 (tile 1,2) (double)"}));
  EXPECT_EQ(ref.numerics.Count(NumericsKind::kInfiniteScore), 2);
  const auto rep = Compare(fa2.O, ref.O, 1e-12, 1e-12);
  EXPECT_FALSE(rep.ok());
  EXPECT_EQ(rep.mismatches, 1);
  EXPECT_EQ(rep.nonfinite_mismatches, 1);
  EXPECT_EQ(rep.nan_actual, 1);
  EXPECT_NE(rep.Summary().find("1 with NaN or \u00b1Inf: never a match"), std::string::npos) << rep.Summary();
  // Every wrong merge is NaN too, and none of them "agrees" with a max error of 0.
  for (MergeVariant v : kAllMergeVariants) {
    RunOptions o = Tiles(1, 1);
    o.merge = v;
    const auto w = RunFlash2(p, o);
    EXPECT_FALSE(Compare(w.O, ref.O).ok()) << ToString(v);
    EXPECT_FALSE(w.numerics.empty()) << ToString(v);
  }
}

TEST(NumericsCompare, NaNAgainstAnythingIsAMismatchAndCounted) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto a = M({{nan, 1, kInf, -kInf, kInf, 2}});
  const auto b = M({{nan, nan, kInf, kInf, 1, 2}});
  const auto rep = Compare(a, b);
  EXPECT_EQ(rep.elements, 6);
  EXPECT_EQ(rep.mismatches, 4);            // NaN/NaN, 1/NaN, −Inf/+Inf, +Inf/1
  EXPECT_EQ(rep.nonfinite_mismatches, 4);
  EXPECT_EQ(rep.nan_actual, 1);
  EXPECT_EQ(rep.nan_expected, 2);
  EXPECT_EQ(rep.first_col, 0);
  EXPECT_EQ(Compare(M({{kInf}}), M({{kInf}})).mismatches, 0);  // +Inf == +Inf in IEEE 754
}

// ---- Case 2: underflow is not masking; the reference is computed stably ------------------------

TEST(NumericsCase2, RawUnderflowIsNamedAndTheReferenceIsTrue) {
  const auto run = RunSingleQuery(Query(ScoreKind::kLogits, {-800, -801, -799}, {10, 20, 30}, {2, 1}, SoftmaxMode::kRaw));
  EXPECT_FALSE(run.all_masked);
  EXPECT_FALSE(run.blocks[0].all_masked);
  EXPECT_FALSE(run.blocks[1].all_masked);
  // (10 e^-1 + 20 e^-2 + 30) / (e^-1 + e^-2 + 1) = 24.20509…
  const double want = (10 * std::exp(-1.0) + 20 * std::exp(-2.0) + 30) / (std::exp(-1.0) + std::exp(-2.0) + 1);
  EXPECT_NEAR(run.reference_output[0], 24.2051, 5e-5);
  EXPECT_NEAR(run.reference_output[0], want, 1e-12);
  EXPECT_EQ(Lines(run.numerics),
            (std::vector<std::string>{
                "all weights underflow: every e^s is 0 at (block 1) although nothing there is masked (l_b = 0; largest s = -800) (double)",
                "all weights underflow: every e^s is 0 at (block 2) although nothing there is masked (l_b = 0; largest s = -799) (double)"}));
  // The stable mode gets it right with no event.
  const auto stable =
      RunSingleQuery(Query(ScoreKind::kLogits, {-800, -801, -799}, {10, 20, 30}, {2, 1}, SoftmaxMode::kStable));
  EXPECT_TRUE(stable.numerics.empty());
  EXPECT_NEAR(stable.output[0], want, 1e-12);
}

TEST(NumericsCase2, MaskedStillMeansMasked) {
  const auto run = RunSingleQuery(Query(ScoreKind::kWeights, {0, 0}, {1, 2}, {1, 1}, SoftmaxMode::kRaw));
  EXPECT_TRUE(run.all_masked);
  EXPECT_TRUE(run.blocks[0].all_masked);
  EXPECT_TRUE(run.numerics.empty());
}

// ---- Case 3: raw-mode overflow is named ----------------------------------------------------------

TEST(NumericsCase3, RawExpOverflow) {
  const auto raw = RunSingleQuery(Query(ScoreKind::kLogits, {1000, 1000}, {1, 0}, {2}, SoftmaxMode::kRaw));
  EXPECT_TRUE(std::isnan(raw.output[0]));
  EXPECT_EQ(Lines(raw.numerics),
            (std::vector<std::string>{"exp overflow: e^s = +inf at position 1 (block 1), s = 1000 (double)",
                                      "exp overflow: e^s = +inf at position 2 (block 1), s = 1000 (double)",
                                      "NaN: u_b is NaN at column 1 (block 1) (double)"}));
  EXPECT_DOUBLE_EQ(raw.reference_output[0], 0.5);  // e^0·1 + e^0·0 over e^0 + e^0, max-shifted
  const auto stable = RunSingleQuery(Query(ScoreKind::kLogits, {1000, 1000}, {1, 0}, {2}, SoftmaxMode::kStable));
  EXPECT_DOUBLE_EQ(stable.output[0], 0.5);
  EXPECT_TRUE(stable.numerics.empty());

  const auto edge = RunSingleQuery(Query(ScoreKind::kLogits, {710, 0}, {1, 0}, {1, 1}, SoftmaxMode::kRaw));
  ASSERT_FALSE(edge.numerics.empty());  // e^710 > DBL_MAX (ln DBL_MAX ≈ 709.78)
  EXPECT_EQ(Describe(edge.numerics.events[0]), "exp overflow: e^s = +inf at position 1 (block 1), s = 710 (double)");
  EXPECT_DOUBLE_EQ(edge.reference_output[0], 1.0 / (1.0 + std::exp(-710.0)));
}

TEST(NumericsCase3, RawWeightsAccumulatorOverflow) {
  // l = 1e308 + 1e308 = +inf while u = 1e308·1 + 1e308·0 stays finite: u/l = 0, the right answer is 0.5.
  const auto one = RunSingleQuery(Query(ScoreKind::kWeights, {1e308, 1e308}, {1, 0}, {2}, SoftmaxMode::kRaw));
  EXPECT_EQ(one.output[0], 0.0);
  EXPECT_DOUBLE_EQ(one.reference_output[0], 0.5);
  EXPECT_EQ(Lines(one.numerics),
            (std::vector<std::string>{"accumulator overflow: l_b = +inf at (block 1) (double)"}));
  const auto two = RunSingleQuery(Query(ScoreKind::kWeights, {1e308, 1e308}, {1, 0}, {1, 1}, SoftmaxMode::kRaw));
  EXPECT_EQ(Lines(two.numerics), (std::vector<std::string>{"accumulator overflow: l = +inf at (block 2) (double)"}));
  EXPECT_DOUBLE_EQ(two.reference_output[0], 0.5);
}

// ---- Case 4: values out of the float range -------------------------------------------------------

TEST(NumericsCase4, LogitOutOfTheFloatRangeIsReportedAtConversion) {
  const auto p = AttentionProblem::FromLogits(M({{1e39, 0}}), M({{1}, {2}}));
  const auto r = RunFlash2(p, Tiles(1, 2, Precision::kFloat));
  ASSERT_FALSE(r.numerics.empty());
  EXPECT_EQ(Describe(r.numerics.events[0]), "out of range: Q at row 1 column 1 = 1e+39 does not fit in float (becomes +inf)");
  EXPECT_TRUE(std::isnan(r.O(0, 0)));
  EXPECT_FALSE(Compare(r.O, RunReference(p).O, 1e-5, 1e-5).ok());

  const auto neg = AttentionProblem::FromLogits(M({{-1e39, -1e39}}), M({{1}, {2}}));
  for (const auto& res : {RunFlash2(neg, Tiles(1, 2, Precision::kFloat)), RunFlash1(neg, Tiles(1, 1, Precision::kFloat)),
                          RunReference(neg, Tiles(1, 1, Precision::kFloat))}) {
    EXPECT_EQ(res.row_fully_masked, std::vector<std::uint8_t>({0})) << "nothing is masked";
    EXPECT_EQ(res.numerics.Count(NumericsKind::kOutOfRange), 2) << ToString(res.algorithm);
  }
  // The same logits in double fit, and the answer is the plain mean 1.5.
  EXPECT_DOUBLE_EQ(RunFlash2(neg, Tiles(1, 2)).O(0, 0), 1.5);
  EXPECT_TRUE(RunFlash2(neg, Tiles(1, 2)).numerics.empty());
}

TEST(NumericsCase4, AllAllowedScoresMinusInfinityIsUnderflowNotMasking) {
  // K·Q = −inf for both keys in double (−1e200·1e200): nothing is masked, every weight is 0.
  AttentionProblem p;
  p.Q = M({{-1e200}});
  p.K = M({{1e200}, {1e200}});
  p.V = M({{1}, {2}});
  const auto r = RunFlash2(p, Tiles(1, 2));
  EXPECT_EQ(r.row_fully_masked, std::vector<std::uint8_t>({0}));
  EXPECT_EQ(r.numerics.Count(NumericsKind::kInfiniteScore), 2);
  EXPECT_EQ(r.numerics.Count(NumericsKind::kWeightsUnderflow), 1);
}

// ---- Case 5: a masked key's value contributes nothing --------------------------------------------

TEST(NumericsCase5, MaskedKeyValueCannotPoisonTheRow) {
  auto p = AttentionProblem::FromLogits(M({{0.5, 0, 2}}), M({{1}, {3}, {1e300}}), Mask::KeyPadding({1, 1, 0}));
  // softmax over the two kept keys: (e^0.5·1 + e^0·3) / (e^0.5 + 1) = 1.7550813…
  const double want = (std::exp(0.5) * 1 + 3) / (std::exp(0.5) + 1);
  EXPECT_NEAR(want, 1.7550813, 1e-7);
  for (Precision pr : {Precision::kFloat, Precision::kDouble}) {
    const double tol = pr == Precision::kFloat ? 1e-6 : 1e-14;
    const auto fa2 = RunFlash2(p, Tiles(1, 4, pr));
    const auto fa1 = RunFlash1(p, Tiles(1, 4, pr));
    const auto ref = RunReference(p, Tiles(1, 4, pr));
    for (const auto* r : {&fa2, &fa1, &ref}) {
      EXPECT_NEAR(r->O(0, 0), want, tol) << ToString(r->algorithm) << " " << ToString(pr);
      if (pr == Precision::kFloat) {
        ASSERT_EQ(r->numerics.events.size(), 1u);
        EXPECT_EQ(Describe(r->numerics.events[0]),
                  "out of range: V at row 3 column 1 = 1e+300 does not fit in float (becomes +inf)");
      } else {
        EXPECT_TRUE(r->numerics.empty());
      }
    }
  }
}

// ---- Property: random extreme inputs -------------------------------------------------------------

struct Drawn {
  AttentionProblem p;
  RunOptions opt;
  Algorithm order;
};

Drawn Draw(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> n(1, 7), pick(0, 3), order(0, 2), coin(0, 1);
  Drawn d;
  const int n_q = n(rng), n_k = n(rng), d_v = n(rng) % 3 + 1;
  d.opt.precision = coin(rng) ? Precision::kFloat : Precision::kDouble;
  const double v_max = d.opt.precision == Precision::kFloat ? 1e38 : 1e300;
  std::uniform_real_distribution<double> logit(-1e4, 1e4), unit(-1, 1), expo(0, 1), top(0.3, 1);
  AttentionMatrix S(n_q, n_k), V(n_k, d_v);
  for (int r = 0; r < n_q; ++r)
    for (int c = 0; c < n_k; ++c) S(r, c) = coin(rng) ? logit(rng) : unit(rng) * 10;
  // V: 1 … v_max on a log scale, or near v_max (where sums overflow), both signs.
  for (int r = 0; r < n_k; ++r)
    for (int c = 0; c < d_v; ++c)
      V(r, c) = (unit(rng) < 0 ? -1 : 1) * (coin(rng) ? std::pow(v_max, expo(rng)) : v_max * top(rng));
  Mask mask;
  switch (pick(rng)) {
    case 0: break;
    case 1: mask = Mask::Causal(coin(rng) ? CausalAlignment::kTopLeft : CausalAlignment::kBottomRight); break;
    case 2: {
      std::vector<std::uint8_t> keep(static_cast<std::size_t>(n_k));
      for (auto& k : keep) k = static_cast<std::uint8_t>(coin(rng));
      mask = Mask::KeyPadding(keep);
      break;
    }
    default: {
      AttentionMaskMatrix keep(n_q, n_k);
      for (int r = 0; r < n_q; ++r)
        for (int c = 0; c < n_k; ++c) keep(r, c) = static_cast<std::uint8_t>(coin(rng));
      mask = Mask::Explicit(keep);
    }
  }
  d.p = AttentionProblem::FromLogits(S, V, mask);
  if (pick(rng) == 0) {  // a quarter as Q, K (d = 2) whose products overflow the working precision
    const double qk_max = d.opt.precision == Precision::kFloat ? 1e22 : 1e160;
    d.p.Q.resize(n_q, 2);
    d.p.K.resize(n_k, 2);
    for (auto* m : {&d.p.Q, &d.p.K})
      for (Eigen::Index k = 0; k < m->size(); ++k) m->data()[k] = unit(rng) * std::pow(qk_max, expo(rng));
  }
  d.opt.tiles = {n(rng) % 3 + 1, n(rng) % 4 + 1};
  d.order = order(rng) == 0 ? Algorithm::kReference : order(rng) == 1 ? Algorithm::kFlash2 : Algorithm::kFlash1;
  return d;
}

AttentionResult RunOrder(const AttentionProblem& p, const RunOptions& o, Algorithm a) {
  switch (a) {
    case Algorithm::kFlash2: return RunFlash2(p, o);
    case Algorithm::kFlash1: return RunFlash1(p, o);
    default: return RunReference(p, o);
  }
}

TEST(NumericsProperty, RandomExtremeInputs) {
  std::mt19937_64 rng(12);
  int nonfinite_rows = 0, masked_changes = 0, nan_compares = 0;
  for (int it = 0; it < 3000; ++it) {
    const Drawn d = Draw(rng);
    const auto got = RunOrder(d.p, d.opt, d.order);
    const auto ref = RunReference(d.p, d.opt);
    const std::string what = std::string(ToString(d.order)) + " " + ToString(d.opt.precision) + " mask " +
                             ToString(d.p.mask.kind) + " case " + std::to_string(it);
    // 1. No NaN or ∞ in an output unless the report names its row, by the event that caused it (the
    //    run's last-resort "cause not traced" event must never be needed).
    for (Eigen::Index r = 0; r < got.O.rows(); ++r)
      if (!got.O.row(r).allFinite()) {
        ++nonfinite_rows;
        EXPECT_TRUE(got.numerics.NamesRow(r)) << what << " row " << r + 1;
      }
    for (const auto& ev : got.numerics.events) EXPECT_NE(ev.quantity, "O (cause not traced)") << what << ": " << Describe(ev);
    // 2. Compare never reports a match when either side holds a NaN.
    const auto rep = Compare(got.O, ref.O, 1e-5, 1e-5);
    if (got.O.hasNaN() || ref.O.hasNaN()) {
      ++nan_compares;
      EXPECT_FALSE(rep.ok()) << what;
      EXPECT_GT(rep.nonfinite_mismatches, 0) << what;
    }
    // 3. Any value given to a key the mask removes for every row leaves O bit-identical.
    AttentionProblem changed = d.p;
    bool any = false;
    for (Eigen::Index c = 0; c < changed.n_k(); ++c) {
      bool used = false;
      for (Eigen::Index r = 0; r < changed.n_q(); ++r) used = used || changed.mask.Allows(r, c, changed.n_q(), changed.n_k());
      if (used) continue;
      any = true;
      for (Eigen::Index k = 0; k < changed.d_v(); ++k) changed.V(c, k) = (k % 2 ? -1e300 : 1e300) * (it % 3 + 1) / 3;
    }
    if (!any) continue;
    ++masked_changes;
    const auto again = RunOrder(changed, d.opt, d.order);
    ASSERT_EQ(again.O.size(), got.O.size());
    EXPECT_EQ(std::memcmp(again.O.data(), got.O.data(), sizeof(double) * static_cast<std::size_t>(got.O.size())), 0) << what;
  }
  // The draw must reach the cases it is about (figures printed for docs/reliability.md).
  std::printf("non-finite output rows: %d, masked-V changes: %d, compares with NaN: %d\n", nonfinite_rows, masked_changes,
              nan_compares);
  EXPECT_GT(nonfinite_rows, 50);
  EXPECT_GT(masked_changes, 300);
  EXPECT_GT(nan_compares, 20);
}

}  // namespace
}  // namespace bw::engine
