// attention_cuda.h — the CUDA backend's plain C++ interface: host vectors in, host vectors out.
// Kernels: the materialising path (Dao et al. 2022, Algorithm 0: S, P in HBM), the tiled
// FlashAttention-2 forward in fp32 (Dao 2023, Algorithm 1: one block per Q tile, K/V tiles through
// shared memory, m/l/u in registers, O and L written once) and a bf16/fp16 tensor-core version of it
// (mma.sync m16n8k16, ldmatrix, cp.async double buffering). Includes no CUDA header.
// Errors: every function throws std::runtime_error naming the CUDA call and its error string.
#pragma once

#include "cuda/gpu_types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bw::cuda {

// One attention problem (one or several heads of equal shape).
// Q: (heads, N_q, d)  K: (heads, N_k, d)  V: (heads, N_k, d_v)  O: (heads, N_q, d_v)  row-major, fp32.
struct Problem {
  int n_q = 0, n_k = 0, d = 0, d_v = 0, heads = 1;
  float scale = 0.f;  // usually 1/sqrt(d)
  std::vector<float> q, k, v;
  MaskDesc mask;      // the same mask for every head
};

struct Tiling { int b_r = 64, b_c = 64; };  // B_r query rows, B_c key rows per tile (elements)

// The tensor-core kernel's tiling: head dim zero-padded to 32, 64 or 128; B_c = 64; 4 warps of 32 query
// rows (B_r = 128: each K/V fragment feeds two MMAs) except under a causal mask, where 16 rows per warp
// (B_r = 64) skip more of the masked triangle and balance better: measured on the H200, 128 rows were
// 15-25 % faster without a mask and up to 20 % slower with one.
constexpr int TensorCorePadD(int d) { return d <= 32 ? 32 : d <= 64 ? 64 : 128; }
constexpr Tiling TensorCoreTiling(MaskKind mask) {
  return Tiling{(mask == MaskKind::CausalTopLeft || mask == MaskKind::CausalBottomRight) ? 64 : 128, 64};
}

struct Options {
  bool record_tiles = true;      // per-tile records (SM id, times, bytes)
  std::uint64_t pace_ns = 0;     // slow motion: each computed tile lasts at least this long (tiled kernels)
  int warp_sample_ctas = 0;      // Hopper kernel only: log each warpgroup's phases in this many CTAs (hopper_cuda.h)
};

struct Output {
  std::vector<float> o;                   // (heads, N_q, d_v); fully masked rows are 0
  std::vector<float> lse;                 // (heads, N_q) log-sum-exp of the scaled, masked scores; -inf if fully masked
  std::vector<std::uint8_t> row_masked;   // (heads, N_q) 1 = every key masked (row flagged, output 0)
  RunSummary run;                         // counters, tile records, time
};

// Whether a usable GPU is present; `why` says why not (no device, driver too old, ...).
bool GpuAvailable(std::string* why = nullptr);
std::string DeviceName();
int SmCount();  // multiprocessors of device 0

// Limits: tiled fp32 needs d, d_v <= 256, B_r in [1, 64] and B_c in [1, 128]; tensor-core needs d, d_v <= 128
// (zero-padded to 32, 64 or 128) and uses TensorCoreTiling(d, d_v) (there is no `tiling` argument).
Output RunMaterialising(const Problem& p);
Output RunTiledFp32(const Problem& p, const Tiling& t, const Options& opt = {});
Output RunTensorCore(const Problem& p, bool bf16, const Options& opt = {});

// The traffic model these kernels count, computed on the host (no GPU needed):
// tiled: Q_i loaded once per Q tile, K_j and V_j once per (i, j) tile that is not fully masked,
// O_i and L_i written once per Q tile (FlashAttention-2 Algorithm 1, lines 4, 6, 12, 13).
// materialising: Q, K read once, S written and read once, P written and read once, V read once,
// O written once (Algorithm 0, lines 1-3; RunMaterialising also writes L and the row flags for
// checking, N_q floats + N_q bytes outside this model; the engine's RunReference counts no L either;
// the benchmark does not write them). elem_bytes: 4 for fp32, 2 for bf16/fp16 (L stays fp32).
Counters PredictCounters(const Problem& p, Algorithm a, const Tiling& t);

// Tile classes for the mask (row-major T_r x T_c): 0 = fully masked (skip), 1 = no element masked,
// 2 = partially masked or tail. Shared by the kernels and PredictCounters.
std::vector<std::uint8_t> ClassifyTiles(const Problem& p, const Tiling& t);

// Device-resident benchmark entry points (bench/cuda_attention_bench): allocate once, time many.
struct BenchConfig {
  Algorithm algorithm = Algorithm::TiledFp32;
  int n = 1024, d = 64, heads = 1;
  bool causal = false;
  Tiling tiling;
  bool record_tiles = false;
  // With record_tiles, how the records leave the GPU while the kernel runs (issue 15): 0 not at all
  // (read after it); 1 the whole record buffer copied to pinned host memory on a second stream, back to
  // back until the kernel ends (GpuRun's transport, at its most eager); 2 written into mapped host
  // memory behind a system fence per 8 records (issue 6's transport).
  int live = 0;
  int warmup = 3, iters = 10;
};
struct BenchResult { double median_ms = 0, min_ms = 0; Counters counters; double copies_per_iter = 0; };
BenchResult Benchmark(const BenchConfig& c);

}  // namespace bw::cuda
