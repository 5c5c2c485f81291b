// decode_cuda.h — the split-KV decode kernel and its combine on the GPU (issue 34): host vectors in,
// host vectors out, plus device-resident benchmark entry points. Includes no CUDA header.
// Algorithm: Flash-Decoding (Dao, Haziza, Massa, Sizov, 2023). One thread block per (batch, KV head,
// row group, split): the q heads of a GQA group (and the q_len speculative queries) are the rows of one
// mma.sync m16n8k16 tile (16 or 32 rows), so K and V are read once for all of them; each of the 4 warps
// takes 16 of every B_c = 64 keys, keeping its own (m, l, O) over its keys (FlashAttention-2 Algorithm 1
// lines 6–12), K/V tiles stream through shared memory with a 3-stage (d = 128) or 4-stage (d = 64)
// cp.async pipeline; at the end the warps merge in shared memory and the block writes O_s (fp32) and
// lse_s = m·scale + ln l. The combine (one warp per query row) writes O = Σ_s e^{lse_s − lse} O_s,
// lse = ln Σ_s e^{lse_s} (Flash-Decoding's reduction, the engine's CombineVariant::kCorrect).
// With S = 1 (the no-split path) the blocks write O in bf16 directly and there is no combine.
// Paged caches read K/V rows through the block table (PagedAttention, Kwon et al. 2023, §4.1).
// Shapes, layouts and the traffic model: decode_plan.h. Errors: std::runtime_error naming the CUDA call.
#pragma once

#include "cuda/decode_plan.h"
#include "cuda/gpu_types.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace bw::cuda {

// TileRecord flags bit 2: the record of one combine thread block (q_tile = its index, kv_tile = 0,
// head = 0; bytes_loaded = the O_s and lse_s it read, bytes_written = the O it wrote).
constexpr std::uint32_t kTileCombine = 4u;

// Round to the nearest bf16 (ties to even), returned as float: what the kernel sees of an fp32 input.
inline float RoundToBf16(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u += 0x7fffu + ((u >> 16) & 1u);
  u &= 0xffff0000u;
  float r;
  std::memcpy(&r, &u, 4);
  return r;
}

// Host inputs in the layouts of decode_plan.h, fp32 (rounded to bf16 on upload).
struct DecodeInputs {
  std::vector<float> q;           // (B, H_q, q_len, d)
  std::vector<float> k, v;        // (B, H_kv, N, d), or (physical_pages, page_size, H_kv, d) when paged
  std::vector<int> block_table;   // (B, ⌈N / page_size⌉), paged only
  float scale = 0.f;              // 0 means 1/√d
};

struct DecodeOptions {
  int forced_splits = 0;   // 0: the plan's heuristic; 1: the no-split path; s: s splits
  bool records = false;    // one TileRecord per computed K/V tile and per combine block (device memory)
};

struct DecodeResult {
  DecodePlan plan;
  std::vector<float> o;               // (B, H_q, q_len, d), from bf16
  std::vector<float> lse_part;        // (B·H_q·q_len, S) the splits' lse_s (empty when S = 1)
  DecodeCounters counters;            // as the kernels counted them (device atomics, per block)
  std::vector<TileRecord> records;    // split records by (block, tile), then the combine's; every ready word checked
  int ctas_per_sm = 0;                // occupancy of the split kernel (the plan's slots = sm_count × this)
  double ms = 0;                      // CUDA-event time of this one run (split kernel + combine)
};

DecodeResult RunDecode(const DecodeShape& shape, const DecodeInputs& in, const DecodeOptions& opt = {});

// The plan RunDecode / BenchDecode use on this device (its SM count and the kernel's occupancy).
DecodePlan PlanDecodeOnDevice(const DecodeShape& shape, int forced_splits = 0);

// Benchmark on device-resident random data (no host copies in the loop): after a spin kernel that
// holds the GPU while the launches queue, `iters` runs (split kernel + combine) back to back between
// two events; ms = elapsed / iters. Counters stay on (per-block atomics), records off.
struct DecodeBenchResult {
  DecodePlan plan;
  int iters = 0;                  // runs timed (iters ≤ 0 asks for about 30 ms of them, 10 … 2000)
  double ms = 0;                  // per run
  std::int64_t kv_bytes = 0;      // K + V bytes read (the model), the figure's numerator
  std::int64_t hbm_bytes = 0;     // every modelled read and write
  double kv_gbps = 0, hbm_gbps = 0;
  DecodeCounters counters;        // of the last run
};
DecodeBenchResult BenchDecode(const DecodeShape& shape, int forced_splits, int iters);

// cudaMemcpy device-to-device of `bytes`, `iters` copies back to back after a spin: GB/s counted as
// 2·bytes (read + write) per copy, and as bytes per copy.
struct CopyBench { double ms = 0, gbps_read_write = 0, gbps_one_way = 0; };
CopyBench BenchCopy(std::size_t bytes, int iters);

}  // namespace bw::cuda
