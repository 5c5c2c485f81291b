// Split-KV decoding (engine/split_kv.h): the 2,1,4 merge with splits in place of blocks, exact; the
// wrong combines with their own exact values; paged reads through a block table; counters as
// integers; the split-count rule. Expected values are worked by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <numeric>
#include <random>

#include "engine/split_kv.h"
#include "weights_problem.h"

namespace bw::engine {
namespace {

SingleQueryProblem Weights(std::vector<int> w, std::vector<int> v, std::vector<int> tiles) {
  return testing::WeightsProblem(std::move(w), std::move(v), std::move(tiles), SoftmaxMode::kStable);
}

SplitKvProblem Seed() {
  SplitKvProblem p;
  p.query = Weights({2, 1, 4}, {10, 20, 30}, {2, 1});
  p.split_tiles = {1, 1};  // split 1 = keys 1–2 (weights 2, 1), split 2 = key 3 (weight 4)
  return p;
}

TEST(SplitKv, TheCombineIsTheSeedsMergeExactly) {
  const SplitKvRun run = RunSplitKv(Seed());
  ASSERT_EQ(run.SplitCount(), 2);
  const auto& s1 = *run.splits[0].exact_state;
  const auto& s2 = *run.splits[1].exact_state;
  // Split 1 alone: m = ln 2, l = 3/2, u = 20 (O_1 = 40/3). Split 2: m = ln 4, l = 1, u = 30.
  EXPECT_EQ(s1.M, 2);
  EXPECT_EQ(s1.l, Rational(3, 2));
  EXPECT_EQ(s1.u[0], 20);
  EXPECT_EQ((*run.splits[0].exact_output)[0], Rational(40, 3));
  EXPECT_EQ(s2.M, 4);
  EXPECT_EQ(s2.l, 1);
  EXPECT_EQ(s2.u[0], 30);
  // Combine: split 1 rescaled by e^{ln2 − ln4} = 1/2 → l = 7/4, u = 40, O = 160/7.
  ASSERT_EQ(run.combine.size(), 2u);
  EXPECT_EQ(run.combine[1].exact->alpha, Rational(1, 2));
  EXPECT_EQ(run.combine[1].exact->after.l, Rational(7, 4));
  EXPECT_EQ(run.combine[1].exact->after.u[0], 40);
  ASSERT_TRUE(run.exact.has_value());
  EXPECT_EQ(run.exact->output[0], Rational(160, 7));
  EXPECT_EQ(run.exact->reference_output[0], Rational(160, 7));
  EXPECT_NEAR(run.output[0], 160.0 / 7.0, 1e-12);
  EXPECT_NEAR(run.reference_output[0], 160.0 / 7.0, 1e-12);
  // lse_1 = ln 2 + ln 3/2 = ln 3 (Σw of split 1), lse_2 = ln 4, lse = ln 7.
  EXPECT_NEAR(run.splits[0].lse, std::log(3.0), 1e-14);
  EXPECT_NEAR(run.splits[1].lse, std::log(4.0), 1e-14);
  EXPECT_NEAR(run.lse, std::log(7.0), 1e-14);
  EXPECT_TRUE(run.numerics.empty());
}

TEST(SplitKv, EachWrongCombineHasItsOwnExactValue) {
  const SplitKvRun run = RunSplitKv(Seed());
  // Mean of O_s: (40/3 + 30)/2 = 65/3 — the lesson's wrong average, one scale up.
  EXPECT_EQ((*run.Wrong(CombineVariant::kMeanOfSplitOutputs).exact)[0], Rational(65, 3));
  EXPECT_NEAR(run.Wrong(CombineVariant::kMeanOfSplitOutputs).output[0], 65.0 / 3.0, 1e-12);
  // No rescale: (u_1 + u_2)/(l_1 + l_2) = 50 / (5/2) = 20.
  EXPECT_EQ((*run.Wrong(CombineVariant::kNoRescale).exact)[0], 20);
  EXPECT_NEAR(run.Wrong(CombineVariant::kNoRescale).output[0], 20.0, 1e-12);
  // Max only: (2·40/3 + 4·30)/(2 + 4) = 220/9.
  EXPECT_EQ((*run.Wrong(CombineVariant::kMaxOnly).exact)[0], Rational(220, 9));
  EXPECT_NEAR(run.Wrong(CombineVariant::kMaxOnly).output[0], 220.0 / 9.0, 1e-12);
  for (const auto& w : run.wrong) EXPECT_NE((*w.exact)[0], run.exact->output[0]) << ToString(w.variant);
}

TEST(SplitKv, TheTraceRunsEverySplitsRthTileAtOneStep) {
  SplitKvProblem p;
  p.query = Weights({1, 2, 3, 4, 5, 6, 7}, {1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1});
  p.split_tiles = {3, 2, 2};
  const SplitKvRun run = RunSplitKv(p);
  std::vector<std::string> labels;
  for (const auto& e : run.events) labels.push_back(e.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"start", "load:1", "update:1", "load:2", "update:2", "load:3", "update:3",
                                              "partial", "combine:1", "combine:2", "combine:3", "write"}));
  EXPECT_EQ(run.FindEvent("combine:2"), 9);
  EXPECT_EQ(run.FindEvent("combine:4"), -1);
  EXPECT_EQ(run.splits[1].begin, 3);
  EXPECT_EQ(run.splits[1].end, 5);
  EXPECT_EQ(run.splits[2].first_tile, 5);
  EXPECT_EQ((*run.exact).output[0], 1);
}

TEST(SplitKv, CountersAreIntegersPerSplitAndForTheCombine) {
  SplitKvProblem p;
  p.query = Weights({1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2, 2});
  p.query.values.conservativeResize(8, 3);
  p.query.values.col(1).setConstant(1);
  p.query.values.col(2).setConstant(2);
  p.query.exact_values.reset();
  p.split_tiles = {2, 1, 1};
  p.d = 5;
  const SplitKvRun run = RunSplitKv(p);
  // Split 1: q 5, K 4·5 = 20, V 4·3 = 12, partial O 3, lse 1.
  EXPECT_EQ(run.splits[0].counters, (SplitKvCounters{5, 20, 12, 0, 3, 1, 0, 0, 0}));
  EXPECT_EQ(run.splits[2].counters, (SplitKvCounters{5, 10, 6, 0, 3, 1, 0, 0, 0}));
  // All: q 3·5, K 8·5, V 8·3, partial O 3·3 written and read, lse 3 written and read, O 3.
  EXPECT_EQ(run.counters, (SplitKvCounters{15, 40, 24, 0, 9, 3, 9, 3, 3}));
  EXPECT_EQ(run.unsplit_counters, (SplitKvCounters{5, 40, 24, 0, 0, 0, 0, 0, 3}));
  // bf16 K/V: (15 + 40 + 24 + 3)·2 + (9 + 3 + 9 + 3)·4 = 164 + 96 = 260 bytes.
  EXPECT_EQ(run.counters.Bytes(2), 260);
  EXPECT_FALSE(run.exact.has_value());  // no exact values: no exact replay
}

TEST(SplitKv, APagedCacheReadsThroughTheBlockTableAndCountsIt) {
  // 12 keys in pages of 4 at physical pages 5, 0, 3 of a pool of 6; tiles of 5 and 7 cross pages.
  SplitKvProblem flat;
  flat.query = Weights({3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8}, {2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4, 5}, {5, 7});
  flat.split_tiles = {1, 1};
  SplitKvProblem paged = flat;
  paged.paged = PagedCache{4, {5, 0, 3}, 6};
  const SplitKvRun a = RunSplitKv(flat), b = RunSplitKv(paged);
  EXPECT_EQ(b.exact->output, a.exact->output);
  EXPECT_EQ(b.exact->output, b.exact->reference_output);
  // Split 1 = keys 0–4: logical pages 0, 1 → physical 5, 0. Split 2 = keys 5–11: pages 1, 2 → 0, 3.
  EXPECT_EQ(b.splits[0].physical_pages, (std::vector<int>{5, 0}));
  EXPECT_EQ(b.splits[1].physical_pages, (std::vector<int>{0, 3}));
  EXPECT_EQ(b.counters.table_reads, 4);
  EXPECT_EQ(b.unsplit_counters.table_reads, 3);
  EXPECT_EQ(a.counters.table_reads, 0);
}

TEST(SplitKv, BadSplitsAndTablesAreRefusedByName) {
  auto refused = [](SplitKvProblem p) {
    try {
      RunSplitKv(p);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  SplitKvProblem p = Seed();
  p.split_tiles = {1};
  EXPECT_EQ(refused(p), "splits: tiles per split sum to 1 but the cache has 2 tiles");
  p.split_tiles = {2, 0};
  EXPECT_EQ(refused(p), "splits[1]: a split needs at least one tile");
  p = Seed();
  p.paged = PagedCache{2, {1, 1}, 3};
  EXPECT_EQ(refused(p), "paged.block_table[1]: physical page 1 is used twice");
  p.paged = PagedCache{2, {0, 3}, 3};
  EXPECT_EQ(refused(p), "paged.block_table[1]: physical page 3 is outside the pool of 3 pages");
  p.paged = PagedCache{1, {0, 1}, 3};
  EXPECT_EQ(refused(p), "paged.block_table: has 2 entries but 3 keys in pages of 1 need 3");
  p = Seed();
  p.query.scores[1] = -1;
  EXPECT_EQ(refused(p), "scores[1]: weight is negative (weights are e^s > 0; use 0 to mask)");
}

TEST(SplitKv, AnEmptySplitAddsNothingAndIsNoNaN) {
  SplitKvProblem p;
  p.query = Weights({0, 0, 2, 6}, {5, 5, 1, 3}, {2, 2});
  p.split_tiles = {1, 1};
  const SplitKvRun run = RunSplitKv(p);
  EXPECT_TRUE(run.splits[0].state.IsEmpty());
  EXPECT_EQ(run.splits[0].lse, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(run.exact->output[0], Rational(5, 2));  // (2·1 + 6·3)/8
  EXPECT_EQ((*run.Wrong(CombineVariant::kMeanOfSplitOutputs).exact)[0], Rational(5, 2));  // the only split
  EXPECT_FALSE(std::isnan(run.output[0]));
}

TEST(SplitKv, OverflowInASplitIsNamedAtItsPlaceInTheWholeCache) {
  SplitKvProblem p;
  p.query.score_kind = ScoreKind::kLogits;
  p.query.mode = SoftmaxMode::kRaw;
  p.query.scores = {0, 1, 2, 800};
  p.query.values = Eigen::MatrixXd::Ones(4, 1);
  p.query.block_sizes = {1, 1, 1, 1};
  p.split_tiles = {2, 2};
  const SplitKvRun run = RunSplitKv(p);
  ASSERT_GE(run.numerics.Count(NumericsKind::kExpOverflow), 1);
  EXPECT_EQ(run.numerics.events[0].j, 3);    // the 4th tile of the cache (0-based 3), not split 2's 2nd
  EXPECT_EQ(run.numerics.events[0].col, 3);  // position 4
}

// Property: for random integer weights, values, tilings and split counts, the combine equals the one
// pass exactly, the float run agrees within 1e-12 (relative), and each wrong combine equals its own
// closed form, written here from the weights alone (W_s = Σw, U_s = Σwv, M_s = max w of split s;
// O_s = U_s / W_s): mean Σ O_s / S; no rescale Σ (U_s / M_s) / Σ (W_s / M_s); max only Σ M_s O_s / Σ M_s.
// The mean equals the right combine whenever every split has the same W_s, and the test checks it.
TEST(SplitKv, RandomSplitsEqualTheOnePassAndTheWrongCombinesTheirClosedForms) {
  std::mt19937 rng(34);
  const auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int equal_weight_cases = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = uniform(1, 24);
    std::vector<int> w(static_cast<size_t>(n)), v(static_cast<size_t>(n)), tiles;
    for (int i = 0; i < n; ++i) w[static_cast<size_t>(i)] = uniform(1, 9), v[static_cast<size_t>(i)] = uniform(-20, 20);
    for (int left = n; left > 0;) {
      const int b = uniform(1, std::min(left, 5));
      tiles.push_back(b);
      left -= b;
    }
    SplitKvProblem p;
    p.query = Weights(w, v, tiles);
    const int S = uniform(1, static_cast<int>(tiles.size()));
    p.split_tiles = EvenSplit(static_cast<int>(tiles.size()), S);
    const SplitKvRun run = RunSplitKv(p);
    ASSERT_TRUE(run.exact.has_value());
    EXPECT_EQ(run.exact->output[0], run.exact->reference_output[0]) << "trial " << trial;
    EXPECT_NEAR(run.output[0], run.reference_output[0], 1e-12 * std::max(1.0, std::abs(run.reference_output[0])));
    EXPECT_FALSE(std::isnan(run.output[0]));
    // The closed forms from the weights.
    Rational mean = 0, nr_num = 0, nr_den = 0, mo_num = 0, mo_den = 0;
    std::vector<Rational> W;
    int key = 0, tile = 0;
    for (int t : p.split_tiles) {
      int keys = 0;
      for (int k = 0; k < t; ++k) keys += tiles[static_cast<size_t>(tile++)];
      Rational Ws = 0, Us = 0;
      int Ms = 0;
      for (int i = key; i < key + keys; ++i) {
        Ws += w[static_cast<size_t>(i)];
        Us += Rational(w[static_cast<size_t>(i)]) * v[static_cast<size_t>(i)];
        Ms = std::max(Ms, w[static_cast<size_t>(i)]);
      }
      key += keys;
      const Rational Os = Us / Ws;
      mean += Os;
      nr_num += Us / Ms, nr_den += Ws / Ms;
      mo_num += Rational(Ms) * Os, mo_den += Ms;
      W.push_back(Ws);
    }
    mean /= static_cast<int>(p.split_tiles.size());
    EXPECT_EQ((*run.Wrong(CombineVariant::kMeanOfSplitOutputs).exact)[0], mean) << "trial " << trial;
    EXPECT_EQ((*run.Wrong(CombineVariant::kNoRescale).exact)[0], nr_num / nr_den) << "trial " << trial;
    EXPECT_EQ((*run.Wrong(CombineVariant::kMaxOnly).exact)[0], mo_num / mo_den) << "trial " << trial;
    if (std::all_of(W.begin(), W.end(), [&](const Rational& x) { return x == W.front(); })) {
      ++equal_weight_cases;
      EXPECT_EQ(mean, run.exact->output[0]) << "trial " << trial;
    }
  }
  EXPECT_GT(equal_weight_cases, 0);  // S = 1 at least: the mean of one split is the split
}

TEST(SplitKv, TheSplitCountFillsTheGpu) {
  // 8 KV heads, one query, 132 SMs, 512 tiles: waves = 8s/132. s = 33 (2 whole waves) would be
  // perfect but is not tried: ⌈512/33⌉ = ⌈512/32⌉ = 16 tiles a split, no shorter than s = 32. The best
  // tried is s = 16 (128/132 = 0.970); the first within 85 % of it is s = 14 (112/132 = 0.848 ≥ 0.824).
  EXPECT_EQ(ChooseSplitCount(8, 132, 512), 14);
  EXPECT_EQ(ChooseSplitCount(132, 132, 512), 1);   // the grid already fills the GPU
  EXPECT_EQ(ChooseSplitCount(106, 132, 512), 1);   // 106 ≥ 0.8 · 132
  EXPECT_EQ(ChooseSplitCount(8, 132, 3), 3);       // no more splits than tiles
  EXPECT_DOUBLE_EQ(LastWaveOccupancy(8, 132), 8.0 / 132.0);
  EXPECT_DOUBLE_EQ(LastWaveOccupancy(264, 132), 1.0);
  EXPECT_EQ(EvenSplit(10, 4), (std::vector<int>{3, 3, 2, 2}));
  EXPECT_EQ(EvenSplit(2, 5), (std::vector<int>{1, 1}));
}

}  // namespace
}  // namespace bw::engine
