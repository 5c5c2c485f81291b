// The float tile kernels of tile_simd.h, one body compiled for three instruction sets with GCC's
// target attribute (no -m flags on the file: only the chosen functions use AVX2 / AVX-512), picked
// at run time. The GEMM keeps a ROWS × COLS block of C in registers while it walks k: one load of B
// per vector and ROWS broadcasts of A per ROWS × COLS fused multiply-adds — 8 × 32 floats (16 of
// the 32 zmm) for AVX-512, 4 × 16 (8 of the 16 ymm) for AVX2, 4 × 8 for the x86-64 baseline. The
// exp is written without branches or integer division so that GCC vectorises it at every level
// (-fopt-info-vec reports "loop vectorized using 64 byte vectors" for the AVX-512 body).
#include "engine/tile_simd.h"

#include <atomic>
#include <cmath>
#include <cstring>
#include <bit>
#include <limits>

namespace bw::engine::detail {
namespace {

using I64 = std::int64_t;
// 16 floats as one value (GCC's vector extension): lowered to the widest registers of each target.
typedef float F32x16 __attribute__((vector_size(64)));
typedef float F32x8 __attribute__((vector_size(32)));
typedef float F32x4 __attribute__((vector_size(16)));

// BW_KERNELS(SUFFIX, TARGET, ROWS, COLS): the kernels as functions named Gemm##SUFFIX, Exp##SUFFIX
// compiled for TARGET. Everything they call is inside the macro, so nothing built for a wider ISA is
// shared. C = alpha · (A B): the products are summed first and scaled once, as `S = Q Kᵀ; S *= scale`.
#define BW_KERNELS(SUFFIX, TARGET, ROWS, COLS)                                                              \
  TARGET void Block##SUFFIX(const float* __restrict A, I64 lda, const float* __restrict B, I64 ldb,         \
                            float* __restrict C, I64 ldc, I64 k, float alpha) {                             \
    float acc[ROWS][COLS] = {};                                                                             \
    for (I64 p = 0; p < k; ++p) {                                                                           \
      const float* b = B + p * ldb;                                                                         \
      for (int i = 0; i < ROWS; ++i) {                                                                      \
        const float a = A[i * lda + p];                                                                     \
        for (int t = 0; t < COLS; ++t) acc[i][t] += a * b[t];                                               \
      }                                                                                                     \
    }                                                                                                       \
    for (int i = 0; i < ROWS; ++i)                                                                          \
      for (int t = 0; t < COLS; ++t) C[i * ldc + t] = acc[i][t] * alpha;                                    \
  }                                                                                                         \
  /* Any m × n (n ≤ COLS) edge block: one row at a time, one accumulator row. */                            \
  TARGET void Edge##SUFFIX(const float* __restrict A, I64 lda, const float* __restrict B, I64 ldb,          \
                           float* __restrict C, I64 ldc, I64 m, I64 n, I64 k, float alpha) {                \
    for (I64 i = 0; i < m; ++i) {                                                                           \
      float acc[COLS] = {};                                                                                 \
      for (I64 p = 0; p < k; ++p) {                                                                         \
        const float a = A[i * lda + p];                                                                     \
        const float* b = B + p * ldb;                                                                       \
        for (I64 t = 0; t < n; ++t) acc[t] += a * b[t];                                                     \
      }                                                                                                     \
      for (I64 t = 0; t < n; ++t) C[i * ldc + t] = acc[t] * alpha;                                          \
    }                                                                                                       \
  }                                                                                                         \
  TARGET void Gemm##SUFFIX(const float* A, I64 lda, const float* B, I64 ldb, float* C, I64 ldc, I64 m, I64 n, \
                           I64 k, float alpha) {                                                            \
    for (I64 j = 0; j < n; j += COLS) {                                                                     \
      const I64 w = n - j < COLS ? n - j : COLS;                                                            \
      I64 i = 0;                                                                                            \
      if (w == COLS)                                                                                        \
        for (; i + ROWS <= m; i += ROWS)                                                                    \
          Block##SUFFIX(A + i * lda, lda, B + j, ldb, C + i * ldc + j, ldc, k, alpha);                      \
      Edge##SUFFIX(A + i * lda, lda, B + j, ldb, C + i * ldc + j, ldc, m - i, w, k, alpha);                 \
    }                                                                                                       \
  }                                                                                                         \
  /* Cephes expf: e^x = 2^n · e^r, n = round(x·log2 e) (to nearest by adding and removing 1.5·2^23),     \
     r = x − n·ln 2 (ln 2 in two parts). */                                                                 \
  TARGET void Exp##SUFFIX(float* __restrict row, I64 n, float shift, bool masked) {                         \
    const float inf = std::numeric_limits<float>::infinity();                                               \
    const int kill_masked = masked ? -1 : 0;                                                                \
    for (I64 e = 0; e < n; ++e) {                                                                           \
      const float s = row[e];                                                                               \
      const float x = s - shift;                                                                            \
      /* NaN fails every comparison: written this way round it becomes −87.3 here (finite, so the int \
         conversion below is defined; UBSan found static_cast<int>(NaN), issue 31), and y = x restores it */ \
      float xc = x > -87.3365448f ? x : -87.3365448f;                                                       \
      xc = xc > 88.7228391f ? 88.7228391f : xc;                                                             \
      const float nf = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;                             \
      const int ni = static_cast<int>(nf);                                                                  \
      const float r = (xc - nf * 0.693359375f) + nf * 2.12194440e-4f;                                       \
      float p = 1.9875691500e-4f;                                                                           \
      p = p * r + 1.3981999507e-3f;                                                                         \
      p = p * r + 8.3334519073e-3f;                                                                         \
      p = p * r + 4.1665795894e-2f;                                                                         \
      p = p * r + 1.6666665459e-1f;                                                                         \
      p = p * r + 5.0000001201e-1f;                                                                         \
      p = p * r * r + r + 1.0f;                                                                             \
      /* 2^n in two halves so n = 128 (x near the top) does not overflow the exponent field */            \
      const int h = ni >> 1;                                                                                \
      const float two_h = std::bit_cast<float>((h + 127) << 23);                                            \
      const float two_rest = std::bit_cast<float>((ni - h + 127) << 23);                                    \
      float y = p * two_h * two_rest;                                                                       \
      y = x < -87.3365448f ? 0.0f : y;                                                                      \
      y = x > 88.7228391f ? inf : y;                                                                        \
      y = x != x ? x : y;                                                                                   \
      /* bitwise, not &&: a branch here keeps GCC from vectorising the loop */                              \
      const int kill = kill_masked & -static_cast<int>(s == -inf);                                          \
      row[e] = kill ? 0.0f : y;                                                                             \
    }                                                                                                       \
  }                                                                                                         \
  /* Row reductions in 16 lanes side by side (GCC's vector extension: one zmm, two ymm or four xmm per   \
     step, whatever the level), then the lanes in order. The max passes over NaN (never greater). */        \
  TARGET float RowMax##SUFFIX(const float* __restrict x, I64 n) {                                           \
    const float ninf = -std::numeric_limits<float>::infinity();                                             \
    F32x16 m = {ninf, ninf, ninf, ninf, ninf, ninf, ninf, ninf, ninf, ninf, ninf, ninf, ninf, ninf, ninf, ninf}; \
    I64 e = 0;                                                                                              \
    for (; e + 16 <= n; e += 16) {                                                                          \
      F32x16 v;                                                                                             \
      std::memcpy(&v, x + e, sizeof v);                                                                     \
      m = v > m ? v : m;                                                                                    \
    }                                                                                                       \
    F32x8 a8, b8;                                                                                           \
    std::memcpy(&a8, &m, sizeof a8);                                                                        \
    std::memcpy(&b8, reinterpret_cast<const char*>(&m) + sizeof a8, sizeof b8);                             \
    a8 = b8 > a8 ? b8 : a8;                                                                                 \
    F32x4 a4, b4;                                                                                           \
    std::memcpy(&a4, &a8, sizeof a4);                                                                       \
    std::memcpy(&b4, reinterpret_cast<const char*>(&a8) + sizeof a4, sizeof b4);                            \
    a4 = b4 > a4 ? b4 : a4;                                                                                 \
    float r = a4[0];                                                                                        \
    for (int k = 1; k < 4; ++k) r = a4[k] > r ? a4[k] : r;                                                  \
    for (; e < n; ++e) r = x[e] > r ? x[e] : r;                                                             \
    return r;                                                                                               \
  }                                                                                                         \
  TARGET float Sum##SUFFIX(const float* __restrict x, I64 n) {                                              \
    F32x16 s = {};                                                                                          \
    I64 e = 0;                                                                                              \
    for (; e + 16 <= n; e += 16) {                                                                          \
      F32x16 v;                                                                                             \
      std::memcpy(&v, x + e, sizeof v);                                                                     \
      s += v;                                                                                               \
    }                                                                                                       \
    F32x8 a8, b8;                                                                                           \
    std::memcpy(&a8, &s, sizeof a8);                                                                        \
    std::memcpy(&b8, reinterpret_cast<const char*>(&s) + sizeof a8, sizeof b8);                             \
    a8 += b8;                                                                                               \
    F32x4 a4, b4;                                                                                           \
    std::memcpy(&a4, &a8, sizeof a4);                                                                       \
    std::memcpy(&b4, reinterpret_cast<const char*>(&a8) + sizeof a4, sizeof b4);                            \
    a4 += b4;                                                                                               \
    float r = (a4[0] + a4[2]) + (a4[1] + a4[3]);                                                            \
    for (; e < n; ++e) r += x[e];                                                                           \
    return r;                                                                                               \
  }                                                                                                         \
  /* y ← a·y + x (the running u of one row rescaled, then the tile's P̃V added): a product, then a sum. */ \
  TARGET void Axpby##SUFFIX(float a, float* __restrict y, const float* __restrict x, I64 n) {               \
    for (I64 e = 0; e < n; ++e) {                                                                           \
      const float ay = a * y[e];                                                                            \
      y[e] = ay + x[e];                                                                                     \
    }                                                                                                       \
  }                                                                                                         \
  TARGET bool AllFinite##SUFFIX(const float* __restrict x, I64 n) {                                         \
    std::uint32_t bad = 0;                                                                                  \
    for (I64 e = 0; e < n; ++e) bad |= (std::bit_cast<std::uint32_t>(x[e]) & 0x7f800000u) == 0x7f800000u;   \
    return bad == 0;                                                                                        \
  }                                                                                                         \
  TARGET void Cast##SUFFIX(const double* __restrict src, I64 n, float* __restrict dst) {                    \
    for (I64 e = 0; e < n; ++e) dst[e] = static_cast<float>(src[e]);                                        \
  }                                                                                                         \
  TARGET void CastT##SUFFIX(const double* __restrict src, I64 ld, I64 rows, I64 cols, float* __restrict dst) { \
    for (I64 c = 0; c < cols; ++c)                                                                          \
      for (I64 r = 0; r < rows; ++r) dst[c * rows + r] = static_cast<float>(src[r * ld + c]);               \
  }                                                                                                         \
  TARGET bool FitsF32##SUFFIX(const double* __restrict x, I64 n, double big, double tiny) {                 \
    int bad = 0;                                                                                            \
    for (I64 e = 0; e < n; ++e) {                                                                           \
      const double a = x[e] < 0 ? -x[e] : x[e];                                                             \
      bad |= (a > big) | ((a < tiny) & (a != 0.0));                                                         \
    }                                                                                                       \
    return bad == 0;                                                                                        \
  }

#define BW_TARGET_BASE
#define BW_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define BW_TARGET_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,prefer-vector-width=512")))

BW_KERNELS(Base, BW_TARGET_BASE, 4, 8)
#if defined(__x86_64__) && defined(__GNUC__)
BW_KERNELS(Avx2, BW_TARGET_AVX2, 4, 16)
BW_KERNELS(Avx512, BW_TARGET_AVX512, 8, 32)
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

void GemmF32(const float* A, I64 lda, const float* B, I64 ldb, float* C, I64 ldc, I64 m, I64 n, I64 k, float alpha) {
  switch (ActiveSimdLevel()) {
#if defined(__x86_64__) && defined(__GNUC__)
    case SimdLevel::kAvx512: return GemmAvx512(A, lda, B, ldb, C, ldc, m, n, k, alpha);
    case SimdLevel::kAvx2Fma: return GemmAvx2(A, lda, B, ldb, C, ldc, m, n, k, alpha);
#endif
    default: return GemmBase(A, lda, B, ldb, C, ldc, m, n, k, alpha);
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

void CastToF32(const double* src, I64 n, float* dst) {
  switch (ActiveSimdLevel()) {
#if defined(__x86_64__) && defined(__GNUC__)
    case SimdLevel::kAvx512: return CastAvx512(src, n, dst);
    case SimdLevel::kAvx2Fma: return CastAvx2(src, n, dst);
#endif
    default: return CastBase(src, n, dst);
  }
}

void CastTransposeToF32(const double* src, I64 ld, I64 rows, I64 cols, float* dst) {
  switch (ActiveSimdLevel()) {
#if defined(__x86_64__) && defined(__GNUC__)
    case SimdLevel::kAvx512: return CastTAvx512(src, ld, rows, cols, dst);
    case SimdLevel::kAvx2Fma: return CastTAvx2(src, ld, rows, cols, dst);
#endif
    default: return CastTBase(src, ld, rows, cols, dst);
  }
}

bool FitsF32(const double* x, I64 n, double largest, double below) {
  switch (ActiveSimdLevel()) {
#if defined(__x86_64__) && defined(__GNUC__)
    case SimdLevel::kAvx512: return FitsF32Avx512(x, n, largest, below);
    case SimdLevel::kAvx2Fma: return FitsF32Avx2(x, n, largest, below);
#endif
    default: return FitsF32Base(x, n, largest, below);
  }
}

float RowMaxF32(const float* x, I64 n) {
  switch (ActiveSimdLevel()) {
#if defined(__x86_64__) && defined(__GNUC__)
    case SimdLevel::kAvx512: return RowMaxAvx512(x, n);
    case SimdLevel::kAvx2Fma: return RowMaxAvx2(x, n);
#endif
    default: return RowMaxBase(x, n);
  }
}

float SumF32(const float* x, I64 n) {
  switch (ActiveSimdLevel()) {
#if defined(__x86_64__) && defined(__GNUC__)
    case SimdLevel::kAvx512: return SumAvx512(x, n);
    case SimdLevel::kAvx2Fma: return SumAvx2(x, n);
#endif
    default: return SumBase(x, n);
  }
}

void AxpbyF32(float a, float* y, const float* x, I64 n) {
  switch (ActiveSimdLevel()) {
#if defined(__x86_64__) && defined(__GNUC__)
    case SimdLevel::kAvx512: return AxpbyAvx512(a, y, x, n);
    case SimdLevel::kAvx2Fma: return AxpbyAvx2(a, y, x, n);
#endif
    default: return AxpbyBase(a, y, x, n);
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
