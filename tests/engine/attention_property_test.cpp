// Property tests: both tiled orders against the reference on 10,000 random cases (N_q, N_k in
// 0…65 including 0 and 1; d, d_v in 1…9; B_r, B_c in 1…17; every mask kind and both causal
// alignments): double within 1e-12 relative, float within 1e-5, the same rows flagged. Backward
// with recomputation against the materialising backward, and both against finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/attention.h"

namespace bw::engine {
namespace {

struct Case {
  AttentionProblem p;
  TileSizes tiles;
  std::string label;
};

Case RandomCase(std::mt19937_64& rng, int index) {
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto pick_n = [&] {
    const int k = uni(0, 9);
    return k == 0 ? 0 : k == 1 ? 1 : uni(0, 65);
  };
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  Case c;
  const int n_q = pick_n(), n_k = pick_n(), d = uni(1, 9), d_v = uni(1, 9);
  c.tiles = {uni(1, 17), uni(1, 17)};
  auto fill = [&](AttentionMatrix& m, Eigen::Index r, Eigen::Index cols, double amp) {
    m.resize(r, cols);
    for (Eigen::Index a = 0; a < r; ++a)
      for (Eigen::Index b = 0; b < cols; ++b) m(a, b) = amp * val(rng);
  };
  const double amp = uni(0, 3) == 0 ? 4.0 : 1.5;  // sometimes large logits: real rescaling
  fill(c.p.Q, n_q, d, amp);
  fill(c.p.K, n_k, d, amp);
  fill(c.p.V, n_k, d_v, 1.0);
  if (uni(0, 4) == 0) c.p.scale = 0.5 + val(rng);
  switch (index % 5) {
    case 0: c.p.mask = Mask::None(); break;
    case 1: c.p.mask = Mask::Causal(CausalAlignment::kTopLeft); break;
    case 2: c.p.mask = Mask::Causal(CausalAlignment::kBottomRight); break;
    case 3: {
      std::vector<std::uint8_t> keep(static_cast<std::size_t>(n_k));
      const int density = uni(0, 4);  // 0: all masked … 4: all kept
      for (auto& k : keep) k = uni(0, 3) < density ? 1 : 0;
      c.p.mask = Mask::KeyPadding(std::move(keep));
      break;
    }
    case 4: {
      AttentionMaskMatrix keep(n_q, n_k);
      const int density = uni(0, 4);
      for (Eigen::Index a = 0; a < n_q; ++a)
        for (Eigen::Index b = 0; b < n_k; ++b) keep(a, b) = uni(0, 3) < density ? 1 : 0;
      c.p.mask = Mask::Explicit(std::move(keep));
      break;
    }
  }
  c.label = "case " + std::to_string(index) + ": N_q=" + std::to_string(n_q) + " N_k=" + std::to_string(n_k) +
            " d=" + std::to_string(d) + " d_v=" + std::to_string(d_v) + " B_r=" + std::to_string(c.tiles.B_r) +
            " B_c=" + std::to_string(c.tiles.B_c) + " mask=" + ToString(c.p.mask.kind) + "/" +
            ToString(c.p.mask.alignment);
  return c;
}

void ExpectClose(const AttentionResult& got, const AttentionResult& ref, double tol, const std::string& what) {
  // |a − b| ≤ tol·(1 + |b|): relative for large outputs, absolute near 0 (|O| ≤ max|V| ≤ 1 here).
  const auto rep = Compare(got.O, ref.O, tol, tol);
  ASSERT_TRUE(rep.ok()) << what << ": " << rep.Summary();
  ASSERT_EQ(got.row_fully_masked, ref.row_fully_masked) << what;
  for (Eigen::Index r = 0; r < ref.L.size(); ++r) {
    if (ref.row_fully_masked[r]) {
      ASSERT_TRUE(std::isinf(got.L[r]) && got.L[r] < 0) << what;
    } else {
      ASSERT_NEAR(got.L[r], ref.L[r], tol * (1 + std::abs(ref.L[r]))) << what << " L row " << r;
    }
  }
}

TEST(AttentionProperty, TiledOrdersMatchReferenceOn10000RandomCases) {
  std::mt19937_64 rng(20260303);
  int with_skips = 0, flagged = 0, n_zero = 0, n_one = 0;
  for (int k = 0; k < 10000; ++k) {
    const Case c = RandomCase(rng, k);
    RunOptions o;
    o.tiles = c.tiles;
    const AttentionResult ref = RunReference(c.p, o);
    const AttentionResult f2 = RunFlash2(c.p, o);
    const AttentionResult f1 = RunFlash1(c.p, o);
    ExpectClose(f2, ref, 1e-12, "flash2 double, " + c.label);
    ExpectClose(f1, ref, 1e-12, "flash1 double, " + c.label);
    o.precision = Precision::kFloat;
    ExpectClose(RunFlash2(c.p, o), ref, 1e-5, "flash2 float, " + c.label);
    ExpectClose(RunFlash1(c.p, o), ref, 1e-5, "flash1 float, " + c.label);
    ASSERT_EQ(f2.counters.tiles_computed, f1.counters.tiles_computed) << c.label;
    ASSERT_EQ(f2.counters.tiles_computed + f2.counters.tiles_skipped,
              CeilDiv(c.p.n_q(), c.tiles.B_r) * CeilDiv(c.p.n_k(), c.tiles.B_c));
    with_skips += f2.counters.tiles_skipped > 0;
    for (auto f : ref.row_fully_masked) flagged += f;
    n_zero += c.p.n_q() == 0 || c.p.n_k() == 0;
    n_one += c.p.n_q() == 1 || c.p.n_k() == 1;
  }
  // The generator really covers the corners.
  EXPECT_GT(with_skips, 1000);
  EXPECT_GT(flagged, 1000);
  EXPECT_GT(n_zero, 500);
  EXPECT_GT(n_one, 500);
}

TEST(AttentionProperty, BackwardRecomputeMatchesMaterialisingBackward) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  for (int k = 0; k < 2000; ++k) {
    const Case c = RandomCase(rng, k);
    AttentionMatrix dO(c.p.n_q(), c.p.d_v());
    for (Eigen::Index i = 0; i < dO.size(); ++i) dO.data()[i] = val(rng);
    RunOptions o;
    o.tiles = c.tiles;
    const auto ref = RunBackwardReference(c.p, dO, o);
    const auto fwd = RunFlash2(c.p, o);
    const auto rec = RunBackwardRecompute(c.p, fwd, dO, o);
    for (auto [got, want, name] : {std::tuple{&rec.dQ, &ref.dQ, "dQ"}, std::tuple{&rec.dK, &ref.dK, "dK"},
                                   std::tuple{&rec.dV, &ref.dV, "dV"}}) {
      const auto rep = Compare(*got, *want, 1e-11, 1e-11);
      ASSERT_TRUE(rep.ok()) << name << " " << c.label << ": " << rep.Summary();
    }
    if (k % 4 == 0) {  // float recompute against the double reference
      RunOptions of = o;
      of.precision = Precision::kFloat;
      const auto recf = RunBackwardRecompute(c.p, RunFlash2(c.p, of), dO, of);
      for (auto [got, want, name] : {std::tuple{&recf.dQ, &ref.dQ, "dQ"}, std::tuple{&recf.dK, &ref.dK, "dK"},
                                     std::tuple{&recf.dV, &ref.dV, "dV"}}) {
        const auto rep = Compare(*got, *want, 2e-4, 2e-4);
        ASSERT_TRUE(rep.ok()) << "float " << name << " " << c.label << ": " << rep.Summary();
      }
    }
  }
}

// loss = Σ O ∘ dO; central differences with h = 1e-6 on every entry of Q, K, V.
TEST(AttentionProperty, BackwardMatchesFiniteDifferences) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  int checked = 0;
  for (int k = 0; k < 5000 && checked < 60; ++k) {
    Case c = RandomCase(rng, k);
    if (c.p.n_q() == 0 || c.p.n_k() == 0 || c.p.n_q() > 12 || c.p.n_k() > 12) continue;
    ++checked;
    AttentionMatrix dO(c.p.n_q(), c.p.d_v());
    for (Eigen::Index i = 0; i < dO.size(); ++i) dO.data()[i] = val(rng);
    auto loss = [&](const AttentionProblem& p) { return RunReference(p).O.cwiseProduct(dO).sum(); };
    RunOptions o;
    o.tiles = c.tiles;
    const auto rec = RunBackwardRecompute(c.p, RunFlash2(c.p, o), dO, o);
    const auto ref = RunBackwardReference(c.p, dO, o);
    const double h = 1e-6;
    auto check = [&](AttentionMatrix AttentionProblem::*field, const AttentionMatrix& g1, const AttentionMatrix& g2,
                     const char* name) {
      AttentionProblem q = c.p;
      for (Eigen::Index i = 0; i < (c.p.*field).size(); ++i) {
        const double x = (c.p.*field).data()[i];
        (q.*field).data()[i] = x + h;
        const double up = loss(q);
        (q.*field).data()[i] = x - h;
        const double down = loss(q);
        (q.*field).data()[i] = x;
        const double fd = (up - down) / (2 * h);
        ASSERT_NEAR(g1.data()[i], fd, 1e-6 * (1 + std::abs(fd))) << name << " recompute " << c.label;
        ASSERT_NEAR(g2.data()[i], fd, 1e-6 * (1 + std::abs(fd))) << name << " reference " << c.label;
      }
    };
    check(&AttentionProblem::Q, rec.dQ, ref.dQ, "dQ");
    check(&AttentionProblem::K, rec.dK, ref.dK, "dK");
    check(&AttentionProblem::V, rec.dV, ref.dV, "dV");
  }
  EXPECT_GE(checked, 40);
}

}  // namespace
}  // namespace bw::engine
