// kernel_hopper.cu — the Hopper (sm_90a) FlashAttention forward kernel (issue 33; interface and sources
// in hopper_cuda.h). A work tile is (Q tile of 128 rows, head); a CTA takes work tiles blockIdx.x,
// blockIdx.x + gridDim.x, ... (one each when the grid has one CTA per work tile; persistent, at most one CTA
// per SM, without a mask: see Persistent). 3 warpgroups:
//   warpgroup 0, the producer: warp 0 copies each work tile's row of tile classes into shared memory and its
//     lane 0 issues the TMA copies (Q_i once, after the consumers released the last work tile's Q (q_empty),
//     then K_j and V_j of every tile that is not fully masked) into a ring of `Stages` shared-memory slots;
//     each slot's K and V complete on their own mbarrier (full_k, full_v), and a slot is reused only after
//     both consumers released it (empty, 8 arrivals: one per consumer warp). Warps 1-3 write each work
//     tile's records. It gives registers away (setmaxnreg.dec).
//   warpgroups 1 and 2, the consumers, 64 query rows each (setmaxnreg.inc): S = Q K_j^T with wgmma (A = Q,
//     B = K, both from shared memory, 128-byte swizzle as TMA wrote them), mask (partially masked or tail
//     tiles only), online softmax in registers (FlashAttention-2, Algorithm 1 lines 8-10), P packed to bf16
//     as wgmma's register A operand, O += P V_j with wgmma (B = V read transposed from shared memory).
// The two consumer warpgroups run independently (no CTA-wide barrier in the loop), so the scheduler
// overlaps one's softmax with the other's wgmma. In a persistent CTA the next work tile's Q and first K/V
// land while the consumers still finish the last one (its P V, its O write).
// The consumers rescale O only when a row's running max grew (kCondRescale below).
// Counters and records as the other tiled kernels (device_common.cuh), kept off the consumers' path: the
// first consumer warpgroup's first thread only stamps each computed tile's start and end (%globaltimer)
// into shared memory; after each work tile's O write the consumers meet producer warps 1-3 on named
// barrier 1, and those warps write the work tile's records (sealed, device memory); the issuing lane
// tallies the counters and adds them once per CTA (one atomicAdd per slot) after the consumers' last
// arrival on named barrier 4.
// size-exception: one kernel with its three schedules and its host side; the device code is a single __global__
// function whose roles (producer, two consumers) share barriers and registers, so splitting it into files
// would scatter one pipeline. (issue 35: files ≤ 500 lines, functions ≤ 150, kernels excepted with a reason)
#include "cuda/cuda_util.h"
#include "cuda/hopper_cuda.h"
#include "cuda/hopper_launch.h"
#include "cuda/hopper_layout.h"
#include "cuda/hopper_sm90.cuh"
#include "cuda/kernels.h"
#include "cuda/mma_common.cuh"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include <utility>
#include <stdexcept>
#include <string>

namespace bw::cuda {
namespace detail {
namespace {

constexpr int kBr = 128, kBc = 128, kThreads = 384;
constexpr int kPanelBytes = hopper::kPanelBytes;  // one 64-column panel of a 128-row tile (hopper_layout.h)
static_assert(kBr == kHopperTiling.b_r && kBc == kHopperTiling.b_c, "tiling");

template <int D> constexpr int Stages() { return D == 128 ? 2 : 3; }
template <int D> constexpr int TileBytes() { return (D / 64) * kPanelBytes; }
// 1024 bytes of slack to align the tiles (the 128-byte swizzle repeats every 1024), Q + S K and V slots,
// at d 64 the O staging tile, then barriers, the masked-row count, two rows of tile classes and, with records, two %globaltimer stamps
// per tile twice (a CTA's consecutive work tiles alternate between the two copies).
constexpr int ClsBytes(int t_c) { return (t_c + 7) / 8 * 8; }
template <int D> size_t SmemBytes(int t_c, bool records) {
  return 1024 + (size_t)TileBytes<D>() * ((D == 64 ? 2 : 1) + 2 * Stages<D>()) + 128 + 2 * (size_t)ClsBytes(t_c) + (records ? 32 * (size_t)t_c : 0);
}

struct HopperArgs {
  DevProblem p;  // p.d = p.d_v = D
  int t_r, t_c;
  const std::uint8_t* tile_class;
  std::uint16_t* o;
  float* lse;
  std::uint8_t* row_masked;
  TileRecord* records;
  unsigned long long* counters;
  unsigned v_lbo, v_sbo;  // V's descriptor offsets (MN-major): 16384 (next 64-column panel), 1024 (next 8 keys)
  // Warp phases (null: off): work tiles whose index is a multiple of mark_every, mark_ctas of them, log
  // each warpgroup's phase changes (SM clock) into marks[(slot * 3 + warpgroup) * mark_cap ...].
  HopperWarpMark* marks;
  HopperWarpCta* mark_ctas;
  int mark_every, mark_slots, mark_cap;
  int heads_fastest;  // work tiles in the order of kernels.h's TileGrid (heads, T_r) rather than (T_r, heads)
  int grid;           // CTAs: T_r heads (one work tile each) or, persistent, at most one per SM (HopperPlan)
};

// One warpgroup's phase log in a sampled CTA, kept by its lead thread (`out` null elsewhere): each mark is
// the SM clock at which the warpgroup entered `phase` for tile j; the phase lasts until the next mark.
struct PhaseLog {
  HopperWarpMark* out = nullptr;
  unsigned n = 0, cap = 0;
  __device__ __forceinline__ void Mark(unsigned phase, int j) {
    if (out != nullptr) {
      if (n < cap) {
        HopperWarpMark mk;
        mk.clk = clock64();
        mk.j = (unsigned)j;
        mk.phase = phase;
        out[n] = mk;
      }
      ++n;
    }
  }
};

__device__ __forceinline__ float FastExp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

// kCondRescale (the ping-pong schedule's default; BW_HOPPER_RESCALE=always turns it off for the benchmark):
// O *= alpha only when some row of the warp got a new running max (a warp vote). Where none did, alpha =
// 2^0 = 1 for every row and skipping the product is exact: FlashAttention-4's conditional rescale with
// threshold 0 (the engine's option, single_query.h, takes any threshold). It saves D / 2 multiplies a
// thread a tile once the maxima settle; measured in docs/performance.md ("The Hopper kernel's conditional
// rescale"), with the two instruction-saving experiments that did not pay (commits 46948ab, 0c409c7).
template <int D>
__device__ __forceinline__ void WgmmaPV(float (&o)[D / 2], const unsigned (&a)[4], std::uint64_t db) {
  if constexpr (D == 128) sm90::WgmmaRS_N128(o, a, db);
  else sm90::WgmmaRS_N64(o, a, db);
}

// kCondRescale: above.
// kSched: 0 = one tile at a time (S, softmax, P V); 1 = software-pipelined (P V_j and S_{j+1} = Q K_{j+1}
// issued together, then the softmax of S_{j+1}); 2 = 1 plus ping-pong: the two consumer warpgroups take
// turns issuing their wgmmas (named barriers 2 and 3), so one's softmax runs under the other's products.
template <int D, int kSched, bool kCondRescale>
__global__ void __launch_bounds__(kThreads, 1)
    HopperKernel(const __grid_constant__ CUtensorMap tm_q, const __grid_constant__ CUtensorMap tm_k,
                 const __grid_constant__ CUtensorMap tm_v, const __grid_constant__ CUtensorMap tm_o, const HopperArgs a) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using namespace sm90;
  constexpr int S = Stages<D>(), kTile = TileBytes<D>(), kPanels = D / 64;
  extern __shared__ std::uint8_t smem_raw[];
  std::uint8_t* base = smem_raw + ((1024 - (SmemAddr(smem_raw) & 1023)) & 1023);
  std::uint8_t* q_s = base;
  std::uint8_t* k_s = q_s + kTile;      // [S] slots
  std::uint8_t* v_s = k_s + S * kTile;  // [S] slots
  // d 64: O staged for its TMA store, warpgroup wg's 64 rows at wg * 8192 (kStageO below)
  std::uint8_t* o_s = v_s + S * kTile;
  std::uint64_t* bars = reinterpret_cast<std::uint64_t*>(o_s + (D == 64 ? kTile : 0));  // q_full, q_empty, full_k[S], full_v[S], empty[S]
  int* masked_rows = reinterpret_cast<int*>(bars + 2 + 3 * S);
  std::uint8_t* cls_buf = reinterpret_cast<std::uint8_t*>(masked_rows + 2);  // [2][ClsBytes]: work tile k's in k & 1
  // [2][T_c][2]: work tile k's per-tile start and end in k & 1, stamped by the first consumer warpgroup's
  // first thread (records only)
  unsigned long long* stamp_buf = reinterpret_cast<unsigned long long*>(cls_buf + 2 * ClsBytes(a.t_c));

  const DevProblem& p = a.p;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int n_work = a.t_r * p.heads;
  const unsigned bar0 = SmemAddr(bars);
  const unsigned q_full = bar0, q_empty = bar0 + 8u;
  auto full_k = [&](int s) { return bar0 + 8u * (2 + s); };
  auto full_v = [&](int s) { return bar0 + 8u * (2 + S + s); };
  auto empty = [&](int s) { return bar0 + 8u * (2 + 2 * S + s); };
  // work tile w (this CTA's k-th: w = blockIdx.x + k gridDim.x) -> (Q tile, head), in the order of kernels.h's
  // TileGrid: last Q tiles first, heads fastest under a causal mask
  auto tile_of = [&](int w, int& i_tile, int& head) {
    if (a.heads_fastest) {
      head = w % p.heads;
      i_tile = a.t_r - 1 - w / p.heads;
    } else {
      i_tile = a.t_r - 1 - w % a.t_r;
      head = w / a.t_r;
    }
  };
  auto mark_slot_of = [&](int w) { return (a.marks != nullptr && w % a.mark_every == 0 && w / a.mark_every < a.mark_slots) ? w / a.mark_every : -1; };
  const bool log_tiles = a.records != nullptr || a.marks != nullptr;  // the record warps meet the consumers per work tile

  if (tid == 0) {
    MbarInit(q_full, 1);
    MbarInit(q_empty, 8);  // one arrival per consumer warp, after its last S = Q K^T of the work tile
    for (int s = 0; s < S; ++s) {
      MbarInit(full_k(s), 1);
      MbarInit(full_v(s), 1);
      MbarInit(empty(s), 8);  // one arrival per consumer warp
    }
    *masked_rows = 0;
    FenceBarrierInit();
  }
  __syncthreads();

  if (warp < 4) {
   RegDealloc<40>();  // the producer warpgroup
   if (warp == 0) {
    // ---------------- producer warpgroup, warp 0: lane 0 issues the TMA copies of every work tile; the warp
    // copies each work tile's row of tile classes into shared memory first
    // the counters' elements and tiles, tallied by the issuing lane as it goes (32-bit: 40 registers)
    int kv_keys = 0, skipped_tiles = 0, q_rows = 0, tiles = 0;
    if (lane == 0) {
      PrefetchTensorMap(&tm_q);
      PrefetchTensorMap(&tm_k);
      PrefetchTensorMap(&tm_v);
    }
    int n = 0;  // K/V copies issued so far (ring position), over all work tiles
    for (int w = blockIdx.x, k = 0; w < n_work; w += gridDim.x, ++k) {
      int i_tile, head;
      tile_of(w, i_tile, head);
      const int slot = mark_slot_of(w);
      PhaseLog plog;
      if (slot >= 0 && lane == 0) {
        HopperWarpCta& h = a.mark_ctas[slot];
        h.clk0 = clock64();
        h.gt0 = dev::GlobalTimer();
        h.cta = w;
        h.q_tile = i_tile;
        h.head = head;
        plog = PhaseLog{a.marks + (size_t)slot * 3 * a.mark_cap, 0u, (unsigned)a.mark_cap};
      }
      if (k > 0) {
        plog.Mark(kMarkIdle, 0);  // the consumers still read Q_i of the last work tile (and this cls buffer's old row)
        if (lane == 0) MbarWait(q_empty, (k - 1) & 1);
        __syncwarp();
      }
      std::uint8_t* cls_row = cls_buf + (k & 1) * ClsBytes(a.t_c);
      for (int j = lane; j < a.t_c; j += 32) cls_row[j] = a.tile_class[(long long)i_tile * a.t_c + j];
      __syncwarp();  // orders the warp's writes before lane 0's arrival on q_full (release), which the consumers acquire
      if (lane == 0) {
        const int row0 = i_tile * kBr;
        q_rows += min(kBr, p.n_q - row0);
        tiles += a.t_c;
        plog.Mark(kMarkTmaIssue, 0);
        MbarArriveExpectTx(q_full, kTile);  // Algorithm 1 line 4 (rows past N_q arrive as zeros, not read)
#pragma unroll
        for (int pn = 0; pn < kPanels; ++pn) TmaLoad3d(SmemAddr(q_s + pn * kPanelBytes), &tm_q, q_full, pn * 64, row0, head);
        for (int j = 0; j < a.t_c; ++j) {
          if (cls_row[j] == 0) {  // fully masked: never loaded
            ++skipped_tiles;
            continue;
          }
          kv_keys += min(kBc, p.n_k - j * kBc);
          const int s = n % S, round = n / S;
          if (round > 0) {
            plog.Mark(kMarkIdle, j);  // the slot is still being read
            MbarWait(empty(s), (round - 1) & 1);
          }
          plog.Mark(kMarkTmaIssue, j);
          MbarArriveExpectTx(full_k(s), kTile);  // line 6: K_j, V_j
#pragma unroll
          for (int pn = 0; pn < kPanels; ++pn)
            TmaLoad3d(SmemAddr(k_s + s * kTile + pn * kPanelBytes), &tm_k, full_k(s), pn * 64, j * kBc, head);
          MbarArriveExpectTx(full_v(s), kTile);
#pragma unroll
          for (int pn = 0; pn < kPanels; ++pn)
            TmaLoad3d(SmemAddr(v_s + s * kTile + pn * kPanelBytes), &tm_v, full_v(s), pn * 64, j * kBc, head);
          ++n;
        }
        if (plog.out != nullptr) {  // this work tile's copies are all issued: the producer's log ends here
          plog.Mark(kMarkEnd, a.t_c - 1);
          a.mark_ctas[slot].count[0] = plog.n;
        }
      }
      __syncwarp();
    }
    NamedBarSync(4, 32 + 256);  // every consumer has written its last O, L and row counts
    if (a.counters && lane == 0)
      dev::AddBlockCounters(a.counters, (unsigned long long)q_rows * D, (unsigned long long)kv_keys * D,
                            (unsigned long long)kv_keys * D, (unsigned long long)q_rows * D, (unsigned long long)q_rows,
                            (unsigned long long)tiles, (unsigned long long)skipped_tiles, (unsigned long long)*masked_rows);
   } else {
    // ---------------- producer warpgroup, warps 1-3: each work tile's records (and a sampled one's end
    // stamp), written off the consumers' path once they meet here (named barrier 1) after its O write:
    // computed tiles from the stamps, skipped ones with start = end = now (the work tile's end, as in the
    // FA-2 kernel); Q bytes on j = 0, K_j + V_j on computed tiles, O and L on T_c - 1
    if (log_tiles) {
    const unsigned smid = dev::SmId();
    for (int w = blockIdx.x, k = 0; w < n_work; w += gridDim.x, ++k) {
      int i_tile, head;
      tile_of(w, i_tile, head);
      NamedBarSync(1, 96 + 256);
      const unsigned long long now = dev::GlobalTimer();
      const int rows_i = min(kBr, p.n_q - i_tile * kBr);
      const unsigned long long* stamps = stamp_buf + (size_t)(k & 1) * 2 * a.t_c;
      if (a.records) {
        TileRecord* row = a.records + ((long long)head * a.t_r + i_tile) * a.t_c;
        for (int j = tid - 32; j < a.t_c; j += 96) {
          // (the class from device memory, not the shared row: warp 0 rewrites that buffer for work tile k + 2
          // once the consumers release k + 1's Q, and nothing orders that against these warps)
          const int cls = a.tile_class[(long long)i_tile * a.t_c + j], c_j = min(kBc, p.n_k - j * kBc);
          TileRecord rec;
          rec.t_start_ns = cls != 0 ? stamps[2 * j] : now;
          rec.t_end_ns = cls != 0 ? stamps[2 * j + 1] : now;
          rec.q_tile = i_tile;
          rec.kv_tile = j;
          rec.bytes_loaded = 2u * ((j == 0 ? (unsigned)rows_i * D : 0u) + (cls != 0 ? 2u * (unsigned)c_j * D : 0u));
          rec.bytes_written = j == a.t_c - 1 ? (unsigned)rows_i * (2u * D + 4u) : 0u;
          rec.smid = smid;
          rec.flags = (cls == 0 ? kTileSkipped : 0u) | (cls == 2 ? kTilePartial : 0u);
          rec.head = head;
          dev::WriteRecordFields(row + j, rec);
          reinterpret_cast<volatile TileRecord*>(row + j)->ready = RecordSeal(rec);
        }
      }
      const int slot = mark_slot_of(w);
      if (slot >= 0 && tid == 32) {
        HopperWarpCta& h = a.mark_ctas[slot];
        h.clk1 = clock64();
        h.gt1 = dev::GlobalTimer();
        h.smid = smid;
      }
    }
    }
   }
  } else {
    // ---------------- consumer warpgroups
    RegAlloc<232>();
    const int wg = warp / 4 - 1, wtid = tid - 128 * (wg + 1), wwarp = wtid / 32;
    const int r_base = wg * 64 + wwarp * 16 + lane / 4;  // this thread's rows in the tile: r_base, r_base + 8
    const float sl2 = p.scale * 1.4426950408889634f;     // exp(x scale) = exp2(x scale log2 e)
    const bool lead = wtid == 0 && wg == 0;
    const unsigned q_addr = SmemAddr(q_s), k_addr = SmemAddr(k_s), v_addr = SmemAddr(v_s);
    constexpr bool kStageO = D == 64;
    float o[D / 2];   // one work tile's O accumulator (wgmma's C fragment)
    float sc[kBc / 2];  // S = Q K_j^T (wgmma's C fragment)
    int n_ring = 0;  // K/V tiles consumed so far (ring position), over all work tiles
    // Loop state across work tiles: k (parity of Q's phase, the class and stamp buffers) and n_ring only.
    // ptxas serialised the wgmmas (C7520, "compiler-inserted WG.AR in divergent path": about 420 instead of
    // 670 TFLOP/s at d 128) when a ring base and a stamp pointer also stayed live across the loop.
    // Ping-pong turns run on across work tiles: warpgroup 0 takes the first, and warpgroup 1's last arrival
    // of one work tile opens warpgroup 0's first turn of the next (the final one is taken after the loop).
    if (kSched == 2 && wg == 1) NamedBarArrive(2, 256);
    for (int w = blockIdx.x, k = 0; w < n_work; w += gridDim.x, ++k) {
      int i_tile, head;
      tile_of(w, i_tile, head);
      const int row0 = i_tile * kBr;
      const std::uint8_t* cls_row = cls_buf + (k & 1) * ClsBytes(a.t_c);
      const int slot = mark_slot_of(w);
#pragma unroll
      for (int e = 0; e < D / 2; ++e) o[e] = 0.f;
      float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f};
      int last_done = -1;  // the last tile j computed
      PhaseLog clog;
      if (slot >= 0 && wtid == 0) clog = PhaseLog{a.marks + ((size_t)slot * 3 + wg + 1) * a.mark_cap, 0u, (unsigned)a.mark_cap};
      clog.Mark(kMarkTmaWait, 0);  // Q_i landing
      MbarWait(q_full, k & 1);
      // this work tile's Q is no longer read once its last S = Q K^T is done: the producer may load the next
      auto release_q = [&] {
        __syncwarp();
        if (lane == 0) MbarArrive(q_empty);
      };
      // masks, online softmax and P packing of one S tile (kept in registers), O rescaled (kCondRescale above)
      auto softmax = [&](float (&sc)[kBc / 2], int cls, int key0, int c_j, unsigned (&pa)[kBc / 16][4]) {
        if (cls == 2)
          MaskFragment<kBc / 8>([&](int nb, int e) -> float& { return sc[nb * 4 + e]; }, p.mask, p.n_q, row0 + r_base,
                                key0, c_j, lane);
        float alpha[2];
        bool grew = false;  // some row's running max changed (NaN compares unequal: rescaled)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          float mx = -INFINITY;
#pragma unroll
          for (int nb = 0; nb < kBc / 8; ++nb) mx = fmaxf(mx, fmaxf(sc[nb * 4 + 2 * h], sc[nb * 4 + 2 * h + 1]));
          mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
          mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
          const float m_new = fmaxf(m[h], mx);
          const float m_use = (m_new == -INFINITY) ? 0.f : m_new;
          const float ms = m_use * sl2;
          alpha[h] = FastExp2(m[h] * sl2 - ms);
          grew = grew || !(m_new == m[h]);
          float rs = 0.f;
#pragma unroll
          for (int nb = 0; nb < kBc / 8; ++nb) {
            sc[nb * 4 + 2 * h] = FastExp2(fmaf(sc[nb * 4 + 2 * h], sl2, -ms));
            sc[nb * 4 + 2 * h + 1] = FastExp2(fmaf(sc[nb * 4 + 2 * h + 1], sl2, -ms));
            rs += sc[nb * 4 + 2 * h] + sc[nb * 4 + 2 * h + 1];
          }
          l[h] = alpha[h] * l[h] + rs;
          m[h] = m_new;
        }
        bool rescale = true;
        if constexpr (kCondRescale) rescale = __any_sync(0xffffffffu, grew);
        if (rescale) {
#pragma unroll
          for (int nb = 0; nb < D / 8; ++nb) {
            o[nb * 4 + 0] *= alpha[0];
            o[nb * 4 + 1] *= alpha[0];
            o[nb * 4 + 2] *= alpha[1];
            o[nb * 4 + 3] *= alpha[1];
          }
        }
#pragma unroll
        for (int kc = 0; kc < kBc / 16; ++kc) {
          pa[kc][0] = Pack<true>(sc[8 * kc + 0], sc[8 * kc + 1]);
          pa[kc][1] = Pack<true>(sc[8 * kc + 2], sc[8 * kc + 3]);
          pa[kc][2] = Pack<true>(sc[8 * kc + 4], sc[8 * kc + 5]);
          pa[kc][3] = Pack<true>(sc[8 * kc + 6], sc[8 * kc + 7]);
        }
      };
      // O += P V_j from slot s
      auto issue_pv = [&](const unsigned (&pa)[kBc / 16][4], int s) {
#pragma unroll
        for (int kc = 0; kc < kBc / 16; ++kc)
          WgmmaPV<D>(o, pa[kc], MakeDesc(v_addr + s * kTile + hopper::VDescOffset(kc), a.v_lbo, a.v_sbo));
      };
      auto issue_s = [&](float (&sc)[kBc / 2], int slot_s, unsigned ph) {
        MbarWait(full_k(slot_s), ph);
#pragma unroll
        for (int kk = 0; kk < D / 16; ++kk) {
          WgmmaSS_N128(sc, MakeDesc(q_addr + hopper::QDescOffset(wg, kk), 16, hopper::kGroupBytes),
                       MakeDesc(k_addr + slot_s * kTile + hopper::KDescOffset(kk), 16, hopper::kGroupBytes), kk > 0 ? 1 : 0);
        }
      };
      int n_total = 0;  // this work tile's computed K/V tiles
      for (int jj = 0; jj < a.t_c; ++jj) n_total += cls_row[jj] != 0;
      if (n_total == 0) release_q();
      if constexpr (kSched == 0) {
        int n = n_ring;
        for (int j = 0; j < a.t_c; ++j) {
          const int cls = cls_row[j];
          if (cls == 0) continue;
          const unsigned long long t0 = lead ? dev::GlobalTimer() : 0ull;
          const int s = n % S;
          const unsigned ph = (n / S) & 1;
          const int key0 = j * kBc, c_j = min(kBc, p.n_k - key0);
          // S = Q K_j^T (64 x 128 per warpgroup), D/16 wgmma k-steps, then its softmax, then O += P V_j
          clog.Mark(kMarkTmaWait, j);  // K_j landing, then S issued
          WgmmaFence();
          issue_s(sc, s, ph);
          WgmmaCommit();
          clog.Mark(kMarkWgmmaS, j);
          WgmmaWait<0>();
          FenceRegs(sc);
          if (n == n_ring + n_total - 1) release_q();
          clog.Mark(kMarkSoftmax, j);
          unsigned pa[kBc / 16][4];
          softmax(sc, cls, key0, c_j, pa);
          clog.Mark(kMarkTmaWait, j);  // V_j landing
          MbarWait(full_v(s), ph);
          clog.Mark(kMarkWgmmaPV, j);
          WgmmaFence();
          issue_pv(pa, s);
          WgmmaCommit();
          WgmmaWait<0>();
          FenceRegs(o);
          __syncwarp();
          if (lane == 0) MbarArrive(empty(s));  // this warp is done with slot s
          ++n;
          last_done = j;
          if (lead && a.records) {  // (the last tile's end is stamped again after the O write)
            stamp_buf[((k & 1) * a.t_c + j) * 2] = t0;
            stamp_buf[((k & 1) * a.t_c + j) * 2 + 1] = dev::GlobalTimer();
          }
        }
        n_ring = n;
      } else {
        auto next_tile = [&](int j) {
          ++j;
          while (j < a.t_c && cls_row[j] == 0) ++j;
          return j;
        };
        constexpr bool kPP = kSched == 2;
        const int my_bar = 2 + wg, other_bar = 3 - wg;
        int j = next_tile(-1);
        // One tile n: softmax of S_n, then (a critical section under ping-pong) O += P_n V_n and, unless it
        // is the last tile, S_{n+1} = Q K_{n+1}. The last tile is peeled off (kLast), so no wgmma sits on a
        // run-time branch. Turns: warpgroup 0 issues first; each warpgroup's critical sections alternate
        // with the other's; every section ends with an arrival on the other's barrier (see n_ring).
        auto tile = [&](int n, auto last_tag) {
          constexpr bool kLast = decltype(last_tag)::value;
          const unsigned long long t0 = lead ? dev::GlobalTimer() : 0ull;
          const int s = n % S;
          const unsigned ph = (n / S) & 1;
          const int cls = cls_row[j], key0 = j * kBc, c_j = min(kBc, p.n_k - key0);
          clog.Mark(kMarkWgmmaS, j);  // S_n = Q K_j^T finishing
          WgmmaWait<0>();
          FenceRegs(sc);
          clog.Mark(kMarkSoftmax, j);  // mask, online softmax, O rescaled, P packed
          unsigned pa[kBc / 16][4];
          softmax(sc, cls, key0, c_j, pa);
          if (kPP) {
            clog.Mark(kMarkIdle, j);  // the other warpgroup's turn
            NamedBarSync(my_bar, 256);
          }
          clog.Mark(kMarkTmaWait, j);  // V_j landing
          MbarWait(full_v(s), ph);
          clog.Mark(kMarkWgmmaPV, j);  // O += P V_j issued with S_{n+1}; waits for P V_j
          WgmmaFence();
          issue_pv(pa, s);
          WgmmaCommit();
          if constexpr (!kLast) {
            issue_s(sc, (n + 1) % S, ((n + 1) / S) & 1);
            WgmmaCommit();
          }
          if (kPP) NamedBarArrive(other_bar, 256);
          if constexpr (!kLast) WgmmaWait<1>();  // P V_n done (S_{n+1} may still run)
          else WgmmaWait<0>();
          FenceRegs(o);
          __syncwarp();
          if (lane == 0) {
            MbarArrive(empty(s));
            if (kLast) MbarArrive(q_empty);  // (release_q) this work tile's last S = Q K^T is long done
          }
          last_done = j;
          if (lead && a.records) {  // (the last tile's end is stamped again after the O write)
            stamp_buf[((k & 1) * a.t_c + j) * 2] = t0;
            stamp_buf[((k & 1) * a.t_c + j) * 2 + 1] = dev::GlobalTimer();
          }
          j = next_tile(j);
        };
        if (n_total > 0) {
          clog.Mark(kMarkIdle, j);
          if (kPP) NamedBarSync(my_bar, 256);           // critical section 0: S_0
          clog.Mark(kMarkTmaWait, j);                   // K_0 landing, then S_0 issued
          WgmmaFence();
          issue_s(sc, n_ring % S, (n_ring / S) & 1);
          WgmmaCommit();
          if (kPP) NamedBarArrive(other_bar, 256);
          for (const int n_end = n_ring + n_total - 1; n_ring < n_end; ++n_ring) tile(n_ring, std::false_type{});
          tile(n_ring, std::true_type{});
          ++n_ring;
        }
      }
      // O_i = diag(l)^-1 O, L_i = m + log l (lines 12-13); fully masked rows: O = 0, L = -inf, flagged.
      // kStageO (d 64): O (bf16) is staged in shared memory in the layout a TMA load writes (hopper_layout.h,
      // per 64-row panel) and leaves in one TMA store per 64-column panel of this warpgroup's 64 rows (rows
      // past N_q are not written), instead of 4-byte stores from registers (about 1.1 us a CTA at d 64,
      // N 1024). At d 128 the staging made ptxas spill ~90 bytes a thread, so d 128 keeps the direct stores.
      clog.Mark(kMarkWrite, last_done < 0 ? 0 : last_done);
      int masked_here = 0;
      if constexpr (kStageO) {
        std::uint8_t* o_wg = o_s + wg * kPanels * 8192;
        if (wtid == 0) BulkWaitRead();  // the last work tile's store has read the staging buffer
        NamedBarSync(5 + wg, 128);
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          float lt = l[h];
          lt += __shfl_xor_sync(0xffffffffu, lt, 1);
          lt += __shfl_xor_sync(0xffffffffu, lt, 2);
          const int r_local = wwarp * 16 + lane / 4 + 8 * h, r = row0 + wg * 64 + r_local;
          const float inv = lt > 0.f ? 1.f / lt : 0.f;
#pragma unroll
          for (int nb = 0; nb < D / 8; ++nb) {
            const int col = nb * 8 + (lane % 4) * 2;
            *reinterpret_cast<unsigned*>(o_wg + (col / 64) * 8192 + hopper::Swizzle128(r_local * 128 + (col % 64) * 2)) =
                Pack<true>(o[nb * 4 + 2 * h] * inv, o[nb * 4 + 2 * h + 1] * inv);
          }
          if (r < p.n_q && (lane % 4) == 0) {
            const long long ri = (long long)head * p.n_q + r;
            a.lse[ri] = lt > 0.f ? m[h] * p.scale + logf(lt) : -INFINITY;
            a.row_masked[ri] = lt > 0.f ? 0 : 1;
            masked_here += lt > 0.f ? 0 : 1;
          }
        }
        FenceProxyAsync();  // the staged O visible to the TMA store (async proxy)
        NamedBarSync(5 + wg, 128);
        if (wtid == 0) {
#pragma unroll
          for (int pn = 0; pn < kPanels; ++pn) TmaStore3d(&tm_o, SmemAddr(o_wg + pn * 8192), pn * 64, row0 + wg * 64, head);
          BulkCommit();
        }
      } else {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          float lt = l[h];
          lt += __shfl_xor_sync(0xffffffffu, lt, 1);
          lt += __shfl_xor_sync(0xffffffffu, lt, 2);
          const int r = row0 + r_base + 8 * h;
          // O read out of the accumulator by every thread; only rows inside N_q are stored
          const float inv = lt > 0.f ? 1.f / lt : 0.f;
          unsigned packed[D / 8];
#pragma unroll
          for (int nb = 0; nb < D / 8; ++nb) packed[nb] = Pack<true>(o[nb * 4 + 2 * h] * inv, o[nb * 4 + 2 * h + 1] * inv);
          if (r < p.n_q) {
            std::uint16_t* orow = a.o + ((long long)head * p.n_q + r) * D;
#pragma unroll
            for (int nb = 0; nb < D / 8; ++nb) *reinterpret_cast<unsigned*>(orow + nb * 8 + (lane % 4) * 2) = packed[nb];
            if ((lane % 4) == 0) {
              const long long ri = (long long)head * p.n_q + r;
              a.lse[ri] = lt > 0.f ? m[h] * p.scale + logf(lt) : -INFINITY;
              a.row_masked[ri] = lt > 0.f ? 0 : 1;
              masked_here += lt > 0.f ? 0 : 1;
            }
          }
        }
      }
      if (a.counters && masked_here) atomicAdd(masked_rows, masked_here);
      if (lead && a.records && last_done == a.t_c - 1) stamp_buf[((k & 1) * a.t_c + last_done) * 2 + 1] = dev::GlobalTimer();
      if (clog.out != nullptr) {
        clog.Mark(kMarkEnd, last_done < 0 ? 0 : last_done);
        a.mark_ctas[slot].count[wg + 1] = clog.n;
      }
      // the record warps take this work tile's stamps: warpgroup 0 (whose lead writes them) waits for them, so
      // it cannot stamp into this buffer again (work tile k + 2) before they have read it; warpgroup 1 only
      // arrives and goes on (ping-pong keeps it within one turn of warpgroup 0)
      if (log_tiles) {
        if (wg == 0) NamedBarSync(1, 96 + 256);
        else NamedBarArrive(1, 96 + 256);
      }
    }
    if (kStageO && wtid == 0) BulkWait();  // the last O store done before the CTA ends
    if (kSched == 2 && wg == 0) NamedBarSync(2, 256);  // warpgroup 1's last arrival
    NamedBarArrive(4, 32 + 256);
  }
#endif
}

__global__ void HopperSpin(unsigned long long ns) {
  const unsigned long long t0 = dev::GlobalTimer();
  while (dev::GlobalTimer() < t0 + ns) {
  }
}

PFN_cuTensorMapEncodeTiled_v12000 Encoder() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q{};
    Check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q),
          "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)");
    if (q != cudaDriverEntryPointSuccess || f == nullptr) throw std::runtime_error("cuTensorMapEncodeTiled: not in this driver");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
  }();
  return fn;
}

// (heads, rows, D) bf16, row stride D: boxes of 64 columns x box_rows rows x 1 head, 128-byte swizzle;
// out-of-bounds rows (tails) arrive as zeros and are not read, and are not written by a store.
CUtensorMap MakeMap(const void* ptr, int rows, int heads, int D, unsigned box_rows = 128) {
  CUtensorMap m{};
  const cuuint64_t dims[3] = {(cuuint64_t)D, (cuuint64_t)rows, (cuuint64_t)heads};
  const cuuint64_t strides[2] = {(cuuint64_t)D * 2, (cuuint64_t)rows * D * 2};
  const cuuint32_t box[3] = {64, box_rows, 1};
  const cuuint32_t es[3] = {1, 1, 1};
  const CUresult r = Encoder()(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, const_cast<void*>(ptr), dims, strides, box, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) throw std::runtime_error("cuTensorMapEncodeTiled failed, CUresult " + std::to_string((int)r));
  return m;
}

// Everything one launch needs, built once (the benchmark launches it many times).
struct HopperPlan {
  CUtensorMap q, k, v, o;  // o: the output, stored by each consumer warpgroup's 64 rows
  HopperArgs args;
  size_t smem = 0;
};

// A persistent grid (one CTA per SM, each taking work tiles w = blockIdx.x + k gridDim.x in turn, so the
// next tile's copies start while the last one drains) where every work tile costs the same: no mask. A
// causal grid stays one CTA per work tile, where the hardware hands the next CTA to whichever SM frees first.
// BW_HOPPER_PERSIST=0 or 1 forces either (the benchmark compares them).
bool Persistent(const DevProblem& p) {
  static const int env = [] {
    const char* e = std::getenv("BW_HOPPER_PERSIST");
    return e ? std::atoi(e) : -1;
  }();
  return env >= 0 ? env != 0 : p.mask.kind == static_cast<int>(MaskKind::None);
}

int MultiprocessorsHere() {
  int dev = 0, sms = 0;
  Check(cudaGetDevice(&dev), "cudaGetDevice");
  Check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute(SM count)");
  return sms;
}

HopperPlan MakePlan(const DevProblem& p, const void* q, const void* k, const void* v, const std::uint8_t* tile_class, void* o,
                    float* lse, std::uint8_t* row_masked, TileRecord* records, unsigned long long* counters) {
  if (p.d != p.d_v || (p.d != 64 && p.d != 128)) throw std::invalid_argument("Hopper kernel: padded head dim must be 64 or 128");
  HopperPlan pl{};
  pl.args.p = p;
  pl.args.t_r = (p.n_q + kBr - 1) / kBr;
  pl.args.t_c = (p.n_k + kBc - 1) / kBc;
  pl.args.tile_class = tile_class;
  pl.args.o = static_cast<std::uint16_t*>(o);
  pl.args.lse = lse;
  pl.args.row_masked = row_masked;
  pl.args.records = records;
  pl.args.counters = counters;
  pl.args.marks = nullptr;  // warp phases: RunHopper turns them on
  pl.args.mark_ctas = nullptr;
  pl.args.mark_every = 1;
  pl.args.mark_slots = pl.args.mark_cap = 0;
  pl.args.heads_fastest = HeadsFastest(p, pl.args.t_r) ? 1 : 0;
  const long long n_work = (long long)pl.args.t_r * p.heads;
  if (n_work > 0x7FFFFFFF) throw std::invalid_argument("Hopper kernel: T_r x heads over 2^31 - 1");
  pl.args.grid = Persistent(p) ? (int)std::min<long long>(n_work, MultiprocessorsHere()) : (int)n_work;
  pl.args.v_lbo = hopper::kVLbo;
  pl.args.v_sbo = hopper::kGroupBytes;
  if (std::getenv("BW_HOPPER_VDESC_SWAP")) std::swap(pl.args.v_lbo, pl.args.v_sbo);  // bring-up check of the layout reading
  pl.q = MakeMap(q, p.n_q, p.heads, p.d);
  pl.k = MakeMap(k, p.n_k, p.heads, p.d);
  pl.v = MakeMap(v, p.n_k, p.heads, p.d);
  pl.o = MakeMap(o, p.n_q, p.heads, p.d, 64);
  pl.smem = p.d == 128 ? SmemBytes<128>(pl.args.t_c, records != nullptr) : SmemBytes<64>(pl.args.t_c, records != nullptr);
  if (pl.smem > 227 * 1024) throw std::invalid_argument("Hopper kernel: N_k too large for the tile classes (and record stamps) in shared memory");
  return pl;
}

template <int D, int kSched, bool kCondRescale>
void LaunchD(const HopperPlan& pl, cudaStream_t st) {
  EnsureDynamicSmem(HopperKernel<D, kSched, kCondRescale>, pl.smem, "cudaFuncSetAttribute(hopper)");
  HopperKernel<D, kSched, kCondRescale><<<pl.args.grid, kThreads, pl.smem, st>>>(pl.q, pl.k, pl.v, pl.o, pl.args);
  Check(cudaGetLastError(), "HopperKernel launch");
}

// The schedule: 2 (pipelined, ping-pong) unless BW_HOPPER_SCHED says 0 or 1 (the benchmark compares them).
int Schedule() {
  static const int s = [] {
    const char* e = std::getenv("BW_HOPPER_SCHED");
    const int v = e ? std::atoi(e) : 2;
    return (v >= 0 && v <= 2) ? v : 2;
  }();
  return s;
}

// The ping-pong schedule rescales O conditionally (kCondRescale) unless BW_HOPPER_RESCALE=always (the
// benchmark compares them); schedules 0 and 1 always rescale.
bool CondRescale() {
  static const bool c = [] {
    const char* e = std::getenv("BW_HOPPER_RESCALE");
    return !(e && std::string(e) == "always");
  }();
  return c;
}

template <int D>
void LaunchPingPong(const HopperPlan& pl, cudaStream_t st) {
  if (CondRescale()) LaunchD<D, 2, true>(pl, st);
  else LaunchD<D, 2, false>(pl, st);
}

void Launch(const HopperPlan& pl, cudaStream_t st) {
  const int sched = Schedule();
  if (pl.args.p.d == 128) {
    if (sched == 0) LaunchD<128, 0, false>(pl, st);
    else if (sched == 1) LaunchD<128, 1, false>(pl, st);
    else LaunchPingPong<128>(pl, st);
  } else {
    if (sched == 0) LaunchD<64, 0, false>(pl, st);
    else if (sched == 1) LaunchD<64, 1, false>(pl, st);
    else LaunchPingPong<64>(pl, st);
  }
}

// Device logs of the warp phases for `slots` CTAs spread evenly over a grid of `grid` CTAs (none when
// slots <= 0): each warpgroup's log holds every tile's marks (producer 2, consumer 5 per tile) plus the
// Q load, the write and the end.
struct WarpMarkBufs {
  int slots = 0, cap = 0, every = 1;
  DevBuf marks, ctas;
  WarpMarkBufs(int want, int grid, int t_c) {
    slots = std::min(std::max(want, 0), grid);
    if (slots <= 0) return;
    cap = 8 + 6 * t_c;
    every = grid / slots;
    marks = DevBuf((size_t)slots * 3 * cap * sizeof(HopperWarpMark));
    ctas = DevBuf((size_t)slots * sizeof(HopperWarpCta));
    marks.Zero();
    ctas.Zero();
  }
  void Attach(HopperPlan& pl) const {
    if (slots <= 0) return;
    pl.args.marks = marks.as<HopperWarpMark>();
    pl.args.mark_ctas = ctas.as<HopperWarpCta>();
    pl.args.mark_every = every;
    pl.args.mark_slots = slots;
    pl.args.mark_cap = cap;
  }
  std::vector<WarpPhaseRecord> Read(int t_r) const {
    if (slots <= 0) return {};
    std::vector<HopperWarpCta> hc((size_t)slots);
    std::vector<HopperWarpMark> hm((size_t)slots * 3 * cap);
    ctas.Download(hc.data(), hc.size() * sizeof(HopperWarpCta));
    marks.Download(hm.data(), hm.size() * sizeof(HopperWarpMark));
    return WarpPhasesFromMarks(hc, hm, cap, t_r);
  }
};

}  // namespace

// GpuRun's entry (hopper_launch.h): the same plan and warp-mark buffers RunHopper builds.
struct HopperLaunch::Impl {
  HopperPlan pl;
  WarpMarkBufs wm;
  int t_r;
  Impl(const HopperPlan& plan, int warp_ctas, int grid, int t_c, int tr) : pl(plan), wm(warp_ctas, grid, t_c), t_r(tr) { wm.Attach(pl); }
};

HopperLaunch::HopperLaunch(const DevProblem& dp, const void* q, const void* k, const void* v, const std::uint8_t* tile_class, void* o,
                           float* lse, std::uint8_t* row_masked, TileRecord* records, unsigned long long* counters, int warp_ctas) {
  const HopperPlan pl = MakePlan(dp, q, k, v, tile_class, o, lse, row_masked, records, counters);
  impl_ = std::make_unique<Impl>(pl, warp_ctas, pl.args.t_r * dp.heads, pl.args.t_c, pl.args.t_r);
}
HopperLaunch::~HopperLaunch() = default;
void HopperLaunch::Launch(cudaStream_t st) const { detail::Launch(impl_->pl, st); }
std::vector<WarpPhaseRecord> HopperLaunch::WarpPhases() const { return impl_->wm.Read(impl_->t_r); }

}  // namespace detail

using namespace detail;

bool HopperAvailable(std::string* why) {
  if (!GpuAvailable(why)) return false;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    if (why) *why = "cudaGetDeviceProperties failed";
    return false;
  }
  if (prop.major != 9 || prop.minor != 0) {
    if (why) *why = std::string("the Hopper kernel needs compute capability 9.0 (sm_90a); device 0 is ") + prop.name + " (" +
                    std::to_string(prop.major) + "." + std::to_string(prop.minor) + ")";
    return false;
  }
  return true;
}

Output RunHopper(const Problem& p, const Options& opt) {
  Validate(p);
  if (opt.pace_ns != 0) throw std::invalid_argument("Hopper kernel: pace_ns is not supported");
  if (std::max(p.d, p.d_v) > 128) throw std::invalid_argument("Hopper kernel: d, d_v must be <= 128");
  std::string why;
  if (!HopperAvailable(&why)) throw std::runtime_error(why);
  const Tiling t = kHopperTiling;
  const auto cls = ClassifyTiles(p, t);
  const int t_r = (p.n_q + t.b_r - 1) / t.b_r, t_c = (p.n_k + t.b_c - 1) / t.b_c;
  const size_t nq = (size_t)p.heads * p.n_q, n_rec = (size_t)p.heads * t_r * t_c;
  const int D = HopperPadD(std::max(p.d, p.d_v));
  DevBuf q = UploadHalfPadded(p.q, p.heads * p.n_q, p.d, D, true);
  DevBuf k = UploadHalfPadded(p.k, p.heads * p.n_k, p.d, D, true);
  DevBuf v = UploadHalfPadded(p.v, p.heads * p.n_k, p.d_v, D, true);
  DevBuf o(nq * D * 2), lse(nq * 4), rm(nq), dcls(cls.size()), rec(opt.record_tiles ? n_rec * sizeof(TileRecord) : 0),
      cnt(dev::kNumCounterSlots * 8);
  dcls.Upload(cls.data(), cls.size());
  cnt.Zero();
  if (opt.record_tiles) rec.Zero();
  o.Fill(0xFF);  // NaN in bf16: every element must be written
  lse.Fill(0xFF);
  MaskBuffers mb = UploadMask(p);
  DevProblem dp = MakeDevProblem(p, mb.dev);
  dp.d = dp.d_v = D;
  HopperPlan pl = MakePlan(dp, q.ptr, k.ptr, v.ptr, dcls.as<std::uint8_t>(), o.ptr, lse.as<float>(), rm.as<std::uint8_t>(),
                           opt.record_tiles ? rec.as<TileRecord>() : nullptr, cnt.as<unsigned long long>());
  WarpMarkBufs wm(opt.warp_sample_ctas, t_r * p.heads, t_c);
  wm.Attach(pl);
  Events ev;
  ev.Record(0, nullptr);
  Launch(pl, nullptr);
  ev.Record(1, nullptr);
  Check(cudaDeviceSynchronize(), "Hopper kernel");
  Output out;
  out.lse.resize(nq);
  out.row_masked.resize(nq);
  lse.Download(out.lse.data(), nq * 4);
  rm.Download(out.row_masked.data(), nq);
  out.o = DownloadHalfUnpadded(o, p.heads * p.n_q, p.d_v, D, true);
  unsigned long long c[dev::kNumCounterSlots];
  cnt.Download(c, sizeof c);
  FillCountersFromDevice(c, 2, out.run.counters);
  if (opt.record_tiles) {
    out.run.tiles.resize(n_rec);
    rec.Download(out.run.tiles.data(), n_rec * sizeof(TileRecord));
  }
  FillSummary(p, Algorithm::TensorCoreBf16, t, 0, ev.Ms(0, 1), out.run);
  out.run.kernel = "hopper";
  out.run.warp_phases = wm.Read(t_r);
  return out;
}

PeerBenchResult PeerBench(const PeerBenchConfig& c) {
  const bool hopper = c.kernel == "hopper";
  if (!hopper && c.kernel != "fa2") throw std::invalid_argument("PeerBench: kernel must be hopper or fa2");
  Problem p;
  p.n_q = p.n_k = c.n;
  p.d = p.d_v = c.d;
  p.heads = c.heads;
  p.scale = 1.f / std::sqrt((float)c.d);
  p.mask.kind = c.causal ? MaskKind::CausalTopLeft : MaskKind::None;
  const Tiling t = hopper ? kHopperTiling : TensorCoreTiling(p.mask.kind);
  const int D = hopper ? HopperPadD(c.d) : TensorCorePadD(c.d);
  const size_t nq = (size_t)c.heads * c.n, elems = nq * D;
  DevBuf q(elems * 2), k(elems * 2), v(elems * 2), o(elems * 2), lse(nq * 4), rm(nq), cnt(dev::kNumCounterSlots * 8);
  RandomFill(q, elems, true, true, 1);
  RandomFill(k, elems, true, true, 2);
  RandomFill(v, elems, true, true, 3);
  const auto cls = ClassifyTiles(p, t);
  DevBuf dcls(cls.size());
  dcls.Upload(cls.data(), cls.size());
  cnt.Zero();
  DevProblem dp = MakeDevProblem(p, dev::MaskDev{static_cast<int>(p.mask.kind), c.n, c.n, nullptr, nullptr});
  dp.d = dp.d_v = D;
  unsigned long long* counters = c.counters ? cnt.as<unsigned long long>() : nullptr;
  const int t_r = (c.n + t.b_r - 1) / t.b_r, t_c = (c.n + t.b_c - 1) / t.b_c;
  if (!hopper && (c.records || c.warp_ctas > 0)) throw std::invalid_argument("PeerBench: records and warp phases are the Hopper kernel's here");
  DevBuf rec(c.records ? (size_t)c.heads * t_r * t_c * sizeof(TileRecord) : 0);
  WarpMarkBufs wm(c.warp_ctas, t_r * c.heads, t_c);
  HopperPlan pl{};
  if (hopper) {
    pl = MakePlan(dp, q.ptr, k.ptr, v.ptr, dcls.as<std::uint8_t>(), o.ptr, lse.as<float>(), rm.as<std::uint8_t>(),
                  c.records ? rec.as<TileRecord>() : nullptr, counters);
    wm.Attach(pl);
  }
  auto launch = [&] {
    if (hopper) Launch(pl, nullptr);
    else
      LaunchTensorCore(dp, t.b_r, true, q.ptr, k.ptr, v.ptr, dcls.as<std::uint8_t>(), o.ptr, lse.as<float>(), rm.as<std::uint8_t>(),
                       nullptr, counters, 0, false, nullptr);
  };
  PeerBenchResult r;
  if (c.iters < 0) {  // one counted launch only (under Nsight Compute)
    launch();
    Check(cudaDeviceSynchronize(), "peer bench (single)");
  } else {
    for (int w = 0; w < 3; ++w) launch();
    Check(cudaDeviceSynchronize(), "peer bench warm-up");
    int iters = c.iters;
    if (iters == 0) {  // about 30 ms of launches
      Events est;
      est.Record(0, nullptr);
      for (int w = 0; w < 5; ++w) launch();
      est.Record(1, nullptr);
      Check(cudaDeviceSynchronize(), "peer bench estimate");
      iters = std::clamp((int)(30.0 / std::max(1e-4, (double)est.Ms(0, 1) / 5)), 10, 2000);
    }
    HopperSpin<<<1, 1>>>(20'000'000ull);  // holds the GPU while the launches queue
    Check(cudaGetLastError(), "spin launch");
    Events ev;
    ev.Record(0, nullptr);
    for (int i = 0; i < iters; ++i) launch();
    ev.Record(1, nullptr);
    Check(cudaDeviceSynchronize(), "peer bench");
    r.iters = iters;
    r.ms = ev.Ms(0, 1) / iters;
    r.tflops = FlopsOf(p) / (r.ms * 1e-3) / 1e12;
    if (c.counters) {  // a fresh counted launch
      cnt.Zero();
      launch();
      Check(cudaDeviceSynchronize(), "peer bench counted run");
    }
  }
  if (c.counters) {
    unsigned long long cc[dev::kNumCounterSlots];
    cnt.Download(cc, sizeof cc);
    FillCountersFromDevice(cc, 2, r.counters);
  }
  return r;
}

}  // namespace bw::cuda
