// exp2_poly.h — 2^x for x <= 0 on the FMA and integer pipes instead of the special-function unit (MUFU),
// shared by the Hopper kernel (kernel_hopper.cu) and a CPU test (tests/cuda/test_exp2_poly.cpp). No CUDA
// header.
// Why: at d = 64 the Hopper kernel's softmax is bound by MUFU.EX2, which an SM issues at 16 a clock
// (one a clock per quarter-warp lane group) while its FP32 pipes take 128 FMAs a clock; a 128 x 128 tile
// has 16384 exponentials (1024 MUFU clocks) against 2 x 128 x 128 x 64 x 2 flops of wgmma (about 512
// tensor clocks at d 64). Computing some of the exponentials with a polynomial moves that work to the
// FMA pipe (FlashAttention-4, Zadouri et al. 2025, "software emulation of the exponential", describes the
// same balance on Blackwell). Which elements take this path is the kernel's choice (kernel_hopper.cu, PolyNb).
// Method (Cody and Waite style range reduction): x = r + f with r = round(x) (the 1.5 * 2^23 addition
// rounds in the FP32 adder) and f in [-1/2, 1/2]; 2^f by a cubic (Horner, 3 FMA); 2^r added to the
// exponent field with one shift-add. The cubic's coefficients are the minimax fit of 2^f's *relative*
// error on [-1/2, 1/2] (a Lawson-weighted least-squares iteration, 4001 points, double precision):
// maximum relative error 7.5e-5 in FP32 Horner, below the 2^-9 (1.95e-3) half-ulp of the bf16 that P is
// rounded to before P V. Contract: x <= 0 and finite (the kernel subtracts the running max first and
// calls this only on tiles without masked elements). Inputs below -125 are clamped to -125: 2^-125 times
// c0 < 1 stays a normal float (the MUFU's ftz result there is 0; both vanish next to the row's largest
// term, 1). -inf therefore gives about 2^-125, not 0, which is why masked and tail tiles keep the MUFU
// path, where exp2(-inf) is exactly 0 and a fully masked row keeps l = 0. Units: none (float in, float out).
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define BW_HD __host__ __device__ __forceinline__
#else
#define BW_HD inline
#endif

namespace bw::cuda {

inline constexpr float kExp2PolyC0 = 0.999928069f, kExp2PolyC1 = 0.693260988f, kExp2PolyC2 = 0.2426112f,
                       kExp2PolyC3 = 0.0551717002f;
inline constexpr float kExp2PolyMaxRelErr = 7.5e-5f;  // measured by tests/cuda/test_exp2_poly.cpp

BW_HD std::uint32_t Exp2PolyBits(float v) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(v);
#else
  std::uint32_t u;
  std::memcpy(&u, &v, 4);
  return u;
#endif
}
BW_HD float Exp2PolyFloat(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float v;
  std::memcpy(&v, &u, 4);
  return v;
#endif
}

// 2^x, x <= 0 (x > 0 is outside the contract: the kernel subtracts the running max first).
BW_HD float Exp2Poly(float x) {
  constexpr float kRound = 12582912.f;  // 1.5 * 2^23: x + kRound holds round(x) in its low mantissa bits
  x = x > -125.f ? x : -125.f;          // (-inf too: see the contract above)
#if defined(__CUDA_ARCH__)
  const float t = __fadd_rn(x, kRound);  // _rn: neither contracted into an FMA nor reassociated
  const float r = __fsub_rn(t, kRound);
  const float f = __fsub_rn(x, r);
  float p = __fmaf_rn(kExp2PolyC3, f, kExp2PolyC2);
  p = __fmaf_rn(p, f, kExp2PolyC1);
  p = __fmaf_rn(p, f, kExp2PolyC0);
#else
  volatile float tv = x + kRound;  // volatile: the host compiler must not fold the rounding away
  const float t = tv;
  const float r = t - kRound;
  const float f = x - r;
  float p = __builtin_fmaf(kExp2PolyC3, f, kExp2PolyC2);
  p = __builtin_fmaf(p, f, kExp2PolyC1);
  p = __builtin_fmaf(p, f, kExp2PolyC0);
#endif
  // t's bits are 0x4B400000 + round(x) (two's complement); shifted left by 23 only round(x)'s low 9 bits
  // survive, which is round(x) << 23 modulo 2^32: the exponent step.
  return Exp2PolyFloat(Exp2PolyBits(p) + (Exp2PolyBits(t) << 23));
}

}  // namespace bw::cuda

#undef BW_HD
