// device_common.cuh — small device helpers shared by the kernels: %smid, %globaltimer, the mask
// predicate (the engine's mask kinds and causal alignments) and the live tile-record writer.
// Record protocol (issue 6, "Live"): one thread owns a slot, writes the fields, executes
// __threadfence_system() so they reach host memory first, then writes the ready word. No atomics
// on words the CPU also writes.
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
  for (int i = 0; i < count; ++i) reinterpret_cast<volatile TileRecord*>(last - i)->ready = 1u;
}

// Slow motion: the calling thread waits until `ns` have passed since `t0`.
__device__ __forceinline__ void Pace(unsigned long long t0, unsigned long long ns) {
  if (ns == 0) return;
  while (GlobalTimer() < t0 + ns) { __nanosleep(1000); }
}

}  // namespace bw::cuda::dev
