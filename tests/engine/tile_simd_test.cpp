// The float tile kernels at every SIMD level this CPU supports (x86-64 baseline, AVX2 + FMA,
// AVX-512): the GEMM against a double-precision product, e^x against std::exp in double (special
// values exact), and whole FA-2 / FA-1 float runs against the double reference within the property
// test's float tolerance (|a − b| ≤ 1e-5·(1 + |b|)), with counters and traces identical across levels.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "engine/attention.h"
#include "engine/tile_simd.h"

namespace bw::engine {
namespace {

using detail::SimdLevel;

std::vector<SimdLevel> Levels() {
  std::vector<SimdLevel> out{SimdLevel::kBaseline};
  if (detail::SupportedSimdLevel() >= SimdLevel::kAvx2Fma) out.push_back(SimdLevel::kAvx2Fma);
  if (detail::SupportedSimdLevel() >= SimdLevel::kAvx512) out.push_back(SimdLevel::kAvx512);
  return out;
}

struct RestoreLevel {
  SimdLevel saved = detail::ActiveSimdLevel();
  ~RestoreLevel() { detail::SetSimdLevel(saved); }
};

TEST(TileSimd, GemmMatchesDoubleProductAtEveryLevel) {
  RestoreLevel restore;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<float> val(-1.0f, 1.0f);
  for (SimdLevel level : Levels()) {
    detail::SetSimdLevel(level);
    ASSERT_EQ(detail::ActiveSimdLevel(), level);
    for (const auto [m, n, k] : {std::array<int, 3>{64, 64, 64}, {5, 33, 7}, {1, 1, 1}, {9, 70, 0}, {0, 4, 3}, {4, 32, 65}, {17, 96, 64}, {13, 40, 9}}) {
      std::vector<float> A(static_cast<std::size_t>(m * k)), B(static_cast<std::size_t>(k * n)), C(static_cast<std::size_t>(m * n), 99.0f);
      for (auto& x : A) x = val(rng);
      for (auto& x : B) x = val(rng);
      detail::GemmF32(A.data(), k, B.data(), n, C.data(), n, m, n, k);
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          double want = 0;
          for (int p = 0; p < k; ++p) want += static_cast<double>(A[i * k + p]) * B[p * n + j];
          ASSERT_NEAR(C[i * n + j], want, 1e-5 * (1 + k)) << ToString(level) << " m=" << m << " n=" << n << " k=" << k;
        }
    }
  }
}

// alpha scales the finished sum: bit for bit the unscaled product times alpha (as `S *= scale`).
TEST(TileSimd, GemmAlphaIsOneMultiplicationAfterTheSum) {
  RestoreLevel restore;
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<float> val(-1.0f, 1.0f);
  const int m = 19, n = 70, k = 64;
  std::vector<float> A(m * k), B(k * n), C1(m * n), C2(m * n);
  for (auto& x : A) x = val(rng);
  for (auto& x : B) x = val(rng);
  for (SimdLevel level : Levels()) {
    detail::SetSimdLevel(level);
    detail::GemmF32(A.data(), k, B.data(), n, C1.data(), n, m, n, k);
    detail::GemmF32(A.data(), k, B.data(), n, C2.data(), n, m, n, k, 0.3f);
    for (int e = 0; e < m * n; ++e) ASSERT_EQ(C2[e], C1[e] * 0.3f) << ToString(level) << " element " << e;
  }
}

// The tile loads: double → float, straight and transposed, and the float-range check, at every level.
TEST(TileSimd, ConversionsAndRangeCheckAtEveryLevel) {
  RestoreLevel restore;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> val(-1e3, 1e3);
  const int rows = 37, cols = 21, ld = 25;
  std::vector<double> src(rows * ld);
  for (auto& x : src) x = val(rng);
  const double big = std::numeric_limits<float>::max(), tiny = static_cast<double>(std::numeric_limits<float>::denorm_min()) / 2;
  for (SimdLevel level : Levels()) {
    detail::SetSimdLevel(level);
    std::vector<float> flat(src.size()), t(rows * cols);
    detail::CastToF32(src.data(), static_cast<std::int64_t>(src.size()), flat.data());
    for (std::size_t e = 0; e < src.size(); ++e) ASSERT_EQ(flat[e], static_cast<float>(src[e])) << ToString(level);
    detail::CastTransposeToF32(src.data(), ld, rows, cols, t.data());
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) ASSERT_EQ(t[c * rows + r], static_cast<float>(src[r * ld + c])) << ToString(level);
    EXPECT_TRUE(detail::FitsF32(src.data(), static_cast<std::int64_t>(src.size()), big, tiny)) << ToString(level);
    for (double bad : {1e39, -1e300, 1e-50, -1e-46, std::numeric_limits<double>::infinity()}) {
      std::vector<double> x = src;
      x[29] = bad;
      EXPECT_FALSE(detail::FitsF32(x.data(), static_cast<std::int64_t>(x.size()), big, tiny)) << ToString(level) << " " << bad;
    }
    for (double fine : {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(), 1e-44, 3e38}) {
      std::vector<double> x = src;
      x[29] = fine;
      EXPECT_TRUE(detail::FitsF32(x.data(), static_cast<std::int64_t>(x.size()), big, tiny)) << ToString(level) << " " << fine;
    }
  }
}

TEST(TileSimd, ExpWithinTwoUlpAndSpecialValuesExact) {
  RestoreLevel restore;
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (SimdLevel level : Levels()) {
    detail::SetSimdLevel(level);
    std::vector<float> xs;
    for (float x = -87.0f; x <= 88.0f; x += 0.0137f) xs.push_back(x);
    std::vector<float> row = xs;
    detail::ExpShiftedF32(row.data(), static_cast<std::int64_t>(row.size()), 0.0f, false);
    for (std::size_t e = 0; e < xs.size(); ++e) {
      const double want = std::exp(static_cast<double>(xs[e]));
      ASSERT_LE(std::abs(row[e] - want), 2.5e-7 * want) << ToString(level) << " x=" << xs[e];
    }
    std::vector<float> special{-inf, 0.0f, nan, -200.0f, 200.0f, 3.0f};
    detail::ExpShiftedF32(special.data(), 6, 3.0f, true);
    EXPECT_EQ(special[0], 0.0f) << "masked −∞ is exactly 0";
    EXPECT_FLOAT_EQ(special[1], std::exp(-3.0f));
    EXPECT_TRUE(std::isnan(special[2])) << "NaN stays NaN";
    EXPECT_EQ(special[3], 0.0f) << "underflow flushes to 0";
    EXPECT_EQ(special[4], inf) << "overflow is +∞";
    EXPECT_EQ(special[5], 1.0f) << "e^0 is exactly 1";
  }
}

// The merge's row kernels (FA-2 lines 9–10 in float): the row max is exact and passes over NaN; the
// row sum equals the double sum within float rounding (exact for small integers, in any order); the
// rescale y ← a·y + x is within one rounding of the product and sum. Lengths round and between the
// 16-lane blocks.
TEST(TileSimd, RowMaxSumAndRescaleAtEveryLevel) {
  RestoreLevel restore;
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<float> val(-30.0f, 30.0f);
  for (SimdLevel level : Levels()) {
    detail::SetSimdLevel(level);
    EXPECT_EQ(detail::RowMaxF32(nullptr, 0), -inf) << ToString(level);
    EXPECT_EQ(detail::SumF32(nullptr, 0), 0.0f) << ToString(level);
    for (int n : {1, 7, 15, 16, 17, 31, 32, 33, 64, 100, 129}) {
      std::vector<float> x(static_cast<std::size_t>(n)), y(x.size()), y0;
      for (auto& v : x) v = val(rng);
      for (auto& v : y) v = val(rng);
      y0 = y;
      float want_max = -inf;
      double want_sum = 0;
      for (float v : x) want_max = std::max(want_max, v), want_sum += v;
      EXPECT_EQ(detail::RowMaxF32(x.data(), n), want_max) << ToString(level) << " n=" << n;
      EXPECT_NEAR(detail::SumF32(x.data(), n), want_sum, 1e-6 * 30 * n) << ToString(level) << " n=" << n;
      std::vector<float> ints(x.size());
      for (std::size_t e = 0; e < ints.size(); ++e) ints[e] = static_cast<float>(static_cast<int>(e % 9) - 4);
      double int_sum = 0;
      for (float v : ints) int_sum += v;
      EXPECT_EQ(detail::SumF32(ints.data(), n), static_cast<float>(int_sum)) << ToString(level) << " n=" << n;
      detail::AxpbyF32(0.375f, y.data(), x.data(), n);
      for (int e = 0; e < n; ++e) {
        const double want = 0.375 * static_cast<double>(y0[static_cast<std::size_t>(e)]) + x[static_cast<std::size_t>(e)];
        EXPECT_NEAR(y[static_cast<std::size_t>(e)], want, 2e-7 * (std::abs(want) + 30)) << ToString(level) << " e=" << e;
      }
      // A NaN is passed over by the max wherever it sits (e^{NaN − m} then keeps it NaN).
      x[static_cast<std::size_t>(n / 2)] = nan;
      float max_without = -inf;
      for (float v : x) if (!std::isnan(v)) max_without = std::max(max_without, v);
      EXPECT_EQ(detail::RowMaxF32(x.data(), n), max_without) << ToString(level) << " n=" << n;
      EXPECT_TRUE(std::isnan(detail::SumF32(x.data(), n))) << ToString(level) << " n=" << n;
    }
  }
}

TEST(TileSimd, FloatRunsWithinToleranceAndCountersIdenticalAtEveryLevel) {
  RestoreLevel restore;
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g(0.0, 1.5);
  for (int index = 0; index < 12; ++index) {
    AttentionProblem p;
    const int n = 40 + 13 * index, d = 1 + index * 5 % 70;
    p.Q.resize(n, d);
    p.K.resize(n + 3, d);
    p.V.resize(n + 3, 1 + index % 9);
    for (auto* m : {&p.Q, &p.K, &p.V})
      for (Eigen::Index x = 0; x < m->size(); ++x) m->data()[x] = g(rng);
    if (index % 2) p.mask = Mask::Causal(index % 4 == 1 ? CausalAlignment::kTopLeft : CausalAlignment::kBottomRight);
    const AttentionResult ref = RunReference(p);  // double
    RunOptions opt;
    opt.precision = Precision::kFloat;
    opt.tiles = {1 + index * 7 % 64, 1 + index * 11 % 64};
    opt.record_trace = true;
    std::vector<AttentionResult> runs;
    for (SimdLevel level : Levels()) {
      detail::SetSimdLevel(level);
      for (const bool fa2 : {true, false}) {
        const AttentionResult r = fa2 ? RunFlash2(p, opt) : RunFlash1(p, opt);
        const auto rep = Compare(r.O, ref.O, 1e-5, 1e-5);
        ASSERT_TRUE(rep.ok()) << ToString(level) << (fa2 ? " FA-2 " : " FA-1 ") << "case " << index << ": " << rep.Summary();
        ASSERT_TRUE(r.numerics.empty());
        if (fa2) runs.push_back(r);
      }
    }
    for (const AttentionResult& r : runs) {
      EXPECT_EQ(r.counters, runs[0].counters);
      ASSERT_EQ(r.trace.size(), runs[0].trace.size());
      for (std::size_t e = 0; e < r.trace.size(); ++e) EXPECT_EQ(r.trace.CountersAt(e), runs[0].trace.CountersAt(e));
    }
  }
}

}  // namespace
}  // namespace bw::engine
