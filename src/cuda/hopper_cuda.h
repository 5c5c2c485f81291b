// hopper_cuda.h — the Hopper (sm_90a) FlashAttention forward kernel's plain C++ interface (issue 33).
// Design of FlashAttention-3 (Shah et al. 2024, §3.1 warp specialisation and producer/consumer
// pipelining with TMA and wgmma): a producer warp copies Q_i once and K_j, V_j through a multi-stage
// shared-memory ring with the tensor copy engine (TMA), completing on mbarriers; two consumer warpgroups
// of 64 query rows each compute S = Q K_j^T and O += P V_j with wgmma (bf16 in, fp32 accumulate) and the
// online softmax of FlashAttention-2 (Dao 2023, Algorithm 1) in registers; setmaxnreg moves registers
// from the producer to the consumers. Tiles B_r = 128 query rows, B_c = 128 keys; head dim zero-padded
// to D = 64 or 128 (d, d_v <= 128). Fully masked tiles are never loaded; partially masked or tail tiles
// are masked element by element. Includes no CUDA header.
// Shapes as attention_cuda.h: Q (heads, N_q, d), K (heads, N_k, d), V (heads, N_k, d_v), O (heads, N_q, d_v).
// Errors: std::runtime_error naming the CUDA call (or "no sm_90 device"), std::invalid_argument for sizes.
#pragma once

#include "cuda/attention_cuda.h"

#include <string>

namespace bw::cuda {

constexpr Tiling kHopperTiling{128, 128};
constexpr int HopperPadD(int d) { return d <= 64 ? 64 : 128; }

// A GPU of compute capability 9.0 (H100, H200) is present; `why` says why not.
bool HopperAvailable(std::string* why = nullptr);

// bf16 inputs (rounded from the fp32 host data), fp32 accumulation, bf16 O, fp32 L. Records (one per
// (head, i, j); times are the first consumer warpgroup's, in %globaltimer ns; written at the CTA's end)
// when opt.record_tiles; opt.pace_ns is not supported (must be 0). run.algorithm is TensorCoreBf16 (same
// traffic model as the FA-2 kernels, with B_r = B_c = 128).
Output RunHopper(const Problem& p, const Options& opt = {});

// The traffic this kernel counts (elements; bytes = 2 per element, L 4): PredictCounters' tiled model
// with B_r = B_c = 128 and D = HopperPadD(max(d, d_v)). No GPU needed.
Counters PredictHopperCounters(const Problem& p);

// Peer benchmark (bench/gpu/hopper_bench): one kernel on device-resident random bf16 data,
// heads x N x d, timed back to back: a spin kernel holds the GPU while `iters` launches are queued (about
// 30 ms of them when iters <= 0), then (elapsed between two events) / iters. kernel: "hopper" or "fa2"
// (the tensor-core FA-2 kernel, its own tiling). counters: tallies on while timed (records never).
struct PeerBenchConfig {
  std::string kernel = "hopper";
  int n = 4096, d = 128, heads = 16;
  bool causal = false;
  bool counters = false;
  int iters = 0;
};
struct PeerBenchResult { double ms = 0; int iters = 0; double tflops = 0; Counters counters; };
PeerBenchResult PeerBench(const PeerBenchConfig& c);

}  // namespace bw::cuda
