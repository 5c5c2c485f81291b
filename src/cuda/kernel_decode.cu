// kernel_decode.cu — split-KV decoding (Flash-Decoding, Dao, Haziza, Massa, Sizov 2023) on the GPU:
// the split kernel (one thread block per (batch, KV head, row group, split)) and the combine kernel
// (one warp per query row), their exact counters and optional tile records, and the host side
// (decode_cuda.h). Shapes and the traffic model: decode_plan.h.
//
// Split kernel: the rows of the block are the q heads of one GQA group × the q_len queries (16 or 32
// rows, zero-padded: the A operand of mma.sync m16n8k16). K/V tiles of B_c = 64 keys stream through a
// STAGES-deep cp.async ring (3 at d = 128, 4 at d = 64; two blocks per SM); warp w computes
// S = Q K_j[16w:16w+16]ᵀ and P V for its 16 keys of every tile with its own (m, l, O) per row
// (FlashAttention-2 Algorithm 1 lines 6–12 over a quarter of the keys), and at the end the four warps
// merge through shared memory (the same merge as the combine's). Masked: keys ≥ N (the tail tile) and,
// for q_len > 1, key > N − q_len + t for query t (causal, bottom-right).
// size-exception: the split kernel and the combine kernel with their host side and counters in one file; DecodeSplitKernel's stages (K/V loads, scores, online softmax, the partial write) share registers and shared memory inside one __global__ function.
#include "cuda/cuda_util.h"
#include "cuda/decode_cuda.h"
#include "cuda/device_common.cuh"
#include "cuda/lse_combine.cuh"
#include "cuda/mma_common.cuh"

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace bw::cuda::detail {
namespace {

constexpr int kWarpsD = 4, kThreadsD = 128;

// Counter slots (elements), summed once per block with atomicAdd.
enum DecodeSlot {
  kDQ = 0, kDK, kDV, kDTable, kDOPartW, kDLseW, kDOPartR, kDLseR, kDOW, kDCtas, kDTiles, kDCombineRows, kDNumSlots
};

struct DecodeArgs {
  const std::uint16_t *q, *k, *v;
  const int* block_table;  // null when contiguous
  std::uint16_t* o;        // bf16 (B·H_q·q_len, d)
  float *o_part, *lse_part;
  int q_len, n_kv, heads_q, heads_kv, group, rows, row_groups, tiles, splits, page_size, pages_per_seq;
  float scale;
  int l2_prefetch;               // 0, 128 or 256: cp.async's L2 prefetch size for K/V
  unsigned long long* counters;  // kDNumSlots, or null
  TileRecord* records;           // (B·H_kv·row_groups·T) split records, then the combine's; or null
};

template <int D> constexpr int Stages() { return D == 64 ? 4 : 3; }
template <int D, int MT>
constexpr size_t DecodeSmemBytes() {
  constexpr int LD = D + 8;
  constexpr size_t kv = sizeof(std::uint16_t) * 2ull * Stages<D>() * kDecodeBc * LD;
  constexpr size_t merge = sizeof(float) * (size_t)kWarpsD * 16 * MT * (D + 2);  // O, m, l of each warp
  return sizeof(std::uint16_t) * 16 * MT * LD + (kv > merge ? kv : merge);
}

__device__ __forceinline__ unsigned PackBf16(float lo, float hi) { return Pack<true>(lo, hi); }

// cp.async of 16 bytes with an L2 prefetch size (the K/V stream is sequential within a row block)
__device__ __forceinline__ void CpAsync16Pf(void* smem, const void* gmem, bool valid, int pf) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int n = valid ? 16 : 0;
  if (pf == 256)
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(n));
  else if (pf == 128)
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(n));
  else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(n));
}

template <int D, int MT>
__global__ void __launch_bounds__(kThreadsD, 2) DecodeSplitKernel(DecodeArgs a) {
  constexpr int R = 16 * MT, LD = D + 8, kChunks = D / 8, ST = Stages<D>();
  extern __shared__ float4 smem4[];
  std::uint16_t* Qs = reinterpret_cast<std::uint16_t*>(smem4);
  std::uint16_t* Ks = Qs + R * LD;                  // [ST][B_c][LD]
  std::uint16_t* Vs = Ks + ST * kDecodeBc * LD;     // [ST][B_c][LD]
  float* Ow = reinterpret_cast<float*>(Ks);         // after the loop: [4][R][D], then m [4][R], l [4][R]
  float* Mw = Ow + kWarpsD * R * D;
  float* Lw = Mw + kWarpsD * R;

  const int split = blockIdx.x, rg = blockIdx.y % a.row_groups, hkv = blockIdx.y / a.row_groups, b = blockIdx.z;
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  const int base = a.tiles / a.splits, rem = a.tiles % a.splits;
  const int t_begin = split * base + min(split, rem), t_count = base + (split < rem ? 1 : 0);
  const int key_begin = t_begin * kDecodeBc, key_end = min(a.n_kv, (t_begin + t_count) * kDecodeBc);
  const int row0 = rg * R, rows_here = min(R, a.rows - row0);
  const long long cta = ((long long)b * a.heads_kv + hkv) * a.row_groups + rg;  // the unsplit block index
  const float sl2 = a.scale * 1.4426950408889634f;
  const bool lead = tid == 0;

  // Q rows: row r of the block is q head hkv·G + (row0 + r) / q_len, query (row0 + r) % q_len
  for (int idx = tid; idx < R * kChunks; idx += kThreadsD) {
    const int r = idx / kChunks, ch = idx % kChunks, rr = row0 + r;
    const bool ok = r < rows_here;
    const long long qrow = ok ? ((long long)b * a.heads_q + hkv * a.group + rr / a.q_len) * a.q_len + rr % a.q_len : 0;
    CpAsync16(Qs + r * LD + ch * 8, a.q + qrow * D + ch * 8, ok);
  }
  const long long head_off = ((long long)b * a.heads_kv + hkv) * a.n_kv * D;
  unsigned long long table_reads = 0;  // this thread's block-table entries (first row of each page it loads)
  auto load_tile = [&](int i) {        // tile t_begin + i into stage i % ST
    if (i >= t_count) return;
    const int key0 = (t_begin + i) * kDecodeBc, st = i % ST;
    for (int idx = tid; idx < kDecodeBc * kChunks; idx += kThreadsD) {
      const int r = idx / kChunks, ch = idx % kChunks, key = key0 + r;
      const bool ok = key < key_end;
      long long off = 0;
      if (ok) {
        if (a.block_table) {
          const int page = key / a.page_size, in_page = key - page * a.page_size;
          const int phys = __ldg(a.block_table + (long long)b * a.pages_per_seq + page);
          if (ch == 0 && (in_page == 0 || key == key_begin)) ++table_reads;
          off = (((long long)phys * a.page_size + in_page) * a.heads_kv + hkv) * D;
        } else {
          off = head_off + (long long)key * D;
        }
      }
      CpAsync16Pf(Ks + (st * kDecodeBc + r) * LD + ch * 8, a.k + off + ch * 8, ok, a.l2_prefetch);
      CpAsync16Pf(Vs + (st * kDecodeBc + r) * LD + ch * 8, a.v + off + ch * 8, ok, a.l2_prefetch);
    }
  };
  load_tile(0);
  CpAsyncCommit();  // group 0: Q and tile 0
  for (int i = 1; i < ST - 1; ++i) { load_tile(i); CpAsyncCommit(); }

  float o[MT][D / 8][4];
  float m[MT][2], l[MT][2];
#pragma unroll
  for (int mt = 0; mt < MT; ++mt) {
#pragma unroll
    for (int n = 0; n < D / 8; ++n) o[mt][n][0] = o[mt][n][1] = o[mt][n][2] = o[mt][n][3] = 0.f;
    m[mt][0] = m[mt][1] = -INFINITY;
    l[mt][0] = l[mt][1] = 0.f;
  }
  const unsigned smid = dev::SmId();
  const int mask_from = a.n_kv - a.q_len + 1;  // keys ≥ this are masked for some query (or past N)

  for (int i = 0; i < t_count; ++i) {
    const unsigned long long t0 = (a.records && lead) ? dev::GlobalTimer() : 0ull;
    CpAsyncWait<ST - 2>();
    __syncthreads();            // tile i landed for every thread; stage (i − 1) % ST is free
    load_tile(i + ST - 1);
    CpAsyncCommit();
    const int jt = t_begin + i, key0 = jt * kDecodeBc;
    const std::uint16_t* Kst = Ks + (i % ST) * kDecodeBc * LD;
    const std::uint16_t* Vst = Vs + (i % ST) * kDecodeBc * LD;

    float s[MT][2][4];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int n = 0; n < 2; ++n) s[mt][n][0] = s[mt][n][1] = s[mt][n][2] = s[mt][n][3] = 0.f;
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk) {
      unsigned kb[4];
      LdMatrixX4(kb, Kst + (warp * 16 + (lane % 8) + 8 * (lane / 16)) * LD + kk * 16 + 8 * ((lane / 8) % 2));
#pragma unroll
      for (int mt = 0; mt < MT; ++mt) {
        unsigned qa[4];
        LdMatrixX4(qa, Qs + (mt * 16 + (lane % 8) + 8 * ((lane / 8) % 2)) * LD + kk * 16 + 8 * (lane / 16));
        Mma<true>(s[mt][0], qa, kb[0], kb[1]);
        Mma<true>(s[mt][1], qa, kb[2], kb[3]);
      }
    }
    const bool masked_tile = key0 + kDecodeBc > mask_from;
    if (masked_tile) {
#pragma unroll
      for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int n = 0; n < 2; ++n)
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            const int rr = row0 + mt * 16 + lane / 4 + 8 * (e / 2);
            const int key = key0 + warp * 16 + n * 8 + (lane % 4) * 2 + (e % 2);
            if (key >= a.n_kv || key > a.n_kv - a.q_len + rr % a.q_len) s[mt][n][e] = -INFINITY;
          }
    }
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        float mx = fmaxf(fmaxf(s[mt][0][2 * h], s[mt][0][2 * h + 1]), fmaxf(s[mt][1][2 * h], s[mt][1][2 * h + 1]));
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
        const float m_new = fmaxf(m[mt][h], mx);
        const float m_use = (m_new == -INFINITY) ? 0.f : m_new;
        const float alpha = exp2f((m[mt][h] - m_use) * sl2);
        float rs = 0.f;
#pragma unroll
        for (int n = 0; n < 2; ++n) {
          s[mt][n][2 * h] = exp2f(s[mt][n][2 * h] * sl2 - m_use * sl2);
          s[mt][n][2 * h + 1] = exp2f(s[mt][n][2 * h + 1] * sl2 - m_use * sl2);
          rs += s[mt][n][2 * h] + s[mt][n][2 * h + 1];
        }
        l[mt][h] = alpha * l[mt][h] + rs;  // this lane's partial sum; the quad is reduced at the end
        m[mt][h] = m_new;
#pragma unroll
        for (int n = 0; n < D / 8; ++n) { o[mt][n][2 * h] *= alpha; o[mt][n][2 * h + 1] *= alpha; }
      }
    unsigned pa[MT][4];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) {
      pa[mt][0] = PackBf16(s[mt][0][0], s[mt][0][1]);
      pa[mt][1] = PackBf16(s[mt][0][2], s[mt][0][3]);
      pa[mt][2] = PackBf16(s[mt][1][0], s[mt][1][1]);
      pa[mt][3] = PackBf16(s[mt][1][2], s[mt][1][3]);
    }
#pragma unroll
    for (int dp = 0; dp < D / 16; ++dp) {
      unsigned vb[4];
      LdMatrixX4T(vb, Vst + (warp * 16 + (lane % 8) + 8 * ((lane / 8) % 2)) * LD + dp * 16 + 8 * (lane / 16));
#pragma unroll
      for (int mt = 0; mt < MT; ++mt) {
        Mma<true>(o[mt][2 * dp], pa[mt], vb[0], vb[1]);
        Mma<true>(o[mt][2 * dp + 1], pa[mt], vb[2], vb[3]);
      }
    }
    if (a.records && lead) {
      // bytes as the block moved them: Q on the split's first tile, K_j + V_j, the table entries of the
      // pages this tile starts (a page shared with the previous tile was read there); O_s and lse_s (or
      // O when S = 1) on the split's last tile
      const int c_j = min(kDecodeBc, a.n_kv - key0);
      unsigned loaded = 2u * 2u * (unsigned)c_j * D + (i == 0 ? 2u * (unsigned)rows_here * D : 0u);
      if (a.block_table) {
        const int first = key0 / a.page_size, last = (key0 + c_j - 1) / a.page_size;
        const int shared_with_prev = (i > 0 && (key0 - 1) / a.page_size == first) ? 1 : 0;
        loaded += 4u * (unsigned)(last - first + 1 - shared_with_prev);
      }
      const bool last_tile = i == t_count - 1;
      const unsigned written = !last_tile ? 0u : a.splits > 1 ? (unsigned)rows_here * (4u * D + 4u) : (unsigned)rows_here * 2u * D;
      TileRecord rec;
      rec.t_start_ns = t0;
      rec.t_end_ns = dev::GlobalTimer();
      rec.q_tile = (unsigned)split;
      rec.kv_tile = (unsigned)jt;
      rec.bytes_loaded = loaded;
      rec.bytes_written = written;
      rec.smid = smid;
      rec.flags = masked_tile ? kTilePartial : 0u;
      rec.head = (unsigned)cta;
      TileRecord* slot = a.records + cta * a.tiles + jt;
      dev::WriteRecordFields(slot, rec);
      reinterpret_cast<volatile TileRecord*>(slot)->ready = RecordSeal(rec);
    }
  }
  CpAsyncWait<0>();
  __syncthreads();  // every warp is done with K/V: the stages become the merge buffer

  // each warp's (m, l, O) for its rows → shared memory
#pragma unroll
  for (int mt = 0; mt < MT; ++mt)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float lt = l[mt][h];
      lt += __shfl_xor_sync(0xffffffffu, lt, 1);
      lt += __shfl_xor_sync(0xffffffffu, lt, 2);
      const int r = mt * 16 + lane / 4 + 8 * h;
      float* orow = Ow + (warp * R + r) * D;
#pragma unroll
      for (int n = 0; n < D / 8; ++n)
        *reinterpret_cast<float2*>(orow + n * 8 + (lane % 4) * 2) = make_float2(o[mt][n][2 * h], o[mt][n][2 * h + 1]);
      if ((lane % 4) == 0) {
        Mw[warp * R + r] = m[mt][h];
        Lw[warp * R + r] = lt;
      }
    }
  __syncthreads();

  // merge the four warps: O = Σ_w e^{m_w − m} O_w / Σ_w e^{m_w − m} l_w, lse = m·scale + ln l
  const bool split_path = a.splits > 1;
  for (int idx = tid; idx < rows_here * (D / 4); idx += kThreadsD) {
    const int r = idx / (D / 4), c = (idx % (D / 4)) * 4, rr = row0 + r;
    float mx = -INFINITY;
#pragma unroll
    for (int w = 0; w < kWarpsD; ++w) mx = fmaxf(mx, Mw[w * R + r]);
    float ew[kWarpsD], lsum = 0.f;
#pragma unroll
    for (int w = 0; w < kWarpsD; ++w) {
      ew[w] = Mw[w * R + r] == -INFINITY ? 0.f : exp2f((Mw[w * R + r] - mx) * sl2);
      lsum += ew[w] * Lw[w * R + r];
    }
    const float inv = lsum > 0.f ? 1.f / lsum : 0.f;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
    for (int w = 0; w < kWarpsD; ++w) {
      const float4 x = *reinterpret_cast<const float4*>(Ow + (w * R + r) * D + c);
      acc.x += ew[w] * x.x; acc.y += ew[w] * x.y; acc.z += ew[w] * x.z; acc.w += ew[w] * x.w;
    }
    acc.x *= inv; acc.y *= inv; acc.z *= inv; acc.w *= inv;
    const long long qrow = ((long long)b * a.heads_q + hkv * a.group + rr / a.q_len) * a.q_len + rr % a.q_len;
    if (split_path) {
      *reinterpret_cast<float4*>(a.o_part + (qrow * a.splits + split) * D + c) = acc;
      if (c == 0) a.lse_part[qrow * a.splits + split] = lsum > 0.f ? mx * a.scale + logf(lsum) : -INFINITY;
    } else {
      *reinterpret_cast<uint2*>(a.o + qrow * D + c) = make_uint2(PackBf16(acc.x, acc.y), PackBf16(acc.z, acc.w));
    }
  }

  if (a.counters) {
    __shared__ unsigned long long tbl;
    if (lead) tbl = 0;
    __syncthreads();
    if (table_reads) atomicAdd(&tbl, table_reads);
    __syncthreads();
    if (lead) {
      unsigned long long* c = a.counters;
      const unsigned long long kv = (unsigned long long)(key_end - key_begin) * D, rows = (unsigned long long)rows_here;
      atomicAdd(c + kDQ, rows * D);
      atomicAdd(c + kDK, kv);
      atomicAdd(c + kDV, kv);
      if (tbl) atomicAdd(c + kDTable, tbl);
      if (split_path) {
        atomicAdd(c + kDOPartW, rows * D);
        atomicAdd(c + kDLseW, rows);
      } else {
        atomicAdd(c + kDOW, rows * D);
      }
      atomicAdd(c + kDCtas, 1ull);
      atomicAdd(c + kDTiles, (unsigned long long)t_count);
    }
  }
}

// One warp per query row: lse = ln Σ_s e^{lse_s}, O = Σ_s e^{lse_s − lse} O_s (bf16 out); the weights and
// the normalisation are lse_combine.cuh's, which the ring's merge (ring_rank.cu) shares.
template <int D>
__global__ void __launch_bounds__(kThreadsD) DecodeCombineKernel(const float* o_part, const float* lse_part, std::uint16_t* o,
                                                                 int n_rows, int splits, unsigned long long* counters,
                                                                 TileRecord* records) {
  constexpr int kPer = D / 32;  // columns per lane: 4 (d = 128) or 2 (d = 64)
  __shared__ float wts[kWarpsD][128];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const long long row = (long long)blockIdx.x * kWarpsD + warp;
  const unsigned long long t0 = (records && threadIdx.x == 0) ? dev::GlobalTimer() : 0ull;
  const bool ok = row < n_rows;
  if (ok) {
    const float* ls = lse_part + row * splits;
    float mx = -INFINITY;
    for (int s = lane; s < splits; s += 32) mx = fmaxf(mx, ls[s]);
#pragma unroll
    for (int x = 16; x > 0; x >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, x));
    float sum = 0.f;
    for (int s = lane; s < splits; s += 32) {
      const float e = dev::CombineWeight(ls[s], mx);
      wts[warp][s] = e;
      sum += e;
    }
#pragma unroll
    for (int x = 16; x > 0; x >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, x);
    __syncwarp();
    const float inv = dev::CombineInverse(sum);
    float acc[kPer] = {};
    const float* op = o_part + row * splits * D + lane * kPer;
#pragma unroll 4
    for (int s = 0; s < splits; ++s) {
      const float w = wts[warp][s];
      if constexpr (kPer == 4) {
        const float4 x = *reinterpret_cast<const float4*>(op + (long long)s * D);
        acc[0] += w * x.x; acc[1] += w * x.y; acc[2] += w * x.z; acc[3] += w * x.w;
      } else {
        const float2 x = *reinterpret_cast<const float2*>(op + (long long)s * D);
        acc[0] += w * x.x; acc[1] += w * x.y;
      }
    }
    std::uint16_t* orow = o + row * D + lane * kPer;
    if constexpr (kPer == 4)
      *reinterpret_cast<uint2*>(orow) = make_uint2(PackBf16(acc[0] * inv, acc[1] * inv), PackBf16(acc[2] * inv, acc[3] * inv));
    else
      *reinterpret_cast<unsigned*>(orow) = PackBf16(acc[0] * inv, acc[1] * inv);
  }
  if (counters || records) {
    const int n_ok = __syncthreads_count(ok && lane == 0);
    if (threadIdx.x == 0) {
      const unsigned long long rows = (unsigned long long)n_ok;
      if (counters) {
        atomicAdd(counters + kDOPartR, rows * splits * D);
        atomicAdd(counters + kDLseR, rows * splits);
        atomicAdd(counters + kDOW, rows * D);
        atomicAdd(counters + kDCombineRows, rows);
      }
      if (records) {
        TileRecord rec;
        rec.t_start_ns = t0;
        rec.t_end_ns = dev::GlobalTimer();
        rec.q_tile = blockIdx.x;
        rec.kv_tile = 0;
        rec.bytes_loaded = (unsigned)(rows * splits * (4ull * D + 4ull));
        rec.bytes_written = (unsigned)(rows * 2ull * D);
        rec.smid = dev::SmId();
        rec.flags = kTileCombine;
        rec.head = 0;
        TileRecord* slot = records + blockIdx.x;
        dev::WriteRecordFields(slot, rec);
        reinterpret_cast<volatile TileRecord*>(slot)->ready = RecordSeal(rec);
      }
    }
  }
}

__global__ void SpinKernel(unsigned long long ns) {
  const unsigned long long t0 = dev::GlobalTimer();
  while (dev::GlobalTimer() < t0 + ns) {}
}

template <int D, int MT>
void LaunchSplit(const DecodeArgs& a, dim3 grid, cudaStream_t st) {
  constexpr size_t smem = DecodeSmemBytes<D, MT>();
  static const bool attribute_set = [] {  // once per kernel: launches in a timed loop stay launches only
    Check(cudaFuncSetAttribute(DecodeSplitKernel<D, MT>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
          "cudaFuncSetAttribute(decode)");
    return true;
  }();
  (void)attribute_set;
  DecodeSplitKernel<D, MT><<<grid, kThreadsD, smem, st>>>(a);
  Check(cudaGetLastError(), "DecodeSplitKernel launch");
}

template <int D, int MT>
int Occupancy() {
  constexpr size_t smem = DecodeSmemBytes<D, MT>();
  Check(cudaFuncSetAttribute(DecodeSplitKernel<D, MT>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
        "cudaFuncSetAttribute(decode)");
  int n = 0;
  Check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, DecodeSplitKernel<D, MT>, kThreadsD, smem), "occupancy(decode)");
  return std::max(1, n);
}

int OccupancyFor(int d, int rows_per_cta) {
  if (d == 64) return rows_per_cta == 16 ? Occupancy<64, 1>() : Occupancy<64, 2>();
  return rows_per_cta == 16 ? Occupancy<128, 1>() : Occupancy<128, 2>();
}

// Tuning knobs for measurements (cuda_decode_bench sweep): the environment overrides the defaults.
constexpr int kDefaultL2Prefetch = 0;
constexpr int kDefaultSlotsPerSm = 0;  // 0: the split kernel's occupancy
int EnvInt(const char* name, int fallback) {
  const char* e = std::getenv(name);
  return (e && *e) ? std::atoi(e) : fallback;
}

// The device buffers of one problem.
struct DecodeBuffers {
  DevBuf q, k, v, table, o, o_part, lse_part, counters, records;
};

DecodeArgs MakeArgs(const DecodePlan& p, const DecodeBuffers& bf, bool records) {
  const DecodeShape& s = p.shape;
  DecodeArgs a{};
  a.q = bf.q.as<std::uint16_t>();
  a.k = bf.k.as<std::uint16_t>();
  a.v = bf.v.as<std::uint16_t>();
  a.block_table = s.page_size > 0 ? bf.table.as<int>() : nullptr;
  a.o = bf.o.as<std::uint16_t>();
  a.o_part = bf.o_part.as<float>();
  a.lse_part = bf.lse_part.as<float>();
  a.q_len = s.q_len; a.n_kv = s.n_kv; a.heads_q = s.heads_q; a.heads_kv = s.heads_kv;
  a.group = p.group; a.rows = p.rows; a.row_groups = p.row_groups; a.tiles = p.tiles; a.splits = p.splits;
  a.page_size = s.page_size; a.pages_per_seq = s.PagesPerSeq();
  a.scale = 1.f / std::sqrt((float)s.d);
  a.l2_prefetch = EnvInt("BW_DECODE_L2_PREFETCH", kDefaultL2Prefetch);
  a.counters = bf.counters.as<unsigned long long>();
  a.records = records ? bf.records.as<TileRecord>() : nullptr;
  return a;
}

std::int64_t QRows(const DecodePlan& p) { return (std::int64_t)p.shape.batch * p.shape.heads_q * p.shape.q_len; }

void Launch(const DecodePlan& p, const DecodeArgs& a, cudaStream_t st) {
  const dim3 grid(p.splits, p.shape.heads_kv * p.row_groups, p.shape.batch);
  const int d = p.shape.d;
  if (d == 64) p.rows_per_cta == 16 ? LaunchSplit<64, 1>(a, grid, st) : LaunchSplit<64, 2>(a, grid, st);
  else p.rows_per_cta == 16 ? LaunchSplit<128, 1>(a, grid, st) : LaunchSplit<128, 2>(a, grid, st);
  if (p.Split()) {
    const long long rows = QRows(p);
    const unsigned blocks = (unsigned)((rows + kWarpsD - 1) / kWarpsD);
    TileRecord* crec = a.records ? a.records + (long long)p.ctas_unsplit * p.tiles : nullptr;
    if (d == 64) DecodeCombineKernel<64><<<blocks, kThreadsD, 0, st>>>(a.o_part, a.lse_part, a.o, (int)rows, p.splits, a.counters, crec);
    else DecodeCombineKernel<128><<<blocks, kThreadsD, 0, st>>>(a.o_part, a.lse_part, a.o, (int)rows, p.splits, a.counters, crec);
    Check(cudaGetLastError(), "DecodeCombineKernel launch");
  }
}

std::int64_t RecordCount(const DecodePlan& p) {
  return (std::int64_t)p.ctas_unsplit * p.tiles + (p.Split() ? (QRows(p) + kWarpsD - 1) / kWarpsD : 0);
}

DecodeBuffers Allocate(const DecodePlan& p, bool records) {
  const DecodeShape& s = p.shape;
  DecodeBuffers bf;
  const size_t kv_elems = s.page_size > 0 ? (size_t)s.physical_pages * s.page_size * s.heads_kv * s.d
                                          : (size_t)s.batch * s.heads_kv * s.n_kv * s.d;
  bf.q = DevBuf((size_t)QRows(p) * s.d * 2);
  bf.k = DevBuf(kv_elems * 2);
  bf.v = DevBuf(kv_elems * 2);
  if (s.page_size > 0) bf.table = DevBuf((size_t)s.batch * s.PagesPerSeq() * sizeof(int));
  bf.o = DevBuf((size_t)QRows(p) * s.d * 2);
  if (p.Split()) {
    bf.o_part = DevBuf((size_t)QRows(p) * p.splits * s.d * 4);
    bf.lse_part = DevBuf((size_t)QRows(p) * p.splits * 4);
  }
  bf.counters = DevBuf(kDNumSlots * sizeof(unsigned long long));
  if (records) bf.records = DevBuf((size_t)RecordCount(p) * sizeof(TileRecord));
  return bf;
}

DecodeCounters ReadCounters(const DevBuf& c) {
  unsigned long long h[kDNumSlots] = {};
  c.Download(h, sizeof(h));
  auto rd = [](unsigned long long e, int bytes) { return TensorTraffic{(std::int64_t)e, (std::int64_t)e * bytes, 0, 0}; };
  auto rw = [](unsigned long long r, unsigned long long w, int bytes) {
    return TensorTraffic{(std::int64_t)r, (std::int64_t)r * bytes, (std::int64_t)w, (std::int64_t)w * bytes};
  };
  DecodeCounters out;
  out.q = rd(h[kDQ], 2);
  out.k = rd(h[kDK], 2);
  out.v = rd(h[kDV], 2);
  out.table = rd(h[kDTable], 4);
  out.o_part = rw(h[kDOPartR], h[kDOPartW], 4);
  out.lse_part = rw(h[kDLseR], h[kDLseW], 4);
  out.o = rw(0, h[kDOW], 2);
  out.ctas = (std::int64_t)h[kDCtas];
  out.tiles = (std::int64_t)h[kDTiles];
  out.combine_rows = (std::int64_t)h[kDCombineRows];
  return out;
}

std::vector<std::uint16_t> ToBf16(const std::vector<float>& x) {
  std::vector<std::uint16_t> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float r = RoundToBf16(x[i]);
    std::uint32_t u;
    std::memcpy(&u, &r, 4);
    out[i] = (std::uint16_t)(u >> 16);
  }
  return out;
}

}  // namespace
}  // namespace bw::cuda::detail

namespace bw::cuda {

using namespace detail;

DecodePlan PlanDecodeOnDevice(const DecodeShape& shape, int forced_splits) {
  // the plan's rows_per_cta picks the kernel; its occupancy gives the slots the heuristic fills
  const DecodePlan probe = PlanDecode(shape, 1, 1, 1);
  const int slots_per_sm = EnvInt("BW_DECODE_SLOTS_PER_SM", kDefaultSlotsPerSm);
  return PlanDecode(shape, SmCount(), slots_per_sm > 0 ? slots_per_sm : OccupancyFor(shape.d, probe.rows_per_cta), forced_splits);
}

DecodeResult RunDecode(const DecodeShape& shape, const DecodeInputs& in, const DecodeOptions& opt) {
  DecodeResult r;
  r.plan = PlanDecodeOnDevice(shape, opt.forced_splits);
  const DecodePlan& p = r.plan;
  r.ctas_per_sm = p.slots / SmCount();
  const DecodeShape& s = shape;
  const size_t kv_elems = s.page_size > 0 ? (size_t)s.physical_pages * s.page_size * s.heads_kv * s.d
                                          : (size_t)s.batch * s.heads_kv * s.n_kv * s.d;
  if (in.q.size() != (size_t)QRows(p) * s.d) throw std::invalid_argument("RunDecode: q has the wrong size");
  if (in.k.size() != kv_elems || in.v.size() != kv_elems) throw std::invalid_argument("RunDecode: k/v have the wrong size");
  if (s.page_size > 0 && in.block_table.size() != (size_t)s.batch * s.PagesPerSeq())
    throw std::invalid_argument("RunDecode: block_table has the wrong size");
  DecodeBuffers bf = Allocate(p, opt.records);
  const auto q16 = ToBf16(in.q), k16 = ToBf16(in.k), v16 = ToBf16(in.v);
  bf.q.Upload(q16.data(), q16.size() * 2);
  bf.k.Upload(k16.data(), k16.size() * 2);
  bf.v.Upload(v16.data(), v16.size() * 2);
  if (s.page_size > 0) bf.table.Upload(in.block_table.data(), in.block_table.size() * sizeof(int));
  bf.counters.Zero();
  bf.o.Fill(0xff);  // NaN pattern: a row the kernels miss shows as a mismatch
  if (opt.records) bf.records.Zero();
  DecodeArgs a = MakeArgs(p, bf, opt.records);
  if (in.scale > 0.f) a.scale = in.scale;
  Events ev;
  ev.Record(0, nullptr);
  Launch(p, a, nullptr);
  ev.Record(1, nullptr);
  Check(cudaDeviceSynchronize(), "decode kernels");
  r.ms = ev.Ms(0, 1);
  std::vector<std::uint16_t> o16((size_t)QRows(p) * s.d);
  bf.o.Download(o16.data(), o16.size() * 2);
  r.o.resize(o16.size());
  for (size_t i = 0; i < o16.size(); ++i) {
    const std::uint32_t u = (std::uint32_t)o16[i] << 16;
    std::memcpy(&r.o[i], &u, 4);
  }
  if (p.Split()) {
    r.lse_part.resize((size_t)QRows(p) * p.splits);
    bf.lse_part.Download(r.lse_part.data(), r.lse_part.size() * 4);
  }
  r.counters = ReadCounters(bf.counters);
  if (opt.records) {
    r.records.resize(RecordCount(p));
    bf.records.Download(r.records.data(), r.records.size() * sizeof(TileRecord));
  }
  return r;
}

DecodeBenchResult BenchDecode(const DecodeShape& shape, int forced_splits, int iters) {
  DecodeBenchResult r;
  r.plan = PlanDecodeOnDevice(shape, forced_splits);
  const DecodePlan& p = r.plan;
  DecodeBuffers bf = Allocate(p, false);
  RandomFill(bf.q, bf.q.bytes / 2, true, true, 11);
  RandomFill(bf.k, bf.k.bytes / 2, true, true, 12);
  RandomFill(bf.v, bf.v.bytes / 2, true, true, 13);
  if (shape.page_size > 0) {  // a scattered table: sequence b's page i at a stride through the pool
    std::vector<int> t((size_t)shape.batch * shape.PagesPerSeq());
    const long long pool = shape.physical_pages;
    for (size_t i = 0; i < t.size(); ++i) t[i] = (int)(((long long)i * 7919) % pool);
    bf.table.Upload(t.data(), t.size() * sizeof(int));
  }
  const DecodeArgs a = MakeArgs(p, bf, false);
  for (int w = 0; w < 3; ++w) Launch(p, a, nullptr);  // warm-up (module load, first touch)
  Check(cudaDeviceSynchronize(), "decode warm-up");
  if (iters <= 0) {  // about 30 ms of launches, 10 … 2000 of them
    Events est;
    est.Record(0, nullptr);
    for (int w = 0; w < 5; ++w) Launch(p, a, nullptr);
    est.Record(1, nullptr);
    Check(cudaDeviceSynchronize(), "decode estimate");
    const double one = std::max(1e-4, (double)est.Ms(0, 1) / 5);
    iters = std::clamp((int)(30.0 / one), 10, 2000);
  }
  r.iters = iters;
  // time a spin's worth of launches: the spin keeps the GPU busy while the CPU queues all of them
  SpinKernel<<<1, 1>>>(20'000'000ull);
  Events ev;
  ev.Record(0, nullptr);
  for (int i = 0; i < iters; ++i) Launch(p, a, nullptr);
  ev.Record(1, nullptr);
  Check(cudaDeviceSynchronize(), "decode bench");
  r.ms = ev.Ms(0, 1) / iters;
  bf.counters.Zero();
  Launch(p, a, nullptr);
  Check(cudaDeviceSynchronize(), "decode counted run");
  r.counters = ReadCounters(bf.counters);
  const DecodeCounters model = PredictDecodeCounters(p);
  r.kv_bytes = model.KvBytes();
  r.hbm_bytes = model.ReadBytes() + model.WriteBytes();
  r.kv_gbps = r.kv_bytes / (r.ms * 1e-3) / 1e9;
  r.hbm_gbps = r.hbm_bytes / (r.ms * 1e-3) / 1e9;
  return r;
}

CopyBench BenchCopy(std::size_t bytes, int iters) {
  DevBuf src(bytes), dst(bytes);
  src.Fill(1);
  dst.Zero();
  for (int w = 0; w < 2; ++w) Check(cudaMemcpy(dst.ptr, src.ptr, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy D2D");
  Check(cudaDeviceSynchronize(), "copy warm-up");
  SpinKernel<<<1, 1>>>(5'000'000ull);
  Events ev;
  ev.Record(0, nullptr);
  for (int i = 0; i < iters; ++i) Check(cudaMemcpyAsync(dst.ptr, src.ptr, bytes, cudaMemcpyDeviceToDevice, nullptr), "cudaMemcpyAsync D2D");
  ev.Record(1, nullptr);
  Check(cudaDeviceSynchronize(), "copy bench");
  CopyBench r;
  r.ms = ev.Ms(0, 1) / iters;
  r.gbps_read_write = 2.0 * bytes / (r.ms * 1e-3) / 1e9;
  r.gbps_one_way = bytes / (r.ms * 1e-3) / 1e9;
  return r;
}

}  // namespace bw::cuda
