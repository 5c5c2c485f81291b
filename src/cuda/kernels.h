// kernels.h — internal launch functions of the CUDA backend (device pointers in, nothing returned).
// Included by host.cpp and the .cu files only; the public interface is attention_cuda.h / gpu_run.h.
// Shapes: Q (heads, N_q, d), K (heads, N_k, d), V (heads, N_k, d_v), O (heads, N_q, d_v),
// lse and row_masked (heads, N_q), S and P (heads, N_q, N_k). Counters: dev::CounterSlot order,
// in elements (host multiplies by the element size).
#pragma once

#include "cuda/attention_cuda.h"
#include "cuda/device_common.cuh"

#include <cstdlib>
#include <string>

namespace bw::cuda::detail {

struct DevProblem {
  int n_q = 0, n_k = 0, d = 0, d_v = 0, heads = 1;
  float scale = 0.f;
  dev::MaskDev mask;
};

// The grid's order (issue 33). Under a causal mask the Q tiles differ in work (tile i of a square causal
// problem has i + 1 K/V tiles). Head-major, (T_r, heads), runs one head's Q tiles together (they share its
// K/V in L2) from the last, and leaves the last heads' short diagonal tiles for the end. Heads fastest,
// (heads, T_r), runs every head's longest tiles in the first waves and the short ones of all heads last.
// Heads fastest is the default under a causal mask (H100, hopper_bench grid in one call: 1.03-1.22x on
// causal N 1k-8k for both kernels; at 16k 0.99 for the Hopper kernel, 1.01-1.10 for FA-2; docs/performance.md "Grid order"); BW_TILE_ORDER=rows
// selects head-major for an A/B. Without a causal mask every tile has the same work and the order stays
// head-major.
// T_r goes to gridDim.y in that order (at most 65535): past that the grid stays head-major.
inline bool HeadsFastest(const DevProblem& p, int t_r) {
  const bool causal = p.mask.kind == 1 || p.mask.kind == 2;
  const char* e = std::getenv("BW_TILE_ORDER");
  return causal && t_r <= 65535 && !(e != nullptr && std::string(e) == "rows");
}
// The grid for the order the kernel's arguments carry (decided once, with HeadsFastest, when they are made:
// a launch must not read the environment again and map blocks to tiles differently from its arguments).
inline dim3 TileGrid(bool heads_fastest, const DevProblem& p, int t_r) {
  return heads_fastest ? dim3(p.heads, t_r) : dim3(t_r, p.heads);
}

// Materialising path (Algorithm 0): three kernels, S and P in global memory.
void LaunchMaterialising(const DevProblem& p, const float* q, const float* k, const float* v, float* s,
                         float* pm, float* o, float* lse, std::uint8_t* row_masked, cudaStream_t st);

// Tiled FlashAttention-2 forward in fp32. tile_class: (T_r, T_c) bytes, 0 skip / 1 full / 2 partial.
// records: (heads, T_r, T_c) slots or null; counters: dev::kNumCounterSlots u64 or null.
size_t TiledFp32SmemBytes(const DevProblem& p, int b_r, int b_c);
void LaunchTiledFp32(const DevProblem& p, int b_r, int b_c, const float* q, const float* k, const float* v,
                     const std::uint8_t* tile_class, float* o, float* lse, std::uint8_t* row_masked,
                     TileRecord* records, unsigned long long* counters, unsigned long long pace_ns,
                     bool live, cudaStream_t st);

// Tensor-core kernel: q, k, v, o are 16-bit (bf16 when bf16, else fp16), row stride D_pad elements,
// D_pad in {32, 64, 128}, B_r = b_r (64 or 128: TensorCoreTiling), B_c = 64; `p.d` is D_pad here.
constexpr int kTcBc = 64;
void LaunchTensorCore(const DevProblem& p, int b_r, bool bf16, const void* q, const void* k, const void* v,
                      const std::uint8_t* tile_class, void* o, float* lse, std::uint8_t* row_masked,
                      TileRecord* records, unsigned long long* counters, unsigned long long pace_ns,
                      bool live, cudaStream_t st);

}  // namespace bw::cuda::detail
