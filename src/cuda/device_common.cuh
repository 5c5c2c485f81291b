// device_common.cuh — small device helpers shared by the kernels: %smid, %globaltimer, the mask
// predicate (the engine's mask kinds and causal alignments) and the live tile-record writer.
// Record protocol: one thread owns a slot and writes the fields, then the ready word. In device memory
// (the default, also for live runs since issue 15: GpuRun copies the records on a second stream while
// the kernel runs) the ready word is RecordSeal(fields) and there is no fence: the host accepts only
// copies whose seal matches. In mapped host memory (GpuRunOptions::transport = kMappedHost, the issue 6
// path kept for comparison) a __threadfence_system() precedes ready = 1. No atomics on host words.
#pragma once

#include "cuda/gpu_types.h"

#include <cstdint>
#include <cuda_runtime.h>

namespace bw::cuda::dev {

__device__ __forceinline__ unsigned SmId() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

// This block's Q tile and head under kernels.h's TileGrid: the Q tiles run from the last (the most K/V
// tiles under a causal mask), heads fastest or head-major as the grid's shape says.
__device__ __forceinline__ void TileOfBlock(bool heads_fastest, int& i_tile, int& head) {
  if (heads_fastest) {
    i_tile = gridDim.y - 1 - blockIdx.y;
    head = blockIdx.x;
  } else {
    i_tile = gridDim.x - 1 - blockIdx.x;
    head = blockIdx.y;
  }
}

__device__ __forceinline__ unsigned long long GlobalTimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Mask as the kernels see it; the arrays live in device memory (null when unused).
struct MaskDev {
  int kind = 0;  // MaskKind
  int n_q = 0, n_k = 0;
  const std::uint8_t* key_keep = nullptr;  // (N_k)
  const std::uint8_t* keep = nullptr;      // (N_q, N_k)
};

// true when query row i may attend to key j (0 <= i < N_q, 0 <= j < N_k).
__device__ __forceinline__ bool Keep(const MaskDev& m, int i, int j) {
  switch (m.kind) {
    case 1: return j <= i;                         // causal, top-left (PyTorch SDPA)
    case 2: return j <= i + (m.n_k - m.n_q);       // causal, bottom-right (flash-attn >= 2.1)
    case 3: return m.key_keep[j] != 0;             // key padding
    case 4: return m.keep[(long long)i * m.n_k + j] != 0;  // explicit matrix
    default: return true;
  }
}

// Per-block traffic tallies, summed into global counters with one atomicAdd each at block end.
enum CounterSlot { kQRead = 0, kKRead, kVRead, kORead, kOWrite, kLWrite, kTiles, kSkipped, kRowsMasked, kNumCounterSlots };

// Writes the fields of one record; its ready word is left for PublishRecords.
__device__ __forceinline__ void WriteRecordFields(TileRecord* slot, const TileRecord& r) {
  volatile TileRecord* s = slot;
  s->t_start_ns = r.t_start_ns;
  s->t_end_ns = r.t_end_ns;
  s->q_tile = r.q_tile;
  s->kv_tile = r.kv_tile;
  s->bytes_loaded = r.bytes_loaded;
  s->bytes_written = r.bytes_written;
  s->smid = r.smid;
  s->flags = r.flags;
  s->head = r.head;
}

// Live records (mapped host memory the CPU polls while the kernel runs): sets the ready word of the
// `count` consecutive slots ending at `last`, all written by this thread, after one system-scope
// fence, so every field of those records reaches the host before any of their ready words. A system
// fence costs about a microsecond, so at full speed a block publishes up to 8 records per fence (and
// always at its last tile); with a pace, every record. Records in device memory (read after the
// kernel, whose end orders them) set `ready` right after the fields, with no fence.
__device__ __forceinline__ void PublishRecords(TileRecord* last, int count) {
  __threadfence_system();
  // (1, not the seal: reading the fields back over PCIe to hash them would cost more than the fence)
  for (int i = 0; i < count; ++i) reinterpret_cast<volatile TileRecord*>(last - i)->ready = 1u;
}

// Slow motion: the calling thread waits until `ns` have passed since `t0`.
__device__ __forceinline__ void Pace(unsigned long long t0, unsigned long long ns) {
  if (ns == 0) return;
  while (GlobalTimer() < t0 + ns) { __nanosleep(1000); }
}

// Thread 0's bookkeeping at the end of one (Q tile i, K/V tile j) step, shared by every tiled kernel:
// the pace, then the record (bytes as the kernel moved them), published at once when the records sit in
// device memory, or every `publish_every` records (and at the last tile) behind a fence when live.
struct TileStep {
  unsigned long long t0;
  unsigned i_tile, j, head, smid;
  int cls;                 // 0 skipped, 1 full, 2 partial or tail
  unsigned bytes_loaded, bytes_written;
  bool last;               // j == T_c - 1
};
// Called for computed tiles, and for skipped ones only when live (see WriteSkippedRecords).
template <bool LIVE>
__device__ __forceinline__ void FinishTileStep(const TileStep& st, TileRecord* records, int t_r, int t_c,
                                               unsigned long long pace_ns, int publish_every, int& unpublished) {
  if (st.cls != 0) Pace(st.t0, pace_ns);  // slow motion applies to computed tiles; skipping is instant
  if (!records) return;
  TileRecord rec;
  rec.t_start_ns = st.t0;
  rec.t_end_ns = GlobalTimer();
  rec.q_tile = st.i_tile;
  rec.kv_tile = st.j;
  rec.bytes_loaded = st.bytes_loaded;
  rec.bytes_written = st.bytes_written;
  rec.smid = st.smid;
  rec.flags = (st.cls == 0 ? kTileSkipped : 0u) | (st.cls == 2 ? kTilePartial : 0u);
  rec.head = st.head;
  TileRecord* slot = records + ((long long)st.head * t_r + st.i_tile) * t_c + st.j;
  WriteRecordFields(slot, rec);
  if (!LIVE) {
    // device memory: read after the kernel, or copied while it runs (GpuRun), which checks the seal
    reinterpret_cast<volatile TileRecord*>(slot)->ready = RecordSeal(rec);
  } else if (++unpublished >= publish_every || st.last) {
    PublishRecords(slot, unpublished);
    unpublished = 0;
  }
}

// Records in device memory (not live): the records of skipped tiles are written at the block's end by
// all its threads, one writer per slot, instead of one after another by thread 0 — under a causal mask
// a Q tile's skipped tiles all come after its last computed one, and writing up to T_c of them serially
// while the other warps wait cost the tensor-core kernel 5-8 %. Their start and end time is the
// block's end. q_bytes / ol_bytes: what the j = 0 and j = T_c - 1 records carry if those are skipped.
__device__ __forceinline__ void WriteSkippedRecords(const std::uint8_t* cls_row, TileRecord* records, int t_r, int t_c,
                                                    unsigned i_tile, unsigned head, unsigned smid, unsigned q_bytes,
                                                    unsigned ol_bytes) {
  const unsigned long long now = GlobalTimer();
  TileRecord* row = records + ((long long)head * t_r + i_tile) * t_c;
  for (int j = threadIdx.x; j < t_c; j += blockDim.x) {
    if (cls_row[j] != 0) continue;
    TileRecord rec;
    rec.t_start_ns = rec.t_end_ns = now;
    rec.q_tile = i_tile;
    rec.kv_tile = j;
    rec.bytes_loaded = j == 0 ? q_bytes : 0u;
    rec.bytes_written = j == t_c - 1 ? ol_bytes : 0u;
    rec.smid = smid;
    rec.flags = kTileSkipped;
    rec.head = head;
    WriteRecordFields(row + j, rec);
    reinterpret_cast<volatile TileRecord*>(row + j)->ready = RecordSeal(rec);
  }
}

// One block's traffic, in elements, added to the run's totals (thread 0, once, at the block's end).
__device__ __forceinline__ void AddBlockCounters(unsigned long long* c, unsigned long long q, unsigned long long k,
                                                 unsigned long long v, unsigned long long o, unsigned long long l,
                                                 unsigned long long tiles, unsigned long long skipped,
                                                 unsigned long long rows_masked) {
  atomicAdd(c + kQRead, q);
  atomicAdd(c + kKRead, k);
  atomicAdd(c + kVRead, v);
  atomicAdd(c + kOWrite, o);
  atomicAdd(c + kLWrite, l);
  atomicAdd(c + kTiles, tiles);
  atomicAdd(c + kSkipped, skipped);
  atomicAdd(c + kRowsMasked, rows_masked);
}

}  // namespace bw::cuda::dev
