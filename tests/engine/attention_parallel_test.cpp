// The parallel FlashAttention-2 run (RunOptions::workers, Q blocks on several threads) against the
// single-threaded run: O and L bit for bit, the fully-masked flags, the counters, every trace event
// with its cumulative counters, the (m, l, u) state at every merge, and the numerics report must be
// identical — for random problems with causal (both alignments), key-padding and explicit masks, on
// 1, 2 and 8 workers, double and float. Small problems: this is a correctness test, not a timing.
// A worker takes up to four consecutive Q blocks at a time (a group sharing each K_j / V_j tile's
// conversion, attention_forward.cpp): one worker groups them by four, as many workers as Q blocks
// take them one by one, so these tests also prove that grouping changes no bit.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <stdexcept>

#include "engine/attention.h"
#include "engine/parallel.h"

namespace bw::engine {
namespace {

AttentionProblem RandomProblem(std::mt19937_64& rng, int index) {
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::uniform_real_distribution<double> val(-2.0, 2.0);
  AttentionProblem p;
  const int n_q = uni(1, 70), n_k = uni(1, 70), d = uni(1, 9), d_v = uni(1, 9);
  auto fill = [&](AttentionMatrix& m, int r, int c) {
    m.resize(r, c);
    for (Eigen::Index x = 0; x < m.size(); ++x) m.data()[x] = val(rng);
  };
  fill(p.Q, n_q, d);
  fill(p.K, n_k, d);
  fill(p.V, n_k, d_v);
  switch (index % 4) {
    case 0: p.mask = Mask::Causal(CausalAlignment::kTopLeft); break;
    case 1: p.mask = Mask::Causal(CausalAlignment::kBottomRight); break;
    case 2: {
      std::vector<std::uint8_t> keep(static_cast<std::size_t>(n_k));
      for (auto& k : keep) k = uni(0, 3) != 0;
      p.mask = Mask::KeyPadding(std::move(keep));
      break;
    }
    case 3: {
      AttentionMaskMatrix keep(n_q, n_k);
      const int density = uni(0, 4);  // 0: every pair masked … 4: every pair kept
      for (Eigen::Index x = 0; x < keep.size(); ++x) keep.data()[x] = uni(0, 3) < density ? 1 : 0;
      p.mask = Mask::Explicit(std::move(keep));
      break;
    }
  }
  return p;
}

// Bit-for-bit equality (a NaN equals only the same NaN bits; −0 differs from +0).
template <typename M>
bool SameBits(const M& a, const M& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(double)) == 0;
}

void ExpectSameEvent(const AttentionEvent& a, const AttentionEvent& b, std::size_t e) {
  EXPECT_EQ(a.kind, b.kind) << "event " << e;
  EXPECT_EQ(a.tensor, b.tensor) << "event " << e;
  EXPECT_EQ(a.i, b.i) << "event " << e;
  EXPECT_EQ(a.j, b.j) << "event " << e;
  EXPECT_EQ(a.step, b.step) << "event " << e;
  EXPECT_EQ(a.elements, b.elements) << "event " << e;
  EXPECT_EQ(a.flops, b.flops) << "event " << e;
  EXPECT_EQ(a.exps, b.exps) << "event " << e;
  EXPECT_EQ(a.sram_bytes, b.sram_bytes) << "event " << e;
}

void ExpectSameNumerics(const NumericsReport& a, const NumericsReport& b) {
  ASSERT_EQ(a.events.size(), b.events.size());
  EXPECT_EQ(a.dropped, b.dropped);
  for (std::size_t x = 0; x < a.events.size(); ++x) {
    EXPECT_EQ(a.events[x].kind, b.events[x].kind) << x;
    EXPECT_EQ(a.events[x].quantity, b.events[x].quantity) << x;
    EXPECT_EQ(a.events[x].row, b.events[x].row) << x;
    EXPECT_EQ(a.events[x].col, b.events[x].col) << x;
    EXPECT_EQ(a.events[x].i, b.events[x].i) << x;
    EXPECT_EQ(a.events[x].j, b.events[x].j) << x;
  }
}

void ExpectSameRun(const AttentionProblem& p, const AttentionResult& one, const AttentionResult& many) {
  EXPECT_TRUE(SameBits(one.O, many.O));
  EXPECT_EQ(one.L.size(), many.L.size());
  EXPECT_EQ(std::memcmp(one.L.data(), many.L.data(), static_cast<std::size_t>(one.L.size()) * sizeof(double)), 0);
  EXPECT_EQ(one.row_fully_masked, many.row_fully_masked);
  EXPECT_EQ(one.counters, many.counters);
  ExpectSameNumerics(one.numerics, many.numerics);
  ASSERT_EQ(one.trace.size(), many.trace.size());
  for (std::size_t e = 0; e < one.trace.size(); ++e) {
    ExpectSameEvent(one.trace[e], many.trace[e], e);
    ASSERT_EQ(one.trace.CountersAt(e), many.trace.CountersAt(e)) << "cumulative counters at event " << e;
    if (one.trace[e].kind != EventKind::kUpdateMLU) continue;
    const BlockState a = one.trace.StateAt(p, e), b = many.trace.StateAt(p, e);
    ASSERT_TRUE(a.valid && b.valid);
    EXPECT_EQ(a.steps, b.steps);
    EXPECT_EQ(a.last_j, b.last_j);
    EXPECT_TRUE(a.m == b.m && a.l == b.l && a.u == b.u) << "(m, l, u) at event " << e;
  }
}

TEST(AttentionParallel, RandomMaskedProblemsEqualTheSingleThreadedRunOn1_2_8Workers) {
  std::mt19937_64 rng(16);
  for (int index = 0; index < 120; ++index) {
    const AttentionProblem p = RandomProblem(rng, index);
    RunOptions opt;
    opt.tiles = {std::uniform_int_distribution<std::int64_t>(1, 12)(rng), std::uniform_int_distribution<std::int64_t>(1, 12)(rng)};
    opt.precision = index % 2 ? Precision::kFloat : Precision::kDouble;
    opt.record_trace = index % 3 != 2;  // untraced runs merge counters per block instead of events
    opt.counter_snapshot_every = 7;
    opt.state_snapshots_per_block = 3;
    opt.workers = 1;
    const AttentionResult one = RunFlash2(p, opt);
    for (int workers : {2, 8}) {
      SCOPED_TRACE("case " + std::to_string(index) + ", " + std::to_string(workers) + " workers, N_q=" +
                   std::to_string(p.n_q()) + " B_r=" + std::to_string(opt.tiles.B_r) + " mask=" + ToString(p.mask.kind));
      opt.workers = workers;
      ExpectSameRun(p, one, RunFlash2(p, opt));
      if (HasFatalFailure()) return;
    }
  }
}

// 13 Q blocks: one worker runs them in groups of 4, 4, 4, 1; thirteen workers one block each.
TEST(AttentionParallel, GroupedQBlocksEqualOneBlockAtATime) {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> val(-3.0, 3.0);
  AttentionProblem p;
  for (auto* m : {&p.Q, &p.K, &p.V}) {
    m->resize(200, 16);
    for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = val(rng);
  }
  p.mask = Mask::Causal();
  for (Precision precision : {Precision::kFloat, Precision::kDouble}) {
    RunOptions opt;
    opt.tiles = {16, 24};
    opt.precision = precision;
    opt.record_trace = true;
    opt.state_snapshots_per_block = 2;
    opt.workers = 1;
    const AttentionResult one = RunFlash2(p, opt);
    opt.workers = 13;
    ExpectSameRun(p, one, RunFlash2(p, opt));
  }
}

// Numerics events from many blocks (float: inputs out of range, infinite scores, NaN rows): the
// report keeps the first 64 in Q-block order and counts the rest, as the single-threaded run does.
TEST(AttentionParallel, NumericsReportMergedInQBlockOrder) {
  std::mt19937_64 rng(7);
  AttentionProblem p = RandomProblem(rng, 0);
  p.Q.setConstant(40, 3, 1.0);
  p.K.setConstant(40, 3, 1.0);
  p.V.setConstant(40, 2, 0.5);
  for (int r = 0; r < 40; r += 2) p.Q(r, 0) = 1e300;  // out of float range: +∞ after conversion
  p.V(5, 1) = -1e300;
  p.mask = Mask::None();
  RunOptions opt;
  opt.tiles = {3, 4};
  opt.precision = Precision::kFloat;
  opt.workers = 1;
  const AttentionResult one = RunFlash2(p, opt);
  ASSERT_GT(one.numerics.dropped, 0) << "the case must overflow the report to test the merge";
  for (int workers : {2, 8}) {
    opt.workers = workers;
    const AttentionResult many = RunFlash2(p, opt);
    ExpectSameNumerics(one.numerics, many.numerics);
    EXPECT_EQ(one.counters, many.counters);
  }
}

TEST(AttentionParallel, WorkerCountIsClampedToTheQBlocks) {
  EXPECT_EQ(detail::EffectiveWorkers(8, 3), 3);
  EXPECT_EQ(detail::EffectiveWorkers(2, 100), 2);
  EXPECT_EQ(detail::EffectiveWorkers(1, 0), 1);
  EXPECT_GE(detail::EffectiveWorkers(0, 100), 1);
  EXPECT_EQ(ParallelUnits(Algorithm::kFlash2, 100, {16, 8}), 7);  // ⌈100/16⌉ Q blocks
  EXPECT_EQ(ParallelUnits(Algorithm::kFlash1, 100, {16, 8}), 1);
  EXPECT_EQ(ParallelUnits(Algorithm::kReference, 100, {}), 0);
}

TEST(AttentionParallel, ParallelForRunsEachIndexOnceAndRethrows) {
  std::vector<int> hits(1000, 0);
  detail::ParallelFor(1000, 4, [&](std::int64_t i, int worker) {
    ASSERT_GE(worker, 0);
    ASSERT_LT(worker, 4);
    ++hits[static_cast<std::size_t>(i)];
  });
  for (int h : hits) ASSERT_EQ(h, 1);
  EXPECT_THROW(detail::ParallelFor(50, 3, [](std::int64_t i, int) {
                 if (i == 17) throw std::runtime_error("block 17");
               }),
               std::runtime_error);
}

}  // namespace
}  // namespace bw::engine
