// test_exp2_poly.cpp — CPU test (no GPU) of Exp2Poly (src/cuda/exp2_poly.h), the polynomial 2^x the Hopper
// kernel uses for part of its softmax's exponentials: its relative error against exp2 in double over
// every float in [-125, 0] sampled at 2^-12 steps plus the reduction's edges (x = k +- 1/2, integers), and
// its clamp below -125.
#include "cuda/exp2_poly.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>

namespace bw::cuda {
namespace {

double RelErr(float x) { return std::fabs((double)Exp2Poly(x) / std::exp2((double)x) - 1.0); }

TEST(Exp2Poly, RelativeErrorBelowTheStatedBoundEverywhereInRange) {
  double worst = 0;
  float worst_x = 0;
  for (int i = 0; i <= 125 * 4096; ++i) {
    const float x = -(float)i / 4096.f;
    const double e = RelErr(x);
    ASSERT_FALSE(std::isnan(e)) << x;
    if (e > worst) worst = e, worst_x = x;
  }
  for (int k = 0; k >= -124; --k)
    for (float x : {std::nextafter((float)k - 0.5f, 0.f), (float)k - 0.5f, std::nextafter((float)k - 0.5f, -200.f), (float)k}) {
      const double e = RelErr(x);
      if (e > worst) worst = e, worst_x = x;
    }
  std::printf("Exp2Poly: max relative error %.3g at x = %.9g\n", worst, (double)worst_x);
  EXPECT_LE(worst, (double)kExp2PolyMaxRelErr) << "at x = " << worst_x;
  EXPECT_GT(worst, 1e-5) << "a cubic cannot be this exact: the test is not measuring the polynomial";
  EXPECT_LT(worst, std::ldexp(1.0, -9)) << "above bf16's half ulp, the precision P is rounded to";
}

TEST(Exp2Poly, ClampsNearTheSmallestNormal) {
  const float tiny = std::ldexp(1.f, -125);
  EXPECT_NEAR(Exp2Poly(-125.f), tiny, tiny * 1e-4f);
  EXPECT_NEAR(Exp2Poly(-1000.f), tiny, tiny * 1e-4f);
  EXPECT_NEAR(Exp2Poly(-std::numeric_limits<float>::infinity()), tiny, tiny * 1e-4f);
  EXPECT_TRUE(std::isfinite(Exp2Poly(-std::numeric_limits<float>::infinity())));
}

TEST(Exp2Poly, ExactPowersOfTwoStepTheExponentOnly) {
  // at integers f = 0, so every 2^k carries the same relative error, c0 - 1
  const double e0 = (double)Exp2Poly(0.f) - 1.0;
  for (int k = 0; k >= -120; k -= 7) EXPECT_DOUBLE_EQ((double)Exp2Poly((float)k) / std::exp2((double)k) - 1.0, e0) << k;
}

}  // namespace
}  // namespace bw::cuda
