// Counters equal the analytic formulas exactly, as integers: N ∈ {64, 1024}, d ∈ {64, 128},
// several B_r, B_c (dividing N and not), FA-2 and FA-1 orders and both backward paths, causal
// (both alignments) and not; plus N_q ≠ N_k shapes and the reference's 4Nd + 4N².
#include <gtest/gtest.h>

#include <random>

#include "engine/attention.h"
#include "engine/attention_formulas.h"

namespace bw::engine {
namespace {

AttentionProblem RandomProblem(std::int64_t n_q, std::int64_t n_k, std::int64_t d, std::int64_t d_v, Mask mask) {
  AttentionProblem p;
  p.Q = AttentionMatrix::Random(n_q, d);
  p.K = AttentionMatrix::Random(n_k, d);
  p.V = AttentionMatrix::Random(n_k, d_v);
  p.mask = std::move(mask);
  return p;
}

void ExpectCountersEqualFormula(const Counters& got, Algorithm a, const AttentionProblem& p, TileSizes t,
                                Precision prec, const std::string& what) {
  const auto f = FormulaFor(a, AttentionShape::Of(p), t, p.mask, prec);
  ASSERT_TRUE(f.has_value()) << what;
  const Counters& want = f->counters;
  for (int k = 0; k < kTensorCount; ++k) {
    EXPECT_EQ(got.hbm_read_elements[k], want.hbm_read_elements[k]) << what << " reads of " << ToString(Tensor(k));
    EXPECT_EQ(got.hbm_write_elements[k], want.hbm_write_elements[k]) << what << " writes of " << ToString(Tensor(k));
  }
  EXPECT_EQ(got.matmul_flops, want.matmul_flops) << what;
  EXPECT_EQ(got.exp_count, want.exp_count) << what;
  EXPECT_EQ(got.tiles_computed, want.tiles_computed) << what;
  EXPECT_EQ(got.tiles_skipped, want.tiles_skipped) << what;
  EXPECT_EQ(got.sram_peak_bytes, want.sram_peak_bytes) << what;
  EXPECT_EQ(got.hbm_scratch_bytes, want.hbm_scratch_bytes) << what;
  EXPECT_EQ(got.element_bytes, want.element_bytes) << what;
  EXPECT_TRUE(got == want) << what;
}

TEST(AttentionCounters, ReferenceIs4Nd4N2) {
  for (std::int64_t n : {64, 1024}) {
    for (std::int64_t d : {64, 128}) {
      const auto p = RandomProblem(n, n, d, d, Mask::None());
      const auto r = RunReference(p);
      EXPECT_EQ(r.counters.TotalHbmElements(), 4 * n * d + 4 * n * n);
      EXPECT_EQ(r.counters.matmul_flops, 4 * n * n * d);  // the 4·N²·d convention
      ExpectCountersEqualFormula(r.counters, Algorithm::kReference, p, {}, Precision::kDouble, "reference");
      const auto rc = RunReference(RandomProblem(n, n, d, d, Mask::Causal()));
      EXPECT_EQ(rc.counters.TotalHbmElements(), 4 * n * d + 4 * n * n);  // Algorithm 0 writes all of S
    }
  }
}

TEST(AttentionCounters, TiledOrdersEqualFormulas) {
  const std::vector<TileSizes> tiles = {{16, 16}, {64, 64}, {32, 128}, {128, 32}, {48, 80}, {64, 100}};
  const std::vector<Mask> masks = {Mask::None(), Mask::Causal(CausalAlignment::kTopLeft),
                                   Mask::Causal(CausalAlignment::kBottomRight)};
  int runs = 0;
  for (std::int64_t n : {64, 1024}) {
    for (std::int64_t d : {64, 128}) {
      for (const Mask& mask : masks) {
        const auto p = RandomProblem(n, n, d, d, mask);
        for (const TileSizes t : tiles) {
          RunOptions o;
          o.tiles = t;
          // Double for N = 64, float for N = 1024 (counters are the same integers, bytes 8 vs 4).
          o.precision = n == 64 ? Precision::kDouble : Precision::kFloat;
          const std::string what = "N=" + std::to_string(n) + " d=" + std::to_string(d) + " mask=" +
                                   ToString(mask.kind) + "/" + ToString(mask.alignment) + " B_r=" +
                                   std::to_string(t.B_r) + " B_c=" + std::to_string(t.B_c);
          const auto f2 = RunFlash2(p, o);
          ExpectCountersEqualFormula(f2.counters, Algorithm::kFlash2, p, t, o.precision, "flash2 " + what);
          const auto f1 = RunFlash1(p, o);
          ExpectCountersEqualFormula(f1.counters, Algorithm::kFlash1, p, t, o.precision, "flash1 " + what);
          runs += 2;
          if (mask.kind == MaskKind::kNone) {
            // FA-2: Q once, K and V once per Q block: N·d + 2·T_r·N·d + N·d (O) + N (L)
            const std::int64_t T_r = CeilDiv(n, t.B_r);
            EXPECT_EQ(f2.counters.TotalHbmElements(), 2 * n * d + 2 * T_r * n * d + n) << what;
            EXPECT_EQ(f2.counters.matmul_flops, 4 * n * n * d);
            EXPECT_EQ(f2.counters.tiles_skipped, 0);
          } else if (t.B_r == t.B_c && n % t.B_r == 0) {
            // Square causal with B_r = B_c = B: T(T+1)/2 tiles computed, T(T−1)/2 skipped.
            const std::int64_t T = n / t.B_r;
            EXPECT_EQ(f2.counters.tiles_computed, T * (T + 1) / 2) << what;
            EXPECT_EQ(f2.counters.tiles_skipped, T * (T - 1) / 2) << what;
            EXPECT_EQ(f2.counters.matmul_flops, 4 * d * t.B_r * t.B_c * T * (T + 1) / 2) << what;
            if (T >= 8) {
              EXPECT_LT(f2.counters.matmul_flops, 4 * n * n * d * 6 / 10) << what;  // about half
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(runs, 2 * 2 * 3 * 6 * 2);
}

TEST(AttentionCounters, UnequalLengthsEqualFormulas) {
  const std::vector<std::array<std::int64_t, 4>> shapes = {{64, 1024, 64, 64}, {1024, 64, 64, 128}, {100, 37, 8, 5}, {1, 64, 64, 64}};
  for (const auto& [n_q, n_k, d, d_v] : shapes) {
    for (const Mask& mask : {Mask::None(), Mask::Causal(CausalAlignment::kTopLeft), Mask::Causal(CausalAlignment::kBottomRight)}) {
      const auto p = RandomProblem(n_q, n_k, d, d_v, mask);
      for (const TileSizes t : {TileSizes{16, 16}, TileSizes{7, 33}}) {
        RunOptions o;
        o.tiles = t;
        const std::string what = std::to_string(n_q) + "x" + std::to_string(n_k) + " " + ToString(mask.kind) + "/" +
                                 ToString(mask.alignment) + " " + std::to_string(t.B_r) + "x" + std::to_string(t.B_c);
        ExpectCountersEqualFormula(RunFlash2(p, o).counters, Algorithm::kFlash2, p, t, o.precision, "flash2 " + what);
        ExpectCountersEqualFormula(RunFlash1(p, o).counters, Algorithm::kFlash1, p, t, o.precision, "flash1 " + what);
        ExpectCountersEqualFormula(RunReference(p, o).counters, Algorithm::kReference, p, t, o.precision, "ref " + what);
      }
    }
  }
}

TEST(AttentionCounters, BackwardEqualsFormulas) {
  for (std::int64_t n : {64, 1024}) {
    for (std::int64_t d : {64, 128}) {
      for (const Mask& mask : {Mask::None(), Mask::Causal()}) {
        const auto p = RandomProblem(n, n, d, d, mask);
        const AttentionMatrix dO = AttentionMatrix::Random(n, d);
        for (const TileSizes t : {TileSizes{64, 64}, TileSizes{32, 128}, TileSizes{48, 80}}) {
          RunOptions o;
          o.tiles = t;
          o.precision = Precision::kFloat;
          const std::string what = "N=" + std::to_string(n) + " d=" + std::to_string(d) + " " + ToString(mask.kind) +
                                   " " + std::to_string(t.B_r) + "x" + std::to_string(t.B_c);
          const auto fwd = RunFlash2(p, o);
          const auto rec = RunBackwardRecompute(p, fwd, dO, o);
          ExpectCountersEqualFormula(rec.counters, Algorithm::kBackwardRecompute, p, t, o.precision, "bwd " + what);
          if (mask.kind == MaskKind::kNone) {
            EXPECT_EQ(rec.counters.matmul_flops, 2 * n * n * (3 * d + 2 * d)) << what;  // 10 N²d
          }
        }
        if (n == 64) {
          const auto ref = RunBackwardReference(p, dO);
          ExpectCountersEqualFormula(ref.counters, Algorithm::kBackwardReference, p, {}, Precision::kDouble, "bwd ref");
          EXPECT_EQ(ref.counters.hbm_scratch_bytes, 3 * n * n * 8);
        }
      }
    }
  }
}

TEST(AttentionCounters, BytesAreElementsTimesElementSize) {
  const auto p = RandomProblem(64, 64, 64, 64, Mask::None());
  RunOptions o;
  o.tiles = {16, 16};
  o.precision = Precision::kFloat;
  const auto f = RunFlash2(p, o);
  EXPECT_EQ(f.counters.element_bytes, 4);
  EXPECT_EQ(f.counters.ReadBytes(Tensor::kK), 4 * f.counters.Reads(Tensor::kK));
  EXPECT_EQ(f.counters.TotalHbmBytes(), 4 * f.counters.TotalHbmElements());
  const auto formula = FormulaFor(Algorithm::kFlash2, AttentionShape::Of(p), o.tiles, p.mask, o.precision);
  ASSERT_TRUE(formula);
  EXPECT_NE(formula->read_formula[static_cast<int>(Tensor::kK)].find("T_r*N_k*d"), std::string::npos);
  EXPECT_FALSE(FormulaFor(Algorithm::kFlash2, AttentionShape::Of(p), o.tiles, Mask::KeyPadding(std::vector<std::uint8_t>(64, 1)),
                          o.precision));
}

// Given logits (AttentionProblem::FromLogits, encoded Q = S, K = I) are S already in HBM: every path
// counts S reads and no Q or K traffic, no Q Kᵀ FLOPs; the outputs equal those of the same numbers
// given as Q and K (the encoding is exact), and the counters still equal the formulas.
TEST(AttentionCounters, GivenLogitsCountNoQKTraffic) {
  std::mt19937 rng(11);
  for (const std::int64_t n_q : {1, 5, 8}) {
    for (const std::int64_t n_k : {3, 8, 13}) {
      for (const Mask& mask : {Mask::None(), Mask::Causal(), Mask::Causal(CausalAlignment::kBottomRight)}) {
        const AttentionMatrix S = AttentionMatrix::Random(n_q, n_k) * 3.0;
        const AttentionMatrix V = AttentionMatrix::Random(n_k, 2);
        const AttentionProblem lg = AttentionProblem::FromLogits(S, V, mask);
        AttentionProblem same = lg;   // the same numbers, counted as a Q, K problem
        same.logits_given = false;
        const std::string what = "N_q " + std::to_string(n_q) + ", N_k " + std::to_string(n_k) + ", mask " + ToString(mask.kind);
        for (const Precision prec : {Precision::kDouble, Precision::kFloat}) {
          RunOptions o;
          o.precision = prec;
          o.record_trace = true;
          o.tiles = {std::uniform_int_distribution<std::int64_t>(1, 4)(rng), std::uniform_int_distribution<std::int64_t>(1, 5)(rng)};
          const auto ref = RunReference(lg, o);
          const auto f2 = RunFlash2(lg, o);
          const auto f1 = RunFlash1(lg, o);
          ExpectCountersEqualFormula(ref.counters, Algorithm::kReference, lg, o.tiles, prec, what + " reference");
          ExpectCountersEqualFormula(f2.counters, Algorithm::kFlash2, lg, o.tiles, prec, what + " flash2");
          ExpectCountersEqualFormula(f1.counters, Algorithm::kFlash1, lg, o.tiles, prec, what + " flash1");
          for (const auto* r : {&ref, &f2, &f1}) {
            EXPECT_EQ(r->counters.Reads(Tensor::kQ), 0) << what;
            EXPECT_EQ(r->counters.Reads(Tensor::kK), 0) << what;
            EXPECT_EQ(r->counters.hbm_write_elements[static_cast<int>(Tensor::kS)], 0) << what;
            EXPECT_TRUE(r->trace.logits_given) << what;
            for (const auto& ev : r->trace.events()) EXPECT_TRUE(ev.tensor != Tensor::kQ && ev.tensor != Tensor::kK) << what;
          }
          EXPECT_EQ(ref.counters.Reads(Tensor::kS), n_q * n_k) << what;
          EXPECT_EQ(ref.counters.hbm_scratch_bytes, n_q * n_k * ElementBytes(prec)) << what;   // P only
          EXPECT_EQ(ref.counters.matmul_flops, 2 * n_q * n_k * 2) << what;                     // P V only
          // FA-2 and FA-1 read each computed tile of S once: all of S when nothing is masked.
          if (mask.kind == MaskKind::kNone) {
            EXPECT_EQ(f2.counters.Reads(Tensor::kS), n_q * n_k) << what;
            EXPECT_EQ(f1.counters.Reads(Tensor::kS), n_q * n_k) << what;
          }
          EXPECT_EQ(f2.counters.Reads(Tensor::kS), f1.counters.Reads(Tensor::kS)) << what;
          // Same numbers as the Q, K encoding, bit for bit (same arithmetic, only the counting differs).
          const auto f2_same = RunFlash2(same, o);
          EXPECT_TRUE(f2.O.cwiseEqual(f2_same.O).all()) << what;
          EXPECT_GT(f2_same.counters.Reads(Tensor::kK), 0) << what;
          EXPECT_EQ(f2_same.counters.Reads(Tensor::kS), 0) << what;
        }
      }
    }
  }
}

TEST(AttentionCounters, BackwardRefusesGivenLogits) {
  const auto p = AttentionProblem::FromLogits(AttentionMatrix::Random(2, 3), AttentionMatrix::Random(3, 1));
  RunOptions o;
  o.tiles = {1, 2};
  const AttentionMatrix dO = AttentionMatrix::Ones(2, 1);
  EXPECT_THROW(RunBackwardReference(p, dO, o), ValidationError);
  EXPECT_THROW(RunBackwardRecompute(p, RunFlash2(p, o), dO, o), ValidationError);
  EXPECT_FALSE(FormulaFor(Algorithm::kBackwardRecompute, AttentionShape::Of(p), o.tiles, p.mask, o.precision));
}

}  // namespace
}  // namespace bw::engine
