// The backward passes as traces (issue 11): FlashAttention-2 Algorithm 2 emits, per K/V block j,
// per Q block i, read Q_i, dO_i, L_i, D_i, dQ_i → grads of tile (i, j) → write dQ_i, and writes dK_j,
// dV_j once per j; the materialising backward (FlashAttention Algorithm 3) is 20 whole-matrix
// events (lines 1–5: two reads, the product, one write each). On random small problems (shapes,
// tiles, masks) the number of events equals its formula, the cumulative counters at the last event
// equal the run's counters and the closed-form formula, and the running sum of the events' deltas
// equals CountersAt at every event.
#include <gtest/gtest.h>

#include <random>

#include "engine/attention.h"
#include "engine/attention_formulas.h"

namespace bw::engine {
namespace {

AttentionProblem Random(std::mt19937& g, std::int64_t n_q, std::int64_t n_k, std::int64_t d, std::int64_t d_v, Mask mask) {
  std::uniform_real_distribution<double> u(-2, 2);
  AttentionProblem p;
  p.Q = AttentionMatrix::NullaryExpr(n_q, d, [&] { return u(g); });
  p.K = AttentionMatrix::NullaryExpr(n_k, d, [&] { return u(g); });
  p.V = AttentionMatrix::NullaryExpr(n_k, d_v, [&] { return u(g); });
  p.mask = std::move(mask);
  return p;
}

// Events of Algorithm 2 without a mask: read O, read dO, compute D, write D, init dQ, write dQ, then
// per j: read K_j, read V_j, T_r × (5 reads, grads, write dQ_i), write dK_j, write dV_j.
std::int64_t Algorithm2Events(std::int64_t t_r, std::int64_t t_c) { return 6 + t_c * (2 + 7 * t_r + 2); }

TEST(BackwardTrace, Algorithm2EventsAndCountersEqualTheFormulas) {
  std::mt19937 g(11);
  std::uniform_int_distribution<std::int64_t> n(1, 19), dim(1, 6), tile(1, 7);
  for (int c = 0; c < 200; ++c) {
    const std::int64_t n_q = n(g), n_k = n(g), d = dim(g), d_v = dim(g);
    const TileSizes t{tile(g), tile(g)};
    const auto p = Random(g, n_q, n_k, d, d_v, Mask::None());
    RunOptions o;
    o.tiles = t;
    o.record_trace = true;
    o.counter_snapshot_every = 5;
    const AttentionMatrix dO = AttentionMatrix::Ones(n_q, d_v);
    const auto fwd = RunFlash2(p, o);
    const auto b = RunBackwardRecompute(p, fwd, dO, o);
    const std::string what = std::to_string(n_q) + "x" + std::to_string(n_k) + " d " + std::to_string(d) + "/" +
                             std::to_string(d_v) + " tiles " + std::to_string(t.B_r) + "x" + std::to_string(t.B_c);
    const std::int64_t t_r = CeilDiv(n_q, t.B_r), t_c = CeilDiv(n_k, t.B_c);
    ASSERT_EQ(static_cast<std::int64_t>(b.trace.size()), Algorithm2Events(t_r, t_c)) << what;
    const auto f = FormulaFor(Algorithm::kBackwardRecompute, AttentionShape::Of(p), t, p.mask, o.precision);
    ASSERT_TRUE(f) << what;
    EXPECT_TRUE(b.trace.CountersAt(b.trace.size() - 1) == f->counters) << what;
    EXPECT_TRUE(b.counters == f->counters) << what;
    Counters running;
    running.element_bytes = b.counters.element_bytes;
    std::int64_t grads = 0;
    for (std::size_t e = 0; e < b.trace.size(); ++e) {
      ApplyEvent(b.trace[e], running);
      EXPECT_EQ(running.TotalHbmElements(), b.trace.CountersAt(e).TotalHbmElements()) << what << " event " << e;
      if (b.trace[e].kind == EventKind::kComputeGrads) {
        // Algorithm 2 order: outer loop over K/V blocks j, inner over Q blocks i.
        EXPECT_EQ(b.trace[e].j, grads / t_r) << what;
        EXPECT_EQ(b.trace[e].i, grads % t_r) << what;
        ++grads;
      }
    }
    EXPECT_EQ(grads, t_r * t_c) << what;
    // Each K_j, V_j read once; dK_j, dV_j written once; dQ_i read and written once per tile.
    EXPECT_EQ(b.counters.Reads(Tensor::kK), n_k * d) << what;
    EXPECT_EQ(b.counters.Reads(Tensor::kV), n_k * d_v) << what;
    EXPECT_EQ(b.counters.Writes(Tensor::kdK), n_k * d) << what;
    EXPECT_EQ(b.counters.Writes(Tensor::kdV), n_k * d_v) << what;
    EXPECT_EQ(b.counters.Reads(Tensor::kdQ), t_c * n_q * d) << what;
    EXPECT_EQ(b.counters.Writes(Tensor::kdQ), (t_c + 1) * n_q * d) << what;   // + the zero fill
    EXPECT_EQ(b.counters.Reads(Tensor::kP), 0) << what;                         // P recomputed, never read

    const auto m = RunBackwardReference(p, dO, o);
    ASSERT_EQ(m.trace.size(), 20u) << what;
    const auto fm = FormulaFor(Algorithm::kBackwardReference, AttentionShape::Of(p), {}, p.mask, o.precision);
    ASSERT_TRUE(fm) << what;
    EXPECT_TRUE(m.trace.CountersAt(m.trace.size() - 1) == fm->counters) << what;
    EXPECT_EQ(m.counters.Reads(Tensor::kP), 2 * n_q * n_k) << what;
  }
}

TEST(BackwardTrace, CausalTilesAreSkippedAndCounted) {
  std::mt19937 g(5);
  const auto p = Random(g, 8, 8, 2, 2, Mask::Causal());
  RunOptions o;
  o.tiles = {4, 4};
  o.record_trace = true;
  const auto b = RunBackwardRecompute(p, RunFlash2(p, o), AttentionMatrix::Ones(8, 2), o);
  int grads = 0, skips = 0;
  for (const auto& e : b.trace.events()) {
    grads += e.kind == EventKind::kComputeGrads;
    skips += e.kind == EventKind::kSkipTile;
  }
  EXPECT_EQ(grads, 3);   // (1,1), (2,1), (2,2)
  EXPECT_EQ(skips, 1);   // (1,2) above the diagonal
  const auto f = FormulaFor(Algorithm::kBackwardRecompute, AttentionShape::Of(p), o.tiles, p.mask, o.precision);
  ASSERT_TRUE(f);
  EXPECT_TRUE(b.counters == f->counters);
}

}  // namespace
}  // namespace bw::engine
