// test_cuda_hopper.cpp — GPU tests of the Hopper kernel (issue 33; ctest label `cuda`): O and L against
// the double reference (cpu_reference.h) within the bf16 tolerance the tensor-core kernel keeps (2e-2
// relative), for random shapes (odd N, tails, N_q != N_k, several heads), d padded to 64 or 128, every
// mask kind; counters equal to PredictHopperCounters; records that add up to the counters; a live GpuRun
// of the kernel (GpuKernel::kHopper). Skipped without an sm_90 GPU (H100, H200).
#include "cpu_reference.h"
#include "cuda/gpu_run.h"
#include "cuda/hopper_cuda.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <map>
#include <random>
#include <string>
#include <thread>

namespace bw::cuda::test {
namespace {

#define REQUIRE_HOPPER()                                \
  do {                                                  \
    std::string why;                                    \
    if (!HopperAvailable(&why)) GTEST_SKIP() << why;    \
  } while (0)

// ||o - ref|| / ||ref|| <= tol and max|o - ref| <= 4 tol max|ref|; L within tol (relative, at least
// absolute); fully masked rows exactly 0, L = -inf, flagged.
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
    if (maxerr > 4 * tol * maxref) {  // where: the first few elements off (head-major row, column)
      int shown = 0;
      for (size_t e = 0; e < ref.o.size() && shown < 6; ++e)
        if (std::abs(out.o[e] - ref.o[e]) > 4 * tol * maxref)
          ADD_FAILURE() << what << " row " << e / p.d_v << " col " << e % p.d_v << " got " << out.o[e] << " want " << ref.o[e]
                        << (shown++, "");
    }
  }
  int bad_l = 0;
  for (size_t r = 0; r < ref.row_masked.size(); ++r) {
    ASSERT_EQ(out.row_masked[r], ref.row_masked[r]) << what << " row " << r;
    if (ref.row_masked[r]) {
      EXPECT_TRUE(std::isinf(out.lse[r]) && out.lse[r] < 0) << what << " row " << r;
      for (int c = 0; c < p.d_v; ++c) ASSERT_EQ(out.o[r * p.d_v + c], 0.f) << what << " row " << r;
    } else if (!(std::abs(out.lse[r] - ref.lse[r]) <= tol * std::max(1.0, std::abs(ref.lse[r])))) {
      if (++bad_l <= 3) ADD_FAILURE() << what << " row " << r << " L " << out.lse[r] << " want " << ref.lse[r];
    }
  }
  EXPECT_EQ(bad_l, 0) << what;
}

void ExpectRecordsMatch(const Problem& p, const Output& out, const std::string& what) {
  const Tiling t = kHopperTiling;
  const auto cls = ClassifyTiles(p, t);
  const int t_r = (p.n_q + t.b_r - 1) / t.b_r, t_c = (p.n_k + t.b_c - 1) / t.b_c;
  ASSERT_EQ(out.run.tiles.size(), (size_t)p.heads * t_r * t_c) << what;
  long long loaded = 0, written = 0;
  std::vector<int> seen((size_t)p.heads * t_r * t_c, 0);
  for (const TileRecord& r : out.run.tiles) {
    ASSERT_EQ(r.ready, RecordSeal(r)) << what;
    ASSERT_LT(r.q_tile, (unsigned)t_r) << what;
    ASSERT_LT(r.kv_tile, (unsigned)t_c) << what;
    ASSERT_LT(r.head, (unsigned)p.heads) << what;
    EXPECT_LE(r.t_start_ns, r.t_end_ns) << what;
    ++seen[((size_t)r.head * t_r + r.q_tile) * t_c + r.kv_tile];
    const int c = cls[(size_t)r.q_tile * t_c + r.kv_tile];
    EXPECT_EQ((r.flags & kTileSkipped) != 0, c == 0) << what;
    EXPECT_EQ((r.flags & kTilePartial) != 0, c == 2) << what;
    loaded += r.bytes_loaded;
    written += r.bytes_written;
  }
  for (int s : seen) ASSERT_EQ(s, 1) << what << ": every (head, i, j) recorded once";
  const Counters& k = out.run.counters;
  EXPECT_EQ(loaded, k.q.read_bytes + k.k.read_bytes + k.v.read_bytes) << what;
  EXPECT_EQ(written, k.o.write_bytes + k.l.write_bytes) << what;
}

std::string Name(const Problem& p) {
  return std::to_string(p.heads) + "x" + std::to_string(p.n_q) + "x" + std::to_string(p.n_k) + " d=" + std::to_string(p.d) +
         " d_v=" + std::to_string(p.d_v) + " mask=" + MaskKindName(p.mask.kind);
}

void CheckOne(const Problem& p, bool records) {
  Options opt;
  opt.record_tiles = records;
  const Output out = RunHopper(p, opt);
  const std::string what = Name(p);
  ExpectClose(p, out, Reference(p), 2e-2, what);
  EXPECT_EQ(out.run.counters, PredictHopperCounters(p)) << what;
  if (records) ExpectRecordsMatch(p, out, what);
}

// Fixed shapes first: whole tiles, one tail, a single row, both head dims.
TEST(CudaHopper, FixedShapesMatchReference) {
  REQUIRE_HOPPER();
  std::mt19937 rng(33);
  const int shapes[][4] = {{128, 128, 64, 64}, {256, 384, 128, 128}, {1, 1, 64, 64},   {129, 257, 128, 128},
                           {300, 300, 64, 64}, {77, 500, 128, 128},  {640, 128, 64, 64}, {131, 131, 40, 100}};
  for (auto& s : shapes)
    for (MaskKind k : {MaskKind::None, MaskKind::CausalTopLeft, MaskKind::CausalBottomRight}) {
      SCOPED_TRACE(testing::Message() << s[0] << "x" << s[1] << " d " << s[2] << "/" << s[3]);
      CheckOne(RandomProblem(rng, s[0], s[1], s[2], s[3], k, 2), true);
    }
}

// Random shapes: N_q, N_k in [1, 1100] (mostly odd), d, d_v in [1, 128], 1-3 heads, every mask kind.
TEST(CudaHopper, RandomShapesMatchReferenceAndCounters) {
  REQUIRE_HOPPER();
  std::mt19937 rng(20251205);
  const MaskKind kinds[] = {MaskKind::None, MaskKind::CausalTopLeft, MaskKind::CausalBottomRight, MaskKind::KeyPadding,
                            MaskKind::Explicit};
  const int cases = std::getenv("BW_CUDA_TEST_SUBSET") ? 10 : 40;
  std::uniform_int_distribution<int> n(1, 1100), dd(1, 128), hh(1, 3);
  for (int c = 0; c < cases; ++c) {
    const int n_q = n(rng) | 1, n_k = n(rng) | 1, d = dd(rng), d_v = (c % 3 == 0) ? dd(rng) : d;
    const MaskKind k = kinds[c % 5];
    const Problem p = RandomProblem(rng, n_q, n_k, d, d_v, k, k == MaskKind::Explicit ? 1 : hh(rng));
    SCOPED_TRACE(Name(p));
    CheckOne(p, c % 2 == 0);
  }
}

// Large scores (amplitude 4): the running max moves a lot, and the rescale must stay exact enough.
TEST(CudaHopper, LargeValuesAndLongRows) {
  REQUIRE_HOPPER();
  std::mt19937 rng(8);
  for (MaskKind k : {MaskKind::None, MaskKind::CausalBottomRight})
    for (int d : {64, 128}) {
      const Problem p = RandomProblem(rng, 200, 2000, d, d, k, 2, 4.f);
      SCOPED_TRACE(Name(p));
      CheckOne(p, false);
    }
}

// Causal: only diagonal tiles are partial, tiles above the diagonal are skipped (never loaded): the
// counters' K/V bytes equal those of the computed tiles alone.
TEST(CudaHopper, CausalSkipsTilesAboveTheDiagonal) {
  REQUIRE_HOPPER();
  std::mt19937 rng(5);
  const Problem p = RandomProblem(rng, 1024, 1024, 128, 128, MaskKind::CausalTopLeft, 1);
  const Output out = RunHopper(p);
  EXPECT_EQ(out.run.counters.tiles_total, 64);
  EXPECT_EQ(out.run.counters.tiles_skipped, 28);                         // 8 x 8 tiles, 28 above the diagonal
  EXPECT_EQ(out.run.counters.k.read_elems, (64 - 28) * 128LL * 128);      // 36 tiles of 128 keys x 128
  ExpectClose(p, out, Reference(p), 2e-2, "causal 1024");
}

// Warp phases of sampled CTAs: the same O (logging changes no arithmetic); each sampled CTA has all three
// warpgroups; per consumer warpgroup one S wait, one softmax and one P V per computed tile, in time order
// and never overlapping; the producer one issue per computed tile plus Q; all inside the CTA's span.
TEST(CudaHopper, WarpPhasesLogEveryTileOfTheSampledCtas) {
  REQUIRE_HOPPER();
  std::mt19937 rng(34);
  for (MaskKind k : {MaskKind::None, MaskKind::CausalTopLeft}) {
    const Problem p = RandomProblem(rng, 1024, 1024, 128, 128, k, 4);
    SCOPED_TRACE(Name(p));
    Options plain, logged;
    logged.warp_sample_ctas = 3;
    const Output a = RunHopper(p, plain), b = RunHopper(p, logged);
    ASSERT_EQ(a.o.size(), b.o.size());
    for (size_t e = 0; e < a.o.size(); ++e) ASSERT_EQ(std::memcmp(&a.o[e], &b.o[e], 4), 0) << "O differs at " << e;
    EXPECT_TRUE(a.run.warp_phases.empty());
    const Tiling t = kHopperTiling;
    const int t_r = (p.n_q + t.b_r - 1) / t.b_r, t_c = (p.n_k + t.b_c - 1) / t.b_c;
    const auto cls = ClassifyTiles(p, t);
    std::map<std::uint32_t, std::vector<const WarpPhaseRecord*>> per;  // key cta * 3 + warpgroup
    for (const WarpPhaseRecord& r : b.run.warp_phases) per[r.cta * 3 + r.warpgroup].push_back(&r);
    ASSERT_EQ(per.size(), 9u) << "3 CTAs x 3 warpgroups";
    for (const auto& [key, rs] : per) {
      const int wg = key % 3, i = rs.front()->q_tile % t_r;
      int computed = 0;
      for (int j = 0; j < t_c; ++j) computed += cls[(size_t)i * t_c + j] != 0;
      std::map<WarpPhase, int> n;
      for (size_t x = 0; x < rs.size(); ++x) {
        ++n[rs[x]->phase];
        EXPECT_LE(rs[x]->t_start_ns, rs[x]->t_end_ns);
        if (x > 0) EXPECT_LE(rs[x - 1]->t_end_ns, rs[x]->t_start_ns) << "warpgroup " << wg << " phases overlap";
        EXPECT_LT(rs[x]->t_end_ns, 10'000'000u) << "a phase past 10 ms: the clock conversion is off";
      }
      if (wg == 0) {
        EXPECT_EQ(n[WarpPhase::kTmaIssue], computed + 1) << "Q and every computed K_j, V_j";
      } else {
        EXPECT_EQ(n[WarpPhase::kWgmmaS], computed);
        EXPECT_EQ(n[WarpPhase::kSoftmax], computed);
        EXPECT_EQ(n[WarpPhase::kWgmmaPV], computed);
        EXPECT_EQ(n[WarpPhase::kWrite], 1);
      }
    }
  }
}

TEST(CudaHopper, RejectsWhatItCannotRun) {
  REQUIRE_HOPPER();
  std::mt19937 rng(1);
  Problem p = RandomProblem(rng, 10, 10, 130, 130, MaskKind::None);
  EXPECT_THROW(RunHopper(p), std::invalid_argument);
  p = RandomProblem(rng, 10, 10, 64, 64, MaskKind::None);
  Options opt;
  opt.pace_ns = 1000;
  EXPECT_THROW(RunHopper(p, opt), std::invalid_argument);
}

// A live run of the Hopper kernel (GpuRun, GpuKernel::kHopper): the records polled while it runs equal the
// final re-read (LiveMismatches 0), every (head, i, j) is seen once and they add up to the counters, the
// counters equal the model, O and L are bit for bit RunHopper's on the same problem, warp phases arrive
// when CTAs are sampled; pace, the mapped transport and fp16 are refused with the reason.
TEST(CudaHopper, LiveGpuRunStreamsEveryRecord) {
  REQUIRE_HOPPER();
  std::mt19937 rng(36);
  struct Case { int n, d, heads; MaskKind mask; int warps; };
  for (const Case c : {Case{8192, 128, 1, MaskKind::None, 3}, Case{8192, 128, 1, MaskKind::CausalTopLeft, 3},
                       Case{1000, 40, 3, MaskKind::CausalBottomRight, 0}, Case{777, 100, 2, MaskKind::KeyPadding, 2}}) {
    const Problem p = RandomProblem(rng, c.n, c.n, c.d, c.d, c.mask, c.heads);
    SCOPED_TRACE(Name(p));
    GpuRunOptions o;
    o.kernel = GpuKernel::kHopper;
    o.algorithm = Algorithm::TensorCoreBf16;
    o.warp_sample_ctas = c.warps;
    GpuRun run;
    run.Start(p, o);
    std::vector<TileRecord> live;
    int polls = 0;
    while (!run.Done()) {
      for (const TileRecord& r : run.Poll()) live.push_back(r);
      ++polls;
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    for (const TileRecord& r : run.Poll()) live.push_back(r);
    EXPECT_EQ(run.LiveMismatches(), 0);
    EXPECT_EQ((int)live.size(), run.TilesTotal()) << "every record handed out once";
    EXPECT_EQ(run.TilesSeen(), run.TilesTotal());
    const RunSummary& t = run.Totals();
    EXPECT_EQ(t.kernel, "hopper");
    EXPECT_EQ(t.b_r, 128);
    EXPECT_EQ(t.b_c, 128);
    EXPECT_EQ(t.counters, PredictHopperCounters(p));
    Output as_live;
    as_live.run = t;
    ExpectRecordsMatch(p, as_live, "live");
    ASSERT_EQ(live.size(), t.tiles.size());
    for (size_t x = 0; x < live.size(); ++x) ASSERT_EQ(std::memcmp(&live[x], &t.tiles[x], sizeof(TileRecord)), 0) << "record " << x;
    if (c.warps > 0) {
      EXPECT_FALSE(t.warp_phases.empty());
      std::map<std::uint32_t, int> ctas;
      for (const WarpPhaseRecord& w : t.warp_phases) ++ctas[w.cta];
      EXPECT_EQ((int)ctas.size(), c.warps);
    } else {
      EXPECT_TRUE(t.warp_phases.empty());
    }
    const Output whole = RunHopper(p);
    const Output& got = run.Result();
    ASSERT_EQ(got.o.size(), whole.o.size());
    EXPECT_EQ(std::memcmp(got.o.data(), whole.o.data(), got.o.size() * 4), 0) << "O differs from RunHopper's";
    ASSERT_EQ(got.lse.size(), whole.lse.size());
    EXPECT_EQ(std::memcmp(got.lse.data(), whole.lse.data(), got.lse.size() * 4), 0) << "L differs from RunHopper's";
    EXPECT_EQ(got.row_masked, whole.row_masked);
    std::printf("[ live hopper ] %s: %d polls, %d copies, %.3f ms, %zu warp phases\n", Name(p).c_str(), polls, run.CopiesIssued(),
                t.kernel_ms, t.warp_phases.size());
  }
  const Problem p = RandomProblem(rng, 256, 256, 64, 64, MaskKind::None);
  GpuRunOptions o;
  o.kernel = GpuKernel::kHopper;
  o.algorithm = Algorithm::TensorCoreBf16;
  o.pace_ns = 1000;
  EXPECT_THROW(GpuRun().Start(p, o), std::invalid_argument);
  o.pace_ns = 0;
  o.transport = RecordTransport::kMappedHost;
  EXPECT_THROW(GpuRun().Start(p, o), std::invalid_argument);
  o.transport = RecordTransport::kDeviceCopy;
  o.algorithm = Algorithm::TensorCoreFp16;
  EXPECT_THROW(GpuRun().Start(p, o), std::invalid_argument);
}

}  // namespace
}  // namespace bw::cuda::test
