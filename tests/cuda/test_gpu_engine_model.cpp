// test_gpu_engine_model.cpp — runs without a GPU: the traffic model the CUDA kernels count
// (PredictCounters, whose equality with the GPU's own tallies test_cuda_attention checks on the H200)
// equals the CPU engine's counters — RunReference for the materialising path, RunFlash2 for the tiled
// kernels — on random shapes with tails, odd d, every mask kind and both causal alignments.
#include "cuda/engine_adapter.h"

#include <gtest/gtest.h>

#include <random>

namespace bw::cuda {
namespace {

engine::AttentionProblem RandomEngineProblem(std::mt19937& rng, int n_q, int n_k, int d, int d_v, int mask_case) {
  std::uniform_real_distribution<double> u(-1, 1);
  engine::AttentionProblem p;
  p.Q = engine::AttentionMatrix::NullaryExpr(n_q, d, [&] { return u(rng); });
  p.K = engine::AttentionMatrix::NullaryExpr(n_k, d, [&] { return u(rng); });
  p.V = engine::AttentionMatrix::NullaryExpr(n_k, d_v, [&] { return u(rng); });
  std::bernoulli_distribution keep(0.5);
  switch (mask_case) {
    case 0: p.mask = engine::Mask::None(); break;
    case 1: p.mask = engine::Mask::Causal(engine::CausalAlignment::kTopLeft); break;
    case 2: p.mask = engine::Mask::Causal(engine::CausalAlignment::kBottomRight); break;
    case 3: {
      std::vector<std::uint8_t> kk(n_k);
      for (auto& x : kk) x = keep(rng);
      p.mask = engine::Mask::KeyPadding(kk);
      break;
    }
    default: {
      engine::AttentionMaskMatrix m(n_q, n_k);
      for (int r = 0; r < n_q; ++r)
        for (int c = 0; c < n_k; ++c) m(r, c) = (r % 4 == 0) ? 0 : keep(rng);  // some fully masked rows
      p.mask = engine::Mask::Explicit(m);
    }
  }
  return p;
}

TEST(GpuEngineModel, TiledCountersEqualEngineFlash2) {
  std::mt19937 rng(17);
  std::uniform_int_distribution<int> n(1, 150), dd(1, 9), tile(1, 70);
  // What the random cases reached, so the comparison below is not vacuous for any of them.
  int with_masked_rows = 0, q_tails = 0, k_tails = 0, odd_d = 0;
  for (int it = 0; it < 300; ++it) {
    const int n_q = n(rng), n_k = n(rng), d = (it % 3 == 0) ? 2 * dd(rng) - 1 : dd(rng), d_v = dd(rng);
    const engine::AttentionProblem ep = RandomEngineProblem(rng, n_q, n_k, d, d_v, it % 5);
    engine::RunOptions opt;
    opt.tiles = {std::min(64, tile(rng)), tile(rng)};
    opt.precision = engine::Precision::kFloat;
    const engine::AttentionResult er = engine::RunFlash2(ep, opt);
    const Problem p = FromEngine(ep);
    const Counters mine = PredictCounters(p, Algorithm::TiledFp32, FromEngine(opt.tiles));
    const std::string diff = CompareTraffic(ToEngine(mine, Algorithm::TiledFp32), er.counters);
    EXPECT_EQ(diff, "") << "N_q=" << n_q << " N_k=" << n_k << " d=" << d << " d_v=" << d_v << " mask case " << it % 5
                        << " B_r=" << opt.tiles.B_r << " B_c=" << opt.tiles.B_c;
    // fully masked rows: the engine's flags and the model's count agree
    long long flagged = 0;
    for (auto f : er.row_fully_masked) flagged += f;
    EXPECT_EQ(flagged, mine.rows_fully_masked);
    with_masked_rows += flagged > 0;
    q_tails += n_q % opt.tiles.B_r != 0;
    k_tails += n_k % opt.tiles.B_c != 0;
    odd_d += d % 2;
  }
  EXPECT_GE(with_masked_rows, 60);  // every explicit-mask case (1 in 5) masks its row 0 whole
  EXPECT_GE(q_tails, 150);
  EXPECT_GE(k_tails, 150);
  EXPECT_GE(odd_d, 100);
}

TEST(GpuEngineModel, MaterialisingCountersEqualEngineReference) {
  std::mt19937 rng(23);
  for (int it = 0; it < 50; ++it) {
    const engine::AttentionProblem ep = RandomEngineProblem(rng, 1 + it * 3, 1 + (it * 7) % 90, 1 + it % 5, 1 + it % 3, it % 5);
    engine::RunOptions opt;
    opt.precision = engine::Precision::kFloat;
    const engine::AttentionResult er = engine::RunReference(ep, opt);
    const Counters mine = PredictCounters(FromEngine(ep), Algorithm::Materialising, Tiling{});
    EXPECT_EQ(CompareTraffic(ToEngine(mine, Algorithm::Materialising), er.counters), "") << "case " << it;
  }
}

TEST(GpuEngineModel, MaskAndScaleCarryOver) {
  std::mt19937 rng(5);
  engine::AttentionProblem ep = RandomEngineProblem(rng, 6, 9, 3, 2, 2);
  ep.scale = 0.25;
  const Problem p = FromEngine(ep);
  EXPECT_EQ(p.mask.kind, MaskKind::CausalBottomRight);
  EXPECT_FLOAT_EQ(p.scale, 0.25f);
  EXPECT_EQ(p.q.size(), 18u);
  EXPECT_FLOAT_EQ(p.k[1 * 3 + 2], static_cast<float>(ep.K(1, 2)));
}

}  // namespace
}  // namespace bw::cuda
