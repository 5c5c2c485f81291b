// decode_plan.h — the launch plan and exact HBM traffic model of the split-KV decode kernel
// (kernel_decode.cu, issue 34). Plain C++ (no CUDA): the app, the CPU tests and the GPU host side
// share it. The split count comes from the engine's ChooseSplitCount (src/engine/split_kv.h, the
// flash-attention repository's num_splits_heuristic), so the GPU and the lesson split alike.
// Sources: Flash-Decoding (Dao, Haziza, Massa, Sizov, 2023): split the KV cache across thread blocks,
// each writes a partial O_s and its lse_s, a combine rescales and sums; FlashAttention-2 (Dao 2023)
// Algorithm 1 for each split's inner loop; PagedAttention (Kwon et al. 2023, §4.1) for the block table.
//
// Shapes (row-major, bf16 unless said):
//   Q  (B, H_q, q_len, d)          O (B, H_q, q_len, d)
//   K, V contiguous: (B, H_kv, N, d)
//   K, V paged:      (physical_pages, page_size, H_kv, d), block_table (B, ⌈N / page_size⌉) int32
//   O_s  (B·H_q·q_len, S, d) fp32, lse_s (B·H_q·q_len, S) fp32 — only when S > 1
// The q_len queries of a row are the last q_len positions of the sequence (speculative decoding): query
// t (0-based) sees keys 0 … N − q_len + t (causal, bottom-right).
// Units: *_elems are element counts, *_bytes are bytes; bf16 = 2 bytes, fp32 and int32 = 4.
#pragma once

#include "cuda/gpu_types.h"

#include <cstdint>
#include <string>
#include <vector>

// (decode_plan.cpp includes engine/split_kv.h, which is C++20; the .cu files that include this header are C++17)
namespace bw::engine { struct SplitKvCounters; }

namespace bw::cuda {

constexpr int kDecodeBc = 64;        // B_c: keys per K/V tile (each of the 4 warps takes 16)
constexpr int kDecodeMaxRows = 32;   // query rows (q heads of a GQA group × q_len) one thread block holds

struct DecodeShape {
  int batch = 1;        // B, 1 … 64 measured
  int q_len = 1;        // 1 … 8
  int n_kv = 1024;      // N, keys in the cache
  int heads_q = 8;      // H_q
  int heads_kv = 8;     // H_kv, H_q / H_kv ∈ {1, 4, 8} measured (any divisor works)
  int d = 128;          // head dim of q, K, V and O: 64 or 128
  int page_size = 0;    // 0 = contiguous cache; else positions per page (paged, PagedAttention)
  int physical_pages = 0;  // paged only: pages in the pool (≥ B · ⌈N / page_size⌉)
  int Group() const { return heads_q / heads_kv; }
  int PagesPerSeq() const { return page_size > 0 ? (n_kv + page_size - 1) / page_size : 0; }
};

// The launch: one thread block per (batch, KV head, row group, split); the combine one warp per query row.
struct DecodePlan {
  DecodeShape shape;
  int group = 1;                  // H_q / H_kv: q heads sharing one K/V head
  int rows = 1;                   // group · q_len: query rows per KV head
  int row_groups = 1;             // ⌈rows / kDecodeMaxRows⌉: K/V are read once per row group
  int rows_per_cta = 16;          // 16 or 32 (mma.sync row tiles of 16)
  int tiles = 0;                  // T = ⌈N / B_c⌉
  int splits = 1;                 // S
  std::vector<int> split_tiles;   // tiles per split (engine EvenSplit: earlier splits larger)
  std::vector<int> split_begin;   // first key of each split, S + 1 entries (last = N)
  std::int64_t ctas_unsplit = 0;  // B · H_kv · row_groups
  std::int64_t grid = 0;          // ctas_unsplit · S
  int slots = 0;                  // sm_count · ctas_per_sm, the "multiprocessors" the heuristic fills
  bool Split() const { return splits > 1; }  // S = 1: O written directly, no O_s, lse_s, combine
};

// forced_splits > 0 overrides the heuristic (clamped to [1, min(T, 128)]: the combine holds 128 weights); forced_splits = 1 is the no-split path.
// Throws std::invalid_argument naming the field ("batch", "q_len", "n_kv", "heads", "d", "page_size",
// "physical_pages", "sm_count") and the reason.
DecodePlan PlanDecode(const DecodeShape& shape, int sm_count, int ctas_per_sm = 2, int forced_splits = 0);

// HBM traffic of one run, per tensor, in the kernel's model (elements and bytes):
//   q        read: B·H_q·q_len·d per split (each split's thread block reads its rows once)
//   k, v     read: B·H_kv·row_groups·N·d (each key once per KV head — GQA shares it — and row group)
//   table    read: B·H_kv·row_groups·Σ_s pages touched by split s (paged only; int32)
//   o_part   written by the splits, read by the combine: B·H_q·q_len·S·d (fp32; S > 1 only)
//   lse_part written by the splits, read by the combine: B·H_q·q_len·S (fp32; S > 1 only)
//   o        written: B·H_q·q_len·d (bf16), by the combine (S > 1) or by the splits' kernel (S = 1)
struct DecodeCounters {
  TensorTraffic q, k, v, table, o_part, lse_part, o;
  std::int64_t ctas = 0;          // thread blocks of the split kernel
  std::int64_t tiles = 0;         // K/V tiles computed (Σ over blocks)
  std::int64_t combine_rows = 0;  // rows the combine merged (0 when S = 1)
  std::int64_t ReadBytes() const { return q.read_bytes + k.read_bytes + v.read_bytes + table.read_bytes + o_part.read_bytes + lse_part.read_bytes + o.read_bytes; }
  std::int64_t WriteBytes() const { return q.write_bytes + k.write_bytes + v.write_bytes + table.write_bytes + o_part.write_bytes + lse_part.write_bytes + o.write_bytes; }
  std::int64_t KvBytes() const { return k.read_bytes + v.read_bytes; }
};
bool operator==(const DecodeCounters& a, const DecodeCounters& b);
std::string ToString(const DecodeCounters& c);  // one line, for test failures

DecodeCounters PredictDecodeCounters(const DecodePlan& plan);

// The same model in the engine's terms for a one-head problem (B = H_q = H_kv = q_len = 1): the
// split path equals RunSplitKv(...).counters, the no-split path RunSplitKv(...).unsplit_counters.
bw::engine::SplitKvCounters ToEngineCounters(const DecodeCounters& c);

// Pages of the block table split s touches (paged only; 0 otherwise).
int PagesTouched(const DecodePlan& plan, int split);

}  // namespace bw::cuda
