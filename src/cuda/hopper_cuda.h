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

#include <cstdint>
#include <string>
#include <vector>

namespace bw::cuda {

constexpr Tiling kHopperTiling{128, 128};
constexpr int HopperPadD(int d) { return d <= 64 ? 64 : 128; }

// Warp phases (issue 33, "the warps, recorded"). In a sample of CTAs the lead thread of each warpgroup
// (producer, consumer 1, consumer 2) logs a mark each time the warpgroup enters a phase: the SM clock
// (clock64, cycles) and the tile j; a phase lasts until the warpgroup's next mark, the last mark is kMarkEnd.
// Each sampled CTA also keeps the SM clock and %globaltimer at its start and end, so cycles convert to ns
// by the CTA's own measured rate (no assumed clock). Phase codes are cuda::WarpPhase's values.
constexpr unsigned kMarkTmaIssue = 0, kMarkTmaWait = 1, kMarkWgmmaS = 2, kMarkSoftmax = 3, kMarkWgmmaPV = 4, kMarkWrite = 5,
                   kMarkIdle = 6, kMarkEnd = 255;
struct HopperWarpMark {
  std::uint64_t clk = 0;  // SM clock cycles (clock64)
  std::uint32_t j = 0;    // K/V tile
  std::uint32_t phase = kMarkEnd;
};
struct HopperWarpCta {
  std::uint64_t clk0 = 0, clk1 = 0;  // SM clock at the CTA's start and end
  std::uint64_t gt0 = 0, gt1 = 0;    // %globaltimer (ns) at the same two points
  std::uint32_t cta = 0, smid = 0, q_tile = 0, head = 0;
  std::uint32_t count[3] = {0, 0, 0};  // marks logged per warpgroup (may exceed the capacity: then truncated)
  std::uint32_t pad = 0;
};
static_assert(sizeof(HopperWarpMark) == 16 && sizeof(HopperWarpCta) == 64, "shared with the GPU");

// The phases of the sampled CTAs as records: `marks` holds ctas.size() * 3 logs of `cap` marks each. Times
// are ns since the CTA's first stamp, cycles scaled by (gt1 - gt0) / (clk1 - clk0) of that CTA; q_tile is
// head * t_r + i. A log cut at `cap` ends at its last mark (its phase is dropped). A CTA that never ran
// (clk1 = 0) gives nothing. `ns_per_cycle`, when given, receives each CTA's rate.
std::vector<WarpPhaseRecord> WarpPhasesFromMarks(const std::vector<HopperWarpCta>& ctas, const std::vector<HopperWarpMark>& marks,
                                                 int cap, int t_r, std::vector<double>* ns_per_cycle = nullptr);

// A GPU of compute capability 9.0 (H100, H200) is present; `why` says why not.
bool HopperAvailable(std::string* why = nullptr);

// bf16 inputs (rounded from the fp32 host data), fp32 accumulation, bf16 O, fp32 L. Records (one per
// (head, i, j); times are the first consumer warpgroup's, in %globaltimer ns; written at the CTA's end)
// when opt.record_tiles; warp phases of opt.warp_sample_ctas CTAs (spread evenly over the grid) in
// run.warp_phases (the pipelined schedules log every phase; schedule 0 only Q, write and end);
// opt.pace_ns is not supported (must be 0). run.algorithm is TensorCoreBf16 (same
// traffic model as the FA-2 kernels, with B_r = B_c = 128).
Output RunHopper(const Problem& p, const Options& opt = {});

// The traffic this kernel counts (elements; bytes = 2 per element, L 4): PredictCounters' tiled model
// with B_r = B_c = 128 and D = HopperPadD(max(d, d_v)). No GPU needed.
Counters PredictHopperCounters(const Problem& p);

// Peer benchmark (bench/gpu/hopper_bench): one kernel on device-resident random bf16 data,
// heads x N x d, timed back to back: a spin kernel holds the GPU while `iters` launches are queued (about
// 30 ms of them when iters <= 0), then (elapsed between two events) / iters. kernel: "hopper" or "fa2"
// (the tensor-core FA-2 kernel, its own tiling). counters: tallies on while timed; records and warp_ctas
// (Hopper only): tile records and warp phases written while timed.
struct PeerBenchConfig {
  std::string kernel = "hopper";
  int n = 4096, d = 128, heads = 16;
  bool causal = false;
  bool counters = false;
  bool records = false;  // hopper only: per-tile records written (as a live run does)
  int warp_ctas = 0;     // hopper only: warp phases logged in this many CTAs
  int iters = 0;
};
struct PeerBenchResult { double ms = 0; int iters = 0; double tflops = 0; Counters counters; };
PeerBenchResult PeerBench(const PeerBenchConfig& c);

}  // namespace bw::cuda
