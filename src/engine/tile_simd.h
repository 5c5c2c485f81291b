// Internal to the engine (not a public header): the hot float tile kernels of the tiled orders —
// S = Q_i K_jᵀ, P̃ = e^{S − m} and P̃ V_j (FA-2 Algorithm 1 lines 8–10) — compiled three times in
// tile_simd.cpp (AVX-512, AVX2 + FMA, and plain x86-64) and chosen at run time from what the CPU
// supports (__builtin_cpu_supports), so the default build still runs on any x86-64. Only the
// arithmetic differs between levels (FMA, summation order): results stay within the float tolerance
// of the reference (tests/engine/tile_simd_test.cpp); counters and traces never depend on it. The
// run and the trace replay both come here, so a replayed (m, l, u) is bit-identical to the run's.
// Double runs keep Eigen's kernels.
#pragma once

#include <cstdint>

namespace bw::engine::detail {

enum class SimdLevel : std::uint8_t { kBaseline, kAvx2Fma, kAvx512 };
const char* ToString(SimdLevel l);  // "x86-64", "avx2+fma", "avx512"

// The best level this CPU supports (x86-64 baseline on other architectures).
SimdLevel SupportedSimdLevel();
// The level the kernels use now: SupportedSimdLevel() unless overridden. Tests and benchmarks may
// force a lower one (a level the CPU lacks is lowered to SupportedSimdLevel()). Not for use while
// a run is in progress on another thread.
SimdLevel ActiveSimdLevel();
void SetSimdLevel(SimdLevel l);

// C (m × n) = alpha · (A (m × k) · B (k × n)), all row-major with leading dimensions lda, ldb, ldc
// (elements): the sum over k first, then one multiplication by alpha (bit-identical to computing the
// product and scaling it after). k = 0 gives zeros. IEEE arithmetic throughout (a NaN or ±∞ in A or B
// propagates as in the plain sum).
void GemmF32(const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float* C, std::int64_t ldc,
             std::int64_t m, std::int64_t n, std::int64_t k, float alpha = 1.0f);

// row[x] ← e^{row[x] − shift} for x < n, |relative error| ≤ 2 ulp-ish (Cephes expf polynomial):
// −∞ → exactly 0 when may_have_masked (a masked key never contributes), NaN stays NaN, results
// below the smallest normal float flush to 0, above the largest finite give +∞.
void ExpShiftedF32(float* row, std::int64_t n, float shift, bool may_have_masked);

// The largest of x[0…n) (−∞ when n = 0); NaN entries are passed over (e^{NaN − m} keeps them NaN).
float RowMaxF32(const float* x, std::int64_t n);
// The sum of x[0…n): 16 running sums (element e into sum e mod 16 for the whole blocks of 16), folded
// in halves (sums k and k + 8, then k and k + 4, then (0 + 2) + (1 + 3)), then the rest one by one.
float SumF32(const float* x, std::int64_t n);
// y[e] ← a·y[e] + x[e] for e < n.
void AxpbyF32(float a, float* y, const float* x, std::int64_t n);

// Whether none of x[0…n) is ±∞ or NaN (the exponent bits are not all ones).
bool AllFiniteF32(const float* x, std::int64_t n);

// dst[e] = (float) src[e] for e < n: a tile "loaded from HBM" into the float working precision.
void CastToF32(const double* src, std::int64_t n, float* dst);
// dst (cols × rows, row-major) = (float) srcᵀ, src (rows × cols) row-major with leading dimension ld
// (elements): K_j (B_c × d) to K_jᵀ (d × B_c) in the same pass as the conversion.
void CastTransposeToF32(const double* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, float* dst);
// Whether every x[0…n) keeps its magnitude class in float: |x| ≤ largest and (x = 0 or |x| ≥ below).
// A NaN passes (it stays NaN in float); the engine reports inputs that fail one by one.
bool FitsF32(const double* x, std::int64_t n, double largest, double below);

}  // namespace bw::engine::detail
