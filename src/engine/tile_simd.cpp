// The float tile kernels of tile_simd.h, one body compiled for three instruction sets with GCC's
// target attribute (no -m flags on the file: only the chosen functions use AVX2 / AVX-512), picked
// at run time. The GEMM keeps a 4 × 32 block of C in registers (8 zmm or 16 ymm) while it walks k:
// one load of B and four broadcasts of A per 4 × 32 fused multiply-adds.
#include "engine/tile_simd.h"

#include <atomic>
#include <cmath>
#include <bit>
#include <limits>

namespace bw::engine::detail {
namespace {

using I64 = std::int64_t;
constexpr int kRows = 4, kCols = 32;

// BW_KERNELS(SUFFIX, TARGET): the kernels as functions named Gemm##SUFFIX, Exp##SUFFIX compiled
// for TARGET. Everything they call is inside the macro, so nothing built for a wider ISA is shared.
#define BW_KERNELS(SUFFIX, TARGET)                                                                          \
  TARGET void Block##SUFFIX(const float* __restrict A, I64 lda, const float* __restrict B, I64 ldb,         \
                            float* __restrict C, I64 ldc, I64 k) {                                          \
    float acc[kRows][kCols] = {};                                                                           \
    for (I64 p = 0; p < k; ++p) {                                                                           \
      const float* b = B + p * ldb;                                                                         \
      for (int i = 0; i < kRows; ++i) {                                                                     \
        const float a = A[i * lda + p];                                                                     \
        for (int t = 0; t < kCols; ++t) acc[i][t] += a * b[t];                                              \
      }                                                                                                     \
    }                                                                                                       \
    for (int i = 0; i < kRows; ++i)                                                                         \
      for (int t = 0; t < kCols; ++t) C[i * ldc + t] = acc[i][t];                                           \
  }                                                                                                         \
  /* Any m × n (n ≤ kCols) edge block: one row at a time, one accumulator row. */                           \
  TARGET void Edge##SUFFIX(const float* __restrict A, I64 lda, const float* __restrict B, I64 ldb,          \
                           float* __restrict C, I64 ldc, I64 m, I64 n, I64 k) {                             \
    for (I64 i = 0; i < m; ++i) {                                                                           \
      float acc[kCols] = {};                                                                                \
      for (I64 p = 0; p < k; ++p) {                                                                         \
        const float a = A[i * lda + p];                                                                     \
        const float* b = B + p * ldb;                                                                       \
        for (I64 t = 0; t < n; ++t) acc[t] += a * b[t];                                                     \
      }                                                                                                     \
      for (I64 t = 0; t < n; ++t) C[i * ldc + t] = acc[t];                                                  \
    }                                                                                                       \
  }                                                                                                         \
  TARGET void Gemm##SUFFIX(const float* A, I64 lda, const float* B, I64 ldb, float* C, I64 ldc, I64 m, I64 n, \
                           I64 k) {                                                                         \
    for (I64 j = 0; j < n; j += kCols) {                                                                    \
      const I64 w = n - j < kCols ? n - j : kCols;                                                          \
      I64 i = 0;                                                                                            \
      if (w == kCols)                                                                                       \
        for (; i + kRows <= m; i += kRows) Block##SUFFIX(A + i * lda, lda, B + j, ldb, C + i * ldc + j, ldc, k); \
      Edge##SUFFIX(A + i * lda, lda, B + j, ldb, C + i * ldc + j, ldc, m - i, w, k);                        \
    }                                                                                                       \
  }                                                                                                         \
  /* Cephes expf: e^x = 2^n · e^r, n = round(x·log2 e), r = x − n·ln 2 (ln 2 in two parts). */             \
  TARGET void Exp##SUFFIX(float* __restrict row, I64 n, float shift, bool masked) {                         \
    const float inf = std::numeric_limits<float>::infinity();                                               \
    for (I64 e = 0; e < n; ++e) {                                                                           \
      const float s = row[e];                                                                               \
      const float x = s - shift;                                                                            \
      float xc = x < -87.3365448f ? -87.3365448f : x;                                                       \
      xc = xc > 88.7228391f ? 88.7228391f : xc;                                                             \
      const float fx = xc * 1.44269504088896341f + (xc < 0 ? -0.5f : 0.5f);                                 \
      const int ni = static_cast<int>(fx);                                                                  \
      const float nf = static_cast<float>(ni);                                                              \
      const float r = (xc - nf * 0.693359375f) + nf * 2.12194440e-4f;                                       \
      float p = 1.9875691500e-4f;                                                                           \
      p = p * r + 1.3981999507e-3f;                                                                         \
      p = p * r + 8.3334519073e-3f;                                                                         \
      p = p * r + 4.1665795894e-2f;                                                                         \
      p = p * r + 1.6666665459e-1f;                                                                         \
      p = p * r + 5.0000001201e-1f;                                                                         \
      p = p * r * r + r + 1.0f;                                                                             \
      /* 2^n in two halves so n = 128 (x near the top) does not overflow the exponent field */            \
      const int h = ni / 2;                                                                                 \
      const float two_h = std::bit_cast<float>((h + 127) << 23);                                            \
      const float two_rest = std::bit_cast<float>((ni - h + 127) << 23);                                    \
      float y = p * two_h * two_rest;                                                                       \
      y = x < -87.3365448f ? 0.0f : y;                                                                      \
      y = x > 88.7228391f ? inf : y;                                                                        \
      y = x != x ? x : y;                                                                                   \
      row[e] = masked && s == -inf ? 0.0f : y;                                                              \
    }                                                                                                       \
  }                                                                                                         \
  TARGET bool AllFinite##SUFFIX(const float* __restrict x, I64 n) {                                         \
    std::uint32_t bad = 0;                                                                                  \
    for (I64 e = 0; e < n; ++e) bad |= (std::bit_cast<std::uint32_t>(x[e]) & 0x7f800000u) == 0x7f800000u;   \
    return bad == 0;                                                                                        \
  }

#define BW_TARGET_BASE
#define BW_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define BW_TARGET_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,prefer-vector-width=512")))

BW_KERNELS(Base, BW_TARGET_BASE)
#if defined(__x86_64__) && defined(__GNUC__)
BW_KERNELS(Avx2, BW_TARGET_AVX2)
BW_KERNELS(Avx512, BW_TARGET_AVX512)
#endif

SimdLevel Detect() {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq"))
    return SimdLevel::kAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return SimdLevel::kAvx2Fma;
#endif
  return SimdLevel::kBaseline;
}

std::atomic<SimdLevel>& Active() {
  static std::atomic<SimdLevel> level{Detect()};
  return level;
}

}  // namespace

const char* ToString(SimdLevel l) {
  switch (l) {
    case SimdLevel::kBaseline: return "x86-64";
    case SimdLevel::kAvx2Fma: return "avx2+fma";
    case SimdLevel::kAvx512: return "avx512";
  }
  return "?";
}

SimdLevel SupportedSimdLevel() {
  static const SimdLevel s = Detect();
  return s;
}
SimdLevel ActiveSimdLevel() { return Active().load(std::memory_order_relaxed); }
void SetSimdLevel(SimdLevel l) {
  Active().store(static_cast<int>(l) > static_cast<int>(SupportedSimdLevel()) ? SupportedSimdLevel() : l);
}

void GemmF32(const float* A, I64 lda, const float* B, I64 ldb, float* C, I64 ldc, I64 m, I64 n, I64 k) {
  switch (ActiveSimdLevel()) {
#if defined(__x86_64__) && defined(__GNUC__)
    case SimdLevel::kAvx512: return GemmAvx512(A, lda, B, ldb, C, ldc, m, n, k);
    case SimdLevel::kAvx2Fma: return GemmAvx2(A, lda, B, ldb, C, ldc, m, n, k);
#endif
    default: return GemmBase(A, lda, B, ldb, C, ldc, m, n, k);
  }
}

void ExpShiftedF32(float* row, I64 n, float shift, bool masked) {
  switch (ActiveSimdLevel()) {
#if defined(__x86_64__) && defined(__GNUC__)
    case SimdLevel::kAvx512: return ExpAvx512(row, n, shift, masked);
    case SimdLevel::kAvx2Fma: return ExpAvx2(row, n, shift, masked);
#endif
    default: return ExpBase(row, n, shift, masked);
  }
}

bool AllFiniteF32(const float* x, I64 n) {
  switch (ActiveSimdLevel()) {
#if defined(__x86_64__) && defined(__GNUC__)
    case SimdLevel::kAvx512: return AllFiniteAvx512(x, n);
    case SimdLevel::kAvx2Fma: return AllFiniteAvx2(x, n);
#endif
    default: return AllFiniteBase(x, n);
  }
}

}  // namespace bw::engine::detail
