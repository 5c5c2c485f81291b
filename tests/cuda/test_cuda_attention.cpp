// test_cuda_attention.cpp — GPU tests (ctest label `cuda`): every kernel against the double
// reference on random cases (tails, odd d = 1, 3, 5, every mask kind, both causal alignments),
// counters against the traffic model, tile records against the counters, and the live GpuRun.
// fp32 within 1e-5 relative, bf16/fp16 within 2e-2. Without a GPU every test reports skipped.
#include "cpu_reference.h"
#include "cuda/attention_cuda.h"
#include "cuda/gpu_run.h"

#include <gtest/gtest.h>

#include "require_gpu.h"

#include <chrono>
#include <cstring>
#include <cstdlib>
#include <cmath>
#include <thread>

namespace bw::cuda::test {
namespace {

struct Case { int n_q, n_k, d, d_v; MaskKind mask; };

std::vector<Case> Cases() {
  const MaskKind kinds[] = {MaskKind::None, MaskKind::CausalTopLeft, MaskKind::CausalBottomRight, MaskKind::KeyPadding,
                            MaskKind::Explicit};
  const int shapes[][4] = {{1, 1, 1, 1},    {7, 13, 3, 5},   {64, 64, 64, 64}, {100, 37, 5, 3},   {37, 100, 16, 16},
                           {129, 130, 32, 32}, {200, 77, 64, 64}, {65, 300, 128, 128}, {3, 200, 1, 7}, {150, 150, 96, 40}};
  // BW_CUDA_TEST_SUBSET=1 (used under compute-sanitizer, which slows kernels ~100x): every third case
  const bool subset = std::getenv("BW_CUDA_TEST_SUBSET") != nullptr;
  std::vector<Case> out;
  int n = 0;
  for (auto& s : shapes)
    for (MaskKind k : kinds)
      if (!subset || n++ % 3 == 0) out.push_back({s[0], s[1], s[2], s[3], k});
  return out;
}

std::string Name(const Case& c) {
  return std::to_string(c.n_q) + "x" + std::to_string(c.n_k) + " d=" + std::to_string(c.d) + " d_v=" + std::to_string(c.d_v) +
         " mask=" + MaskKindName(c.mask);
}

// ||o - ref|| / ||ref|| and max|o - ref| / max|ref|; masked rows must be exactly 0 and flagged.
void ExpectClose(const Problem& p, const Output& out, const RefOut& ref, double tol, const std::string& what) {
  ASSERT_EQ(out.o.size(), ref.o.size()) << what;
  double num = 0, den = 0, maxerr = 0, maxref = 0;
  for (size_t e = 0; e < ref.o.size(); ++e) {
    ASSERT_TRUE(std::isfinite(out.o[e])) << what << " element " << e << " not written or NaN";
    const double diff = out.o[e] - ref.o[e];
    num += diff * diff;
    den += ref.o[e] * ref.o[e];
    maxerr = std::max(maxerr, std::abs(diff));
    maxref = std::max(maxref, std::abs(ref.o[e]));
  }
  if (den > 0) {
    EXPECT_LE(std::sqrt(num / den), tol) << what;
    EXPECT_LE(maxerr / maxref, 4 * tol) << what;
  }
  for (size_t r = 0; r < ref.row_masked.size(); ++r) {
    ASSERT_EQ(out.row_masked[r], ref.row_masked[r]) << what << " row " << r;
    if (ref.row_masked[r]) {
      EXPECT_TRUE(std::isinf(out.lse[r]) && out.lse[r] < 0) << what << " row " << r;
      for (int c = 0; c < p.d_v; ++c) EXPECT_EQ(out.o[r * p.d_v + c], 0.f) << what << " row " << r;
    } else {
      EXPECT_NEAR(out.lse[r], ref.lse[r], tol * std::max(1.0, std::abs(ref.lse[r]))) << what << " row " << r;
    }
  }
}

// Records: one per (head, i, j), all ready; their bytes add up to the counters; skip flags match.
void ExpectRecordsMatch(const Problem& p, const Output& out, const Tiling& t, int elem_bytes) {
  const auto cls = ClassifyTiles(p, t);
  const int t_r = (p.n_q + t.b_r - 1) / t.b_r, t_c = (p.n_k + t.b_c - 1) / t.b_c;
  ASSERT_EQ(out.run.tiles.size(), (size_t)p.heads * t_r * t_c);
  long long loaded = 0, written = 0;
  for (const TileRecord& r : out.run.tiles) {
    ASSERT_EQ(r.ready, RecordSeal(r));
    ASSERT_LT(r.q_tile, (unsigned)t_r);
    ASSERT_LT(r.kv_tile, (unsigned)t_c);
    EXPECT_LE(r.t_start_ns, r.t_end_ns);
    const int c = cls[(size_t)r.q_tile * t_c + r.kv_tile];
    EXPECT_EQ((r.flags & kTileSkipped) != 0, c == 0);
    EXPECT_EQ((r.flags & kTilePartial) != 0, c == 2);
    loaded += r.bytes_loaded;
    written += r.bytes_written;
  }
  const Counters& k = out.run.counters;
  EXPECT_EQ(loaded, k.q.read_bytes + k.k.read_bytes + k.v.read_bytes);
  EXPECT_EQ(written, k.o.write_bytes + k.l.write_bytes);
  (void)elem_bytes;
}

TEST(CudaAttention, MaterialisingMatchesReference) {
  REQUIRE_GPU();
  std::mt19937 rng(1234);
  for (const Case& c : Cases()) {
    const Problem p = RandomProblem(rng, c.n_q, c.n_k, c.d, c.d_v, c.mask);
    const Output out = RunMaterialising(p);
    ExpectClose(p, out, Reference(p), 1e-5, "materialising " + Name(c));
    Counters want = PredictCounters(p, Algorithm::Materialising, Tiling{});
    EXPECT_EQ(out.run.counters, want) << Name(c);
  }
}

TEST(CudaAttention, TiledFp32MatchesReferenceAndCounters) {
  REQUIRE_GPU();
  std::mt19937 rng(99);
  const Tiling tilings[] = {{64, 64}, {16, 32}, {7, 5}, {1, 1}, {64, 128}, {32, 16}};
  int n = 0;
  for (const Case& c : Cases())
    for (const Tiling& t : tilings) {
      if (t.b_r * t.b_c == 1 && c.n_q * c.n_k > 5000) continue;  // 1x1 tiles: small cases only
      const Problem p = RandomProblem(rng, c.n_q, c.n_k, c.d, c.d_v, c.mask);
      const std::string what = "tiled " + Name(c) + " B_r=" + std::to_string(t.b_r) + " B_c=" + std::to_string(t.b_c);
      const Output out = RunTiledFp32(p, t);
      ExpectClose(p, out, Reference(p), 1e-5, what);
      EXPECT_EQ(out.run.counters, PredictCounters(p, Algorithm::TiledFp32, t)) << what;
      ExpectRecordsMatch(p, out, t, 4);
      ++n;
    }
  EXPECT_GT(n, std::getenv("BW_CUDA_TEST_SUBSET") ? 80 : 250);
}

TEST(CudaAttention, TiledFp32SeveralHeadsAndLargeValues) {
  REQUIRE_GPU();
  std::mt19937 rng(7);
  for (MaskKind k : {MaskKind::None, MaskKind::CausalTopLeft, MaskKind::CausalBottomRight}) {
    Problem p = RandomProblem(rng, 300, 257, 64, 64, k, /*heads=*/3, /*amp=*/4.f);
    const Output out = RunTiledFp32(p, Tiling{64, 64});
    ExpectClose(p, out, Reference(p), 1e-5, std::string("heads=3 amp=4 ") + MaskKindName(k));
    EXPECT_EQ(out.run.counters, PredictCounters(p, Algorithm::TiledFp32, Tiling{64, 64}));
  }
}

TEST(CudaAttention, TensorCoreBf16AndFp16MatchReference) {
  REQUIRE_GPU();
  std::mt19937 rng(4321);
  for (bool bf16 : {true, false})
    for (const Case& c : Cases()) {
      if (std::max(c.d, c.d_v) > 128) continue;
      Problem p = RandomProblem(rng, c.n_q, c.n_k, c.d, c.d_v, c.mask);
      const Output out = RunTensorCore(p, bf16);
      const std::string what = std::string(bf16 ? "bf16 " : "fp16 ") + Name(c);
      ExpectClose(p, out, Reference(p), 2e-2, what);
      EXPECT_EQ(out.run.counters, PredictCounters(p, bf16 ? Algorithm::TensorCoreBf16 : Algorithm::TensorCoreFp16, Tiling{}))
          << what;
      ExpectRecordsMatch(p, out, TensorCoreTiling(p.mask.kind), 2);
    }
}

TEST(CudaAttention, TensorCoreLargerCausalBothAlignments) {
  REQUIRE_GPU();
  std::mt19937 rng(55);
  for (MaskKind k : {MaskKind::CausalTopLeft, MaskKind::CausalBottomRight})
    for (int d : {64, 128}) {
      Problem p = RandomProblem(rng, 700, 1100, d, d, k, 2);
      const Output out = RunTensorCore(p, true);
      ExpectClose(p, out, Reference(p), 2e-2, std::string("bf16 700x1100 ") + MaskKindName(k));
      EXPECT_EQ(out.run.counters, PredictCounters(p, Algorithm::TensorCoreBf16, Tiling{}));
    }
}

TEST(CudaAttention, FullyMaskedTilesAreSkippedAndCounted) {
  REQUIRE_GPU();
  std::mt19937 rng(3);
  // bottom-right with N_q > N_k: the first N_q - N_k rows see no key at all
  Problem p = RandomProblem(rng, 256, 64, 32, 32, MaskKind::CausalBottomRight);
  const Output out = RunTiledFp32(p, Tiling{32, 16});
  EXPECT_EQ(out.run.counters.rows_fully_masked, 256 - 64 + 0);  // rows 0..191 keep j <= i - 192 < 0
  EXPECT_GT(out.run.counters.tiles_skipped, 0);
  ExpectClose(p, out, Reference(p), 1e-5, "bottom-right 256x64");
}

TEST(CudaAttention, GpuRunStreamsRecordsWhileTheKernelRuns) {
  REQUIRE_GPU();
  for (RecordTransport tr : {RecordTransport::kDeviceCopy, RecordTransport::kMappedHost}) {
  SCOPED_TRACE(tr == RecordTransport::kDeviceCopy ? "device copy" : "mapped host");
  std::mt19937 rng(11);
  const Problem p = RandomProblem(rng, 256, 256, 64, 64, MaskKind::CausalTopLeft);
  GpuRun run;
  GpuRunOptions o;
  o.transport = tr;
  o.tiling = {64, 32};
  o.pace_ns = 2'000'000;  // 2 ms per tile: 8 K/V tiles per Q tile ≈ 16 ms in all
  run.Start(p, o);
  std::vector<TileRecord> seen;
  int polls_with_news_before_done = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!run.Done()) {
    auto news = run.Poll();
    if (!news.empty()) ++polls_with_news_before_done;
    seen.insert(seen.end(), news.begin(), news.end());
    ASSERT_LT(std::chrono::steady_clock::now(), deadline);
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  auto rest = run.Poll();
  seen.insert(seen.end(), rest.begin(), rest.end());
  EXPECT_EQ((int)seen.size(), run.TilesTotal());
  EXPECT_GE(polls_with_news_before_done, 3) << "records should arrive while the kernel is still running";
  const RunSummary& s = run.Totals();
  EXPECT_EQ(s.counters, PredictCounters(p, Algorithm::TiledFp32, o.tiling));
  EXPECT_EQ(s.tiles.size(), seen.size());
  EXPECT_GT(s.kernel_ms, 10.0);  // the pace held
  EXPECT_EQ(run.LiveMismatches(), 0);
  for (size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(std::memcmp(&seen[i], &s.tiles[i], sizeof(TileRecord)), 0) << i;
  ExpectClose(p, run.Result(), Reference(p), 1e-5, "GpuRun");
  }
}

TEST(CudaAttention, GpuRunAtFullSpeedPublishesEveryRecord) {
  REQUIRE_GPU();
  std::mt19937 rng(12);
  for (RecordTransport tr : {RecordTransport::kDeviceCopy, RecordTransport::kMappedHost})
  for (Algorithm a : {Algorithm::TiledFp32, Algorithm::TensorCoreBf16}) {
    SCOPED_TRACE(tr == RecordTransport::kDeviceCopy ? "device copy" : "mapped host");
    const Problem p = RandomProblem(rng, 1000, 1100, 64, 64, MaskKind::CausalBottomRight);
    GpuRun run;
    GpuRunOptions o;
    o.algorithm = a;
    o.transport = tr;
    run.Start(p, o);  // no pace: device copy checks each record's seal; mapped sets ready 8 records at a time
    std::vector<TileRecord> seen;
    while (!run.Done()) {
      auto news = run.Poll();
      seen.insert(seen.end(), news.begin(), news.end());
    }
    auto rest = run.Poll();
    seen.insert(seen.end(), rest.begin(), rest.end());
    ASSERT_EQ((int)seen.size(), run.TilesTotal()) << AlgorithmName(a);
    EXPECT_EQ(run.LiveMismatches(), 0) << AlgorithmName(a);
    for (const auto& r : seen) EXPECT_EQ(r.ready, RecordSeal(r));
    EXPECT_EQ(run.Totals().counters, PredictCounters(p, a, o.tiling)) << AlgorithmName(a);
    long long loaded = 0;
    for (const auto& r : seen) loaded += r.bytes_loaded;
    const Counters& c = run.Totals().counters;
    EXPECT_EQ(loaded, c.q.read_bytes + c.k.read_bytes + c.v.read_bytes);
    ExpectClose(p, run.Result(), Reference(p), a == Algorithm::TiledFp32 ? 1e-5 : 2e-2, AlgorithmName(a));
  }
}

TEST(CudaAttention, BadInputsThrow) {
  REQUIRE_GPU();
  Problem p;
  p.n_q = 4; p.n_k = 4; p.d = 4; p.d_v = 4;
  p.q.resize(16); p.k.resize(15); p.v.resize(16);
  EXPECT_THROW(RunTiledFp32(p, Tiling{4, 4}), std::invalid_argument);
  p.k.resize(16);
  EXPECT_THROW(RunTiledFp32(p, Tiling{65, 4}), std::runtime_error);
}

}  // namespace
}  // namespace bw::cuda::test

// ---------------------------------------------------------------------------------------------
// Against the CPU engine itself (src/engine/attention.h): outputs and counters, through the adapter.
#include "cuda/engine_adapter.h"

namespace bw::cuda::test {
namespace {

engine::AttentionProblem EngineProblem(std::mt19937& rng, int n_q, int n_k, int d, int d_v, int mask_case) {
  std::uniform_real_distribution<double> u(-1, 1);
  engine::AttentionProblem p;
  p.Q = engine::AttentionMatrix::NullaryExpr(n_q, d, [&] { return u(rng); });
  p.K = engine::AttentionMatrix::NullaryExpr(n_k, d, [&] { return u(rng); });
  p.V = engine::AttentionMatrix::NullaryExpr(n_k, d_v, [&] { return u(rng); });
  std::bernoulli_distribution keep(0.6);
  if (mask_case == 1) p.mask = engine::Mask::Causal(engine::CausalAlignment::kTopLeft);
  if (mask_case == 2) p.mask = engine::Mask::Causal(engine::CausalAlignment::kBottomRight);
  if (mask_case == 3) {
    std::vector<std::uint8_t> kk(n_k);
    for (auto& x : kk) x = keep(rng);
    p.mask = engine::Mask::KeyPadding(kk);
  }
  if (mask_case == 4) {
    engine::AttentionMaskMatrix m(n_q, n_k);
    for (int r = 0; r < n_q; ++r)
      for (int c = 0; c < n_k; ++c) m(r, c) = (r % 6 == 1) ? 0 : keep(rng);
    p.mask = engine::Mask::Explicit(m);
  }
  return p;
}

void ExpectCloseToEngine(const engine::AttentionResult& ref, const Output& out, double tol, const std::string& what) {
  double num = 0, den = 0;
  const int d_v = (int)ref.O.cols();
  for (Eigen::Index r = 0; r < ref.O.rows(); ++r) {
    ASSERT_EQ(out.row_masked[r], ref.row_fully_masked[r]) << what << " row " << r;
    for (int c = 0; c < d_v; ++c) {
      const double diff = out.o[(size_t)r * d_v + c] - ref.O(r, c);
      num += diff * diff;
      den += ref.O(r, c) * ref.O(r, c);
    }
  }
  if (den > 0) {
    EXPECT_LE(std::sqrt(num / den), tol) << what;
  }
}

TEST(CudaAttention, AgainstTheCpuEngine) {
  REQUIRE_GPU();
  std::mt19937 rng(2026);
  std::uniform_int_distribution<int> n(1, 200), tile(1, 64);
  const int odd_d[] = {1, 3, 5, 8, 16, 33, 64};
  const int cases = std::getenv("BW_CUDA_TEST_SUBSET") ? 20 : 70;
  for (int it = 0; it < cases; ++it) {
    const int n_q = n(rng), n_k = n(rng), d = odd_d[it % 7], d_v = odd_d[(it / 7) % 7];
    const engine::AttentionProblem ep = EngineProblem(rng, n_q, n_k, d, d_v, it % 5);
    engine::RunOptions opt;
    opt.tiles = {tile(rng), (it % 2) ? 64 : tile(rng)};
    opt.precision = engine::Precision::kFloat;
    const engine::AttentionResult ref = engine::RunReference(ep);  // double
    const engine::AttentionResult fa2 = engine::RunFlash2(ep, opt);
    const engine::AttentionResult ref_f = engine::RunReference(ep, opt);
    const Problem p = FromEngine(ep);
    const std::string what = "case " + std::to_string(it) + " " + std::to_string(n_q) + "x" + std::to_string(n_k) + " d=" +
                             std::to_string(d) + " d_v=" + std::to_string(d_v) + " mask " + std::to_string(it % 5) +
                             " B_r=" + std::to_string(opt.tiles.B_r) + " B_c=" + std::to_string(opt.tiles.B_c);
    const Output tiled = RunTiledFp32(p, FromEngine(opt.tiles));
    ExpectCloseToEngine(ref, tiled, 1e-5, "tiled " + what);
    EXPECT_EQ(CompareTraffic(ToEngine(tiled.run.counters, Algorithm::TiledFp32), fa2.counters), "") << what;
    const Output mat = RunMaterialising(p);
    ExpectCloseToEngine(ref, mat, 1e-5, "materialising " + what);
    EXPECT_EQ(CompareTraffic(ToEngine(mat.run.counters, Algorithm::Materialising), ref_f.counters), "") << what;
    if (d <= 128 && d_v <= 128) {
      const Output tc = RunTensorCore(p, true);
      ExpectCloseToEngine(ref, tc, 2e-2, "bf16 " + what);
      if (d == d_v && (d == 32 || d == 64)) {  // no head-dim padding: the same elements as the engine's FA-2 with the same tiles
        engine::RunOptions o64 = opt;
        const Tiling tct = TensorCoreTiling(p.mask.kind);
        o64.tiles = {tct.b_r, tct.b_c};
        EXPECT_EQ(CompareTraffic(ToEngine(tc.run.counters, Algorithm::TensorCoreBf16), engine::RunFlash2(ep, o64).counters), "") << what;
      }
    }
  }
}

}  // namespace
}  // namespace bw::cuda::test
