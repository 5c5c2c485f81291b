// kernels_fp32.cu — fp32 attention kernels: the materialising path (S and P written to HBM) and the
// tiled FlashAttention-2 forward (Dao 2023, Algorithm 1) with per-tile records and traffic tallies.
// [SECTION] materialising: S = scale*Q K^T, row softmax to P, O = P V  (Algorithm 0, lines 1-3)
// [SECTION] tiled FA-2: one block per Q tile, K/V tiles through shared memory, m/l/u in registers
// Numerics: expf/logf (not the fast intrinsics) so the fp32 result is within 1e-5 of a double reference.
// size-exception: the materialising path and the two tiled fp32 kernels side by side (Algorithm 0 and Algorithm 1, read against each other); each tiled kernel keeps its rows in registers through one loop of one __global__ function.
#include "cuda/cuda_util.h"
#include "cuda/kernels.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace bw::cuda::detail {
namespace {

constexpr float kNegInf = -INFINITY;

// ---------------------------------------------------------------------------------------------
// [SECTION] materialising
// ---------------------------------------------------------------------------------------------
constexpr int kT = 16;  // the textbook shared-memory GEMM tile

// pass 1: S = Q K^T * scale, masked entries -inf.  grid (ceil(N_k/16), ceil(N_q/16), heads), block 16x16
__global__ void ScoresKernel(DevProblem p, const float* __restrict__ q, const float* __restrict__ k, float* __restrict__ s) {
  __shared__ float Qt[kT][kT + 1], Kt[kT][kT + 1];
  const int tx = threadIdx.x, ty = threadIdx.y, h = blockIdx.z;
  const int i = blockIdx.y * kT + ty, j = blockIdx.x * kT + tx, jl = blockIdx.x * kT + ty;
  q += (long long)h * p.n_q * p.d;
  k += (long long)h * p.n_k * p.d;
  float acc = 0.f;
  for (int k0 = 0; k0 < p.d; k0 += kT) {
    Qt[ty][tx] = (i < p.n_q && k0 + tx < p.d) ? q[(long long)i * p.d + k0 + tx] : 0.f;
    Kt[ty][tx] = (jl < p.n_k && k0 + tx < p.d) ? k[(long long)jl * p.d + k0 + tx] : 0.f;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kT; ++kk) acc += Qt[ty][kk] * Kt[tx][kk];
    __syncthreads();
  }
  if (i < p.n_q && j < p.n_k)
    s[((long long)h * p.n_q + i) * p.n_k + j] = dev::Keep(p.mask, i, j) ? acc * p.scale : kNegInf;
}

// pass 2: P = softmax(S) per row; also L = m + log(l) and the fully-masked flag.  grid (N_q, heads), block 256
__global__ void SoftmaxKernel(DevProblem p, const float* __restrict__ s, float* __restrict__ pm, float* __restrict__ lse,
                              std::uint8_t* __restrict__ row_masked) {
  __shared__ float sm[32], sl[32];
  const long long row = (long long)blockIdx.y * p.n_q + blockIdx.x;
  const float* srow = s + row * p.n_k;
  float m = kNegInf, l = 0.f;  // online (m, l) over this thread's columns
  for (int j = threadIdx.x; j < p.n_k; j += blockDim.x) {
    const float x = srow[j];
    if (x == kNegInf) continue;
    if (x > m) { l = l * expf(m - x) + 1.f; m = x; } else { l += expf(x - m); }
  }
  // combine (m, l) pairs: warp shuffles, then the warps' results through shared memory
  auto combine = [](float& m, float& l, float m2, float l2) {
    const float mn = fmaxf(m, m2);
    if (mn == kNegInf) return;
    l = (m == kNegInf ? 0.f : l * expf(m - mn)) + (m2 == kNegInf ? 0.f : l2 * expf(m2 - mn));
    m = mn;
  };
  for (int o = 16; o > 0; o >>= 1) combine(m, l, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, l, o));
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nw = blockDim.x >> 5;
  if (lane == 0) { sm[warp] = m; sl[warp] = l; }
  __syncthreads();
  m = lane < nw ? sm[lane] : kNegInf;
  l = lane < nw ? sl[lane] : 0.f;
  for (int o = 16; o > 0; o >>= 1) combine(m, l, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, l, o));
  m = __shfl_sync(0xffffffffu, m, 0);
  l = __shfl_sync(0xffffffffu, l, 0);
  __syncthreads();
  if (threadIdx.x == 0) { sm[0] = m; sl[0] = l; }
  __syncthreads();
  m = sm[0];
  l = sl[0];
  const bool masked = (l == 0.f);
  float* prow = pm + row * p.n_k;
  for (int j = threadIdx.x; j < p.n_k; j += blockDim.x) prow[j] = masked ? 0.f : expf(srow[j] - m) / l;
  if (threadIdx.x == 0 && lse) {  // L and the flag: for checking only (null in the benchmark)
    lse[row] = masked ? kNegInf : m + logf(l);
    row_masked[row] = masked ? 1 : 0;
  }
}

// pass 3: O = P V.  grid (ceil(d_v/16), ceil(N_q/16), heads), block 16x16
__global__ void PvKernel(DevProblem p, const float* __restrict__ pm, const float* __restrict__ v, float* __restrict__ o) {
  __shared__ float Pt[kT][kT + 1], Vt[kT][kT + 1];
  const int tx = threadIdx.x, ty = threadIdx.y, h = blockIdx.z;
  const int i = blockIdx.y * kT + ty, c = blockIdx.x * kT + tx;
  pm += (long long)h * p.n_q * p.n_k;
  v += (long long)h * p.n_k * p.d_v;
  float acc = 0.f;
  for (int j0 = 0; j0 < p.n_k; j0 += kT) {
    Pt[ty][tx] = (i < p.n_q && j0 + tx < p.n_k) ? pm[(long long)i * p.n_k + j0 + tx] : 0.f;
    Vt[ty][tx] = (j0 + ty < p.n_k && c < p.d_v) ? v[(long long)(j0 + ty) * p.d_v + c] : 0.f;
    __syncthreads();
#pragma unroll
    for (int jj = 0; jj < kT; ++jj) acc += Pt[ty][jj] * Vt[jj][tx];
    __syncthreads();
  }
  if (i < p.n_q && c < p.d_v) o[((long long)h * p.n_q + i) * p.d_v + c] = acc;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] tiled FA-2
// Thread layout: 8 consecutive lanes share one query row (G = 8), so a block of B_r rows has
// 8*B_r threads (rounded up to whole warps). Lane g of a row owns keys g, g+8, ... of each K tile
// (scores) and output columns 4g + 32m (the running numerator u, FA-2's O~). Row max and row sum are
// 3-step shuffles inside the 8-lane group; P never leaves registers (shuffled to the V product).
// ---------------------------------------------------------------------------------------------
constexpr int kG = 8;
constexpr int kMaxBr = 64, kMaxBc = 128, kNs = kMaxBc / kG;

__host__ __device__ inline int RoundUp4(int x) { return (x + 3) & ~3; }
// row stride in floats: a multiple of 4 (float4 loads) whose quarter is odd, so 8 lanes reading
// 8 different rows at the same column hit 8 different 16-byte bank groups
__host__ __device__ inline int PadLd(int cols) { int ld = RoundUp4(cols); return ((ld / 4) % 2 == 0) ? ld + 4 : ld; }

struct TiledArgs {
  DevProblem p;
  int b_r, b_c, bc_alloc, t_r, t_c, ld_qk, ld_v, q_rows_alloc;  // bc_alloc = B_c rounded up to 8 (lane g reads key g + 8t)
  const float *q, *k, *v;
  const std::uint8_t* tile_class;
  float *o, *lse;
  std::uint8_t* row_masked;
  TileRecord* records;
  unsigned long long* counters;
  unsigned long long pace_ns;
  int live;  // records go to mapped host memory, polled while the kernel runs
  int publish_every;  // ready words set every this many records (and at the last tile)
};

// copy a (rows x cols) row-major tile from global to shared memory (row stride ld), zero-filling
// rows rows..rows_alloc-1 and columns cols..RoundUp4(cols)-1. Coalesced 4-byte loads.
__device__ __forceinline__ void LoadTile(float* __restrict__ dst, int ld, const float* __restrict__ src, int rows,
                                         int cols, int rows_alloc) {
  const int c4 = RoundUp4(cols), n = rows_alloc * c4;
  if (c4 == cols) {
    for (int idx = threadIdx.x; idx < n; idx += blockDim.x) {
      const int r = idx / c4, c = idx - r * c4;
      dst[r * ld + c] = (r < rows) ? src[idx] : 0.f;
    }
  } else {
    for (int idx = threadIdx.x; idx < n; idx += blockDim.x) {
      const int r = idx / c4, c = idx - r * c4;
      dst[r * ld + c] = (r < rows && c < cols) ? src[r * cols + c] : 0.f;
    }
  }
}

template <int DMAX>
__global__ void __launch_bounds__(kMaxBr * kG) TiledFp32Kernel(TiledArgs a) {
  constexpr int kNu = DMAX / 32;  // float4 chunks of u per lane
  extern __shared__ float4 smem4[];
  float* Qs = reinterpret_cast<float*>(smem4);
  float* Ks = Qs + a.q_rows_alloc * a.ld_qk;
  float* Vs = Ks + a.bc_alloc * a.ld_qk;
  std::uint8_t* cls_row = reinterpret_cast<std::uint8_t*>(Vs + a.bc_alloc * a.ld_v);

  const DevProblem& p = a.p;
  const int i_tile = gridDim.x - 1 - blockIdx.x, head = blockIdx.y  /* last Q tiles first: under a causal mask they have the most K/V tiles */;
  const int lane = threadIdx.x & 31, g = lane & (kG - 1), r = threadIdx.x / kG;
  const int row0 = i_tile * a.b_r, rows_i = min(a.b_r, p.n_q - row0);
  const int row = row0 + r;
  const bool row_valid = r < rows_i;
  const float* q = a.q + ((long long)head * p.n_q + row0) * p.d;
  const float* k = a.k + (long long)head * p.n_k * p.d;
  const float* v = a.v + (long long)head * p.n_k * p.d_v;
  const bool lead = threadIdx.x == 0;
  const unsigned smid = dev::SmId();

  // Algorithm 1 line 4: load Q_i into SRAM (once); the row of tile classes comes with it.
  LoadTile(Qs, a.ld_qk, q, rows_i, p.d, a.q_rows_alloc);
  for (int j = threadIdx.x; j < a.t_c; j += blockDim.x) cls_row[j] = a.tile_class[(long long)i_tile * a.t_c + j];
  __syncthreads();

  // line 5: m = -inf, l = 0, u = 0 (registers)
  float m_i = -INFINITY, l_i = 0.f;
  float4 u[kNu];
#pragma unroll
  for (int c = 0; c < kNu; ++c) u[c] = make_float4(0.f, 0.f, 0.f, 0.f);
  unsigned long long kv_elems_k = 0, kv_elems_v = 0, n_skipped = 0;
  int unpublished = 0;  // records written by thread 0 whose ready word is not yet set

  for (int j = 0; j < a.t_c; ++j) {
    const unsigned long long t0 = lead ? dev::GlobalTimer() : 0ull;
    const int cls = cls_row[j];
    const int key0 = j * a.b_c, c_j = min(a.b_c, p.n_k - key0);
    if (cls != 0) {
      // line 6: load K_j, V_j into SRAM
      LoadTile(Ks, a.ld_qk, k + (long long)key0 * p.d, c_j, p.d, a.bc_alloc);  // rows c_j..bc_alloc-1 zero
      LoadTile(Vs, a.ld_v, v + (long long)key0 * p.d_v, c_j, p.d_v, a.bc_alloc);
      __syncthreads();
      kv_elems_k += (unsigned long long)c_j * p.d;
      kv_elems_v += (unsigned long long)c_j * p.d_v;

      // line 8: S_ij = Q_i K_j^T (scaled); this lane's keys g + 8t
      float s[kNs];
#pragma unroll
      for (int t = 0; t < kNs; ++t) s[t] = 0.f;
      const float* qr = Qs + r * a.ld_qk;
      for (int kc = 0; kc < a.ld_qk - 3; kc += 4) {
        if (kc >= p.d) break;
        const float4 qv = *reinterpret_cast<const float4*>(qr + kc);
#pragma unroll
        for (int t = 0; t < kNs; ++t) {
          if (t * kG < a.b_c) {
            const float4 kv = *reinterpret_cast<const float4*>(Ks + (g + kG * t) * a.ld_qk + kc);
            s[t] += qv.x * kv.x + qv.y * kv.y + qv.z * kv.z + qv.w * kv.w;
          }
        }
      }
#pragma unroll
      for (int t = 0; t < kNs; ++t) {
        const int jj = g + kG * t;
        bool keep = (t * kG < a.b_c) && jj < c_j && row_valid;
        if (keep && cls == 2) keep = dev::Keep(p.mask, row, key0 + jj);
        s[t] = keep ? s[t] * p.scale : -INFINITY;
      }
      // line 9: m_new = max(m, rowmax(S)), P~ = exp(S - m_new), l = e^{m - m_new} l + rowsum(P~)
      float mx = -INFINITY;
#pragma unroll
      for (int t = 0; t < kNs; ++t) mx = fmaxf(mx, s[t]);
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 4));
      const float m_new = fmaxf(m_i, mx);
      const float m_use = (m_new == -INFINITY) ? 0.f : m_new;  // a row masked so far stays at l = 0
      const float alpha = expf(m_i - m_use);
      float rs = 0.f;
#pragma unroll
      for (int t = 0; t < kNs; ++t) { s[t] = expf(s[t] - m_use); rs += s[t]; }
      rs += __shfl_xor_sync(0xffffffffu, rs, 1);
      rs += __shfl_xor_sync(0xffffffffu, rs, 2);
      rs += __shfl_xor_sync(0xffffffffu, rs, 4);
      l_i = alpha * l_i + rs;
      m_i = m_new;
      // line 10: u = diag(e^{m - m_new}) u + P~ V_j
#pragma unroll
      for (int c = 0; c < kNu; ++c) { u[c].x *= alpha; u[c].y *= alpha; u[c].z *= alpha; u[c].w *= alpha; }
      const int base = lane & ~(kG - 1);
#pragma unroll
      for (int t = 0; t < kNs; ++t) {
        if (t * kG < a.b_c) {
#pragma unroll
          for (int gg = 0; gg < kG; ++gg) {
            const float pj = __shfl_sync(0xffffffffu, s[t], base | gg);
            const float* vr = Vs + (kG * t + gg) * a.ld_v;
#pragma unroll
            for (int c = 0; c < kNu; ++c) {
              const int col = 4 * g + 32 * c;
              if (col < p.d_v) {
                const float4 vv = *reinterpret_cast<const float4*>(vr + col);
                u[c].x += pj * vv.x; u[c].y += pj * vv.y; u[c].z += pj * vv.z; u[c].w += pj * vv.w;
              }
            }
          }
        }
      }
      __syncthreads();  // every lane is done with K_j, V_j before the next load overwrites them
    } else {
      ++n_skipped;
    }
    const bool last = (j == a.t_c - 1);
    if (last) {
      // lines 12-13: O_i = diag(l)^-1 u, L_i = m + log(l); written once. Fully masked rows: 0, -inf, flagged.
      if (row_valid) {
        float* orow = a.o + ((long long)head * p.n_q + row) * p.d_v;
        const float inv = (l_i > 0.f) ? 1.f / l_i : 0.f;
#pragma unroll
        for (int c = 0; c < kNu; ++c) {
          const int col = 4 * g + 32 * c;
          const float vals[4] = {u[c].x * inv, u[c].y * inv, u[c].z * inv, u[c].w * inv};
#pragma unroll
          for (int e = 0; e < 4; ++e) if (col + e < p.d_v) orow[col + e] = vals[e];
        }
        if (g == 0) {
          const long long ri = (long long)head * p.n_q + row;
          a.lse[ri] = (l_i > 0.f) ? m_i + logf(l_i) : -INFINITY;
          a.row_masked[ri] = (l_i > 0.f) ? 0 : 1;
        }
      }
      __syncthreads();
    }
    if (lead && (cls != 0 || a.live)) {
      const dev::TileStep step{t0, (unsigned)i_tile, (unsigned)j, (unsigned)head, smid, cls,
                               4u * ((j == 0 ? (unsigned)rows_i * p.d : 0u) + (cls != 0 ? (unsigned)c_j * (p.d + p.d_v) : 0u)),
                               last ? 4u * (unsigned)rows_i * (p.d_v + 1) : 0u, last};
      if (a.live) dev::FinishTileStep<true>(step, a.records, a.t_r, a.t_c, a.pace_ns, a.publish_every, unpublished);
      else dev::FinishTileStep<false>(step, a.records, a.t_r, a.t_c, a.pace_ns, a.publish_every, unpublished);
    }
  }
  if (!a.live && a.records)
    dev::WriteSkippedRecords(cls_row, a.records, a.t_r, a.t_c, i_tile, head, smid, 4u * (unsigned)rows_i * p.d,
                             4u * (unsigned)rows_i * (p.d_v + 1));
  if (a.counters) {
    const int n_masked = __syncthreads_count(row_valid && g == 0 && !(l_i > 0.f));
    if (lead)
      dev::AddBlockCounters(a.counters, (unsigned long long)rows_i * p.d, kv_elems_k, kv_elems_v,
                            (unsigned long long)rows_i * p.d_v, (unsigned long long)rows_i, (unsigned long long)a.t_c, n_skipped,
                            (unsigned long long)n_masked);
  }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] tiled FA-2, fast path for B_r = B_c = 64 and d, d_v <= 128 (same algorithm, same
// records and tallies). 256 threads as a 16 x 16 grid: thread (ty, tx) computes a 4 x 4 block of
// S_ij — query rows 4ty..4ty+3, keys tx, tx+16, tx+32, tx+48 — so each float4 pair read from shared
// memory feeds 8 FMAs instead of 4. Row max / row sum: shuffles across the 16 lanes of a half-warp.
// P~ goes through shared memory transposed (P^T[key][row]) so the P V product reads one float4 of
// P~ and one of V per 16 FMAs. For d or d_v > 64, V reuses K's buffer (loaded after S is formed)
// so two blocks fit on one SM.
// ---------------------------------------------------------------------------------------------
constexpr int kFastTile = 64, kFastThreads = 256, kLdP = 68;

struct FastLayout { int off_k, off_v, off_p, off_cls, buf_stride; size_t bytes; };

// Shared memory (floats): Q_i [64][ld_qk] | K buffers | V buffers | P~^T [64][68] | tile classes (bytes).
// Not shared_kv: two K and two V buffers (cp.async prefetch of the next tile while this one computes).
// shared_kv (d or d_v > 64): one buffer that holds K_j, then V_j, so two blocks still fit on an SM.
__host__ __device__ inline FastLayout MakeFastLayout(int ld_qk, int ld_v, bool shared_kv, int t_c) {
  FastLayout L;
  L.off_k = kFastTile * ld_qk;
  if (shared_kv) {
    L.buf_stride = 0;
    L.off_v = L.off_k;
    L.off_p = L.off_k + kFastTile * (ld_qk > ld_v ? ld_qk : ld_v);
  } else {
    L.buf_stride = kFastTile * (ld_qk > ld_v ? ld_qk : ld_v);
    L.off_v = L.off_k + 2 * L.buf_stride;
    L.off_p = L.off_v + 2 * L.buf_stride;
  }
  L.off_cls = L.off_p + kFastTile * kLdP;
  L.bytes = sizeof(float) * (size_t)L.off_cls + t_c;
  return L;
}

__device__ __forceinline__ void CpAsync16(void* smem, const void* gmem, bool valid) {
  const unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa), "l"(gmem), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void CpAsyncCommit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void CpAsyncWait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

// (64 x cols) tile, cols % 4 == 0, rows rows_valid..63 zero-filled (src-size 0: nothing is read).
__device__ __forceinline__ void AsyncTile(float* dst, int ld, const float* src, int rows_valid, int cols) {
  const int cpr = cols >> 2;
  for (int idx = threadIdx.x; idx < kFastTile * cpr; idx += kFastThreads) {
    const int r = idx / cpr, c = idx - r * cpr;
    const bool ok = r < rows_valid;
    CpAsync16(dst + r * ld + 4 * c, src + (ok ? (long long)r * cols + 4 * c : 0), ok);
  }
}

template <int DV, bool SHARED_KV>
__global__ void __launch_bounds__(kFastThreads, 2) TiledFp32FastKernel(TiledArgs a, FastLayout lay) {
  constexpr int kH = DV / 64;  // column groups per thread: columns 4tx + 64h
  extern __shared__ float4 smem4[];
  float* Qs = reinterpret_cast<float*>(smem4);
  float* Ks = Qs + lay.off_k;
  float* Vs = Qs + lay.off_v;
  float* Ps = Qs + lay.off_p;
  std::uint8_t* cls_row = reinterpret_cast<std::uint8_t*>(Qs + lay.off_cls);

  const DevProblem& p = a.p;
  const int i_tile = gridDim.x - 1 - blockIdx.x, head = blockIdx.y  /* last Q tiles first: under a causal mask they have the most K/V tiles */;
  const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  const int row0 = i_tile * kFastTile, rows_i = min(kFastTile, p.n_q - row0);
  const float* q = a.q + ((long long)head * p.n_q + row0) * p.d;
  const float* k = a.k + (long long)head * p.n_k * p.d;
  const float* v = a.v + (long long)head * p.n_k * p.d_v;
  const bool lead = threadIdx.x == 0;
  const unsigned smid = dev::SmId();
  const int d4 = RoundUp4(p.d);
  // K/V tiles (and Q_i) come by cp.async when rows are 16-byte multiples; otherwise by plain loads (odd d).
  const bool async_kv = (p.d % 4 == 0) && (p.d_v % 4 == 0);

  if (async_kv) {  // Algorithm 1 line 4
    AsyncTile(Qs, a.ld_qk, q, rows_i, p.d);
    CpAsyncCommit();
    CpAsyncWait<0>();
  } else {
    LoadTile(Qs, a.ld_qk, q, rows_i, p.d, kFastTile);
  }
  for (int j = threadIdx.x; j < a.t_c; j += blockDim.x) cls_row[j] = a.tile_class[(long long)i_tile * a.t_c + j];
  __syncthreads();

  float m_i[4], l_i[4];
  float4 u[4][kH];
#pragma unroll
  for (int rr = 0; rr < 4; ++rr) {
    m_i[rr] = -INFINITY;
    l_i[rr] = 0.f;
#pragma unroll
    for (int h = 0; h < kH; ++h) u[rr][h] = make_float4(0.f, 0.f, 0.f, 0.f);
  }
  unsigned long long kv_elems_k = 0, kv_elems_v = 0, n_skipped = 0;
  int unpublished = 0;  // records written by thread 0 whose ready word is not yet set

  auto issue_kv = [&](int jt, int buf) {
    const int kk0 = jt * kFastTile, cc = min(kFastTile, p.n_k - kk0);
    AsyncTile(Ks + buf * lay.buf_stride, a.ld_qk, k + (long long)kk0 * p.d, cc, p.d);
    if (!SHARED_KV) AsyncTile(Vs + buf * lay.buf_stride, a.ld_v, v + (long long)kk0 * p.d_v, cc, p.d_v);
  };
  int buf = 0;
  if (!SHARED_KV && async_kv) {  // prologue: the first tile that is not skipped
    int first = 0;
    while (first < a.t_c && cls_row[first] == 0) ++first;
    if (first < a.t_c) issue_kv(first, 0);
    CpAsyncCommit();
  }

  for (int j = 0; j < a.t_c; ++j) {
    const unsigned long long t0 = lead ? dev::GlobalTimer() : 0ull;
    const int cls = cls_row[j];
    const int key0 = j * kFastTile, c_j = min(kFastTile, p.n_k - key0);
    if (cls != 0) {
      // line 6: K_j, V_j in SRAM (and, double-buffered, the next tile's already on its way)
      if (SHARED_KV) {
        if (async_kv) { issue_kv(j, 0); CpAsyncCommit(); CpAsyncWait<0>(); }
        else LoadTile(Ks, a.ld_qk, k + (long long)key0 * p.d, c_j, p.d, kFastTile);
      } else if (async_kv) {
        int nn = j + 1;
        while (nn < a.t_c && cls_row[nn] == 0) ++nn;
        if (nn < a.t_c) issue_kv(nn, buf ^ 1);
        CpAsyncCommit();
        CpAsyncWait<1>();
      } else {
        LoadTile(Ks, a.ld_qk, k + (long long)key0 * p.d, c_j, p.d, kFastTile);
        LoadTile(Vs, a.ld_v, v + (long long)key0 * p.d_v, c_j, p.d_v, kFastTile);
      }
      __syncthreads();
      const float* Kb = Ks + buf * lay.buf_stride;
      const float* Vb = Vs + buf * lay.buf_stride;
      kv_elems_k += (unsigned long long)c_j * p.d;
      kv_elems_v += (unsigned long long)c_j * p.d_v;

      // line 8: this thread's 4 x 4 block of S_ij
      float s[4][4];
#pragma unroll
      for (int rr = 0; rr < 4; ++rr)
#pragma unroll
        for (int cc = 0; cc < 4; ++cc) s[rr][cc] = 0.f;
#pragma unroll 2
      for (int kc = 0; kc < d4; kc += 4) {
        float4 qv[4], kv[4];
#pragma unroll
        for (int rr = 0; rr < 4; ++rr) qv[rr] = *reinterpret_cast<const float4*>(Qs + (ty * 4 + rr) * a.ld_qk + kc);
#pragma unroll
        for (int cc = 0; cc < 4; ++cc) kv[cc] = *reinterpret_cast<const float4*>(Kb + (tx + 16 * cc) * a.ld_qk + kc);
#pragma unroll
        for (int rr = 0; rr < 4; ++rr)
#pragma unroll
          for (int cc = 0; cc < 4; ++cc)
            s[rr][cc] += qv[rr].x * kv[cc].x + qv[rr].y * kv[cc].y + qv[rr].z * kv[cc].z + qv[rr].w * kv[cc].w;
      }
      if (SHARED_KV) {  // V_j into K_j's buffer once every thread is done with K_j; it lands during the softmax
        __syncthreads();
        if (async_kv) {
          AsyncTile(Vs, a.ld_v, v + (long long)key0 * p.d_v, c_j, p.d_v);
          CpAsyncCommit();
        } else {
          LoadTile(Vs, a.ld_v, v + (long long)key0 * p.d_v, c_j, p.d_v, kFastTile);
        }
      }
      // line 9: mask, scale, m_new, P~ = exp(S - m_new), l
      float alpha[4];
#pragma unroll
      for (int rr = 0; rr < 4; ++rr) {
        const int row = row0 + ty * 4 + rr;
        float mx = -INFINITY;
#pragma unroll
        for (int cc = 0; cc < 4; ++cc) {
          const int jj = tx + 16 * cc;
          bool keep = jj < c_j && row < p.n_q;
          if (keep && cls == 2) keep = dev::Keep(p.mask, row, key0 + jj);
          s[rr][cc] = keep ? s[rr][cc] * p.scale : -INFINITY;
          mx = fmaxf(mx, s[rr][cc]);
        }
#pragma unroll
        for (int o = 1; o < 16; o <<= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
        const float m_new = fmaxf(m_i[rr], mx);
        const float m_use = (m_new == -INFINITY) ? 0.f : m_new;
        alpha[rr] = expf(m_i[rr] - m_use);
        float rs = 0.f;
#pragma unroll
        for (int cc = 0; cc < 4; ++cc) { s[rr][cc] = expf(s[rr][cc] - m_use); rs += s[rr][cc]; }
#pragma unroll
        for (int o = 1; o < 16; o <<= 1) rs += __shfl_xor_sync(0xffffffffu, rs, o);
        l_i[rr] = alpha[rr] * l_i[rr] + rs;
        m_i[rr] = m_new;
      }
#pragma unroll
      for (int cc = 0; cc < 4; ++cc)
        *reinterpret_cast<float4*>(Ps + (tx + 16 * cc) * kLdP + ty * 4) = make_float4(s[0][cc], s[1][cc], s[2][cc], s[3][cc]);
      if (SHARED_KV && async_kv) CpAsyncWait<0>();
      __syncthreads();  // P~ (and V_j) visible to every thread
      // line 10: u = diag(alpha) u + P~ V_j
#pragma unroll
      for (int rr = 0; rr < 4; ++rr)
#pragma unroll
        for (int h = 0; h < kH; ++h) { u[rr][h].x *= alpha[rr]; u[rr][h].y *= alpha[rr]; u[rr][h].z *= alpha[rr]; u[rr][h].w *= alpha[rr]; }
#pragma unroll 4
      for (int jj = 0; jj < kFastTile; ++jj) {
        const float4 pv = *reinterpret_cast<const float4*>(Ps + jj * kLdP + ty * 4);
        const float pr[4] = {pv.x, pv.y, pv.z, pv.w};
#pragma unroll
        for (int h = 0; h < kH; ++h) {
          const int col = 4 * tx + 64 * h;
          if (col < p.d_v) {
            const float4 vv = *reinterpret_cast<const float4*>(Vb + jj * a.ld_v + col);
#pragma unroll
            for (int rr = 0; rr < 4; ++rr) {
              u[rr][h].x += pr[rr] * vv.x; u[rr][h].y += pr[rr] * vv.y; u[rr][h].z += pr[rr] * vv.z; u[rr][h].w += pr[rr] * vv.w;
            }
          }
        }
      }
      __syncthreads();  // K_j / V_j / P~ buffers free for the next tile
      if (!SHARED_KV && async_kv) buf ^= 1;
    } else {
      ++n_skipped;
    }
    const bool last = (j == a.t_c - 1);
    if (last) {  // lines 12-13
#pragma unroll
      for (int rr = 0; rr < 4; ++rr) {
        const int row = row0 + ty * 4 + rr;
        if (row < p.n_q) {
          float* orow = a.o + ((long long)head * p.n_q + row) * p.d_v;
          const float inv = (l_i[rr] > 0.f) ? 1.f / l_i[rr] : 0.f;
#pragma unroll
          for (int h = 0; h < kH; ++h) {
            const int col = 4 * tx + 64 * h;
            const float vals[4] = {u[rr][h].x * inv, u[rr][h].y * inv, u[rr][h].z * inv, u[rr][h].w * inv};
#pragma unroll
            for (int e = 0; e < 4; ++e) if (col + e < p.d_v) orow[col + e] = vals[e];
          }
          if (tx == 0) {
            const long long ri = (long long)head * p.n_q + row;
            a.lse[ri] = (l_i[rr] > 0.f) ? m_i[rr] + logf(l_i[rr]) : -INFINITY;
            a.row_masked[ri] = (l_i[rr] > 0.f) ? 0 : 1;
          }
        }
      }
      __syncthreads();
    }
    if (lead && (cls != 0 || a.live)) {
      const dev::TileStep step{t0, (unsigned)i_tile, (unsigned)j, (unsigned)head, smid, cls,
                               4u * ((j == 0 ? (unsigned)rows_i * p.d : 0u) + (cls != 0 ? (unsigned)c_j * (p.d + p.d_v) : 0u)),
                               last ? 4u * (unsigned)rows_i * (p.d_v + 1) : 0u, last};
      if (a.live) dev::FinishTileStep<true>(step, a.records, a.t_r, a.t_c, a.pace_ns, a.publish_every, unpublished);
      else dev::FinishTileStep<false>(step, a.records, a.t_r, a.t_c, a.pace_ns, a.publish_every, unpublished);
    }
  }
  CpAsyncWait<0>();
  if (!a.live && a.records)
    dev::WriteSkippedRecords(cls_row, a.records, a.t_r, a.t_c, i_tile, head, smid, 4u * (unsigned)rows_i * p.d,
                             4u * (unsigned)rows_i * (p.d_v + 1));
  if (a.counters) {
    int masked_here = 0;
    if (tx == 0)
      for (int rr = 0; rr < 4; ++rr) masked_here += (row0 + ty * 4 + rr < p.n_q && !(l_i[rr] > 0.f)) ? 1 : 0;
    int n_masked = 0;
    for (int t = 1; t <= 4; ++t) n_masked += __syncthreads_count(masked_here >= t);
    if (lead)
      dev::AddBlockCounters(a.counters, (unsigned long long)rows_i * p.d, kv_elems_k, kv_elems_v,
                            (unsigned long long)rows_i * p.d_v, (unsigned long long)rows_i, (unsigned long long)a.t_c, n_skipped,
                            (unsigned long long)n_masked);
  }
}

}  // namespace

void LaunchMaterialising(const DevProblem& p, const float* q, const float* k, const float* v, float* s, float* pm,
                         float* o, float* lse, std::uint8_t* row_masked, cudaStream_t st) {
  const dim3 blk(kT, kT);
  ScoresKernel<<<dim3((p.n_k + kT - 1) / kT, (p.n_q + kT - 1) / kT, p.heads), blk, 0, st>>>(p, q, k, s);
  Check(cudaGetLastError(), "ScoresKernel launch");
  SoftmaxKernel<<<dim3(p.n_q, p.heads), 256, 0, st>>>(p, s, pm, lse, row_masked);
  Check(cudaGetLastError(), "SoftmaxKernel launch");
  PvKernel<<<dim3((p.d_v + kT - 1) / kT, (p.n_q + kT - 1) / kT, p.heads), blk, 0, st>>>(p, pm, v, o);
  Check(cudaGetLastError(), "PvKernel launch");
}

size_t TiledFp32SmemBytes(const DevProblem& p, int b_r, int b_c) {
  const int q_rows_alloc = ((b_r + 3) / 4) * 4, bc_alloc = ((b_c + 7) / 8) * 8;
  const int t_c = (p.n_k + b_c - 1) / b_c;
  return sizeof(float) * ((size_t)q_rows_alloc * PadLd(p.d) + (size_t)bc_alloc * PadLd(p.d) + (size_t)bc_alloc * PadLd(p.d_v)) + t_c;
}

void LaunchTiledFp32(const DevProblem& p, int b_r, int b_c, const float* q, const float* k, const float* v,
                     const std::uint8_t* tile_class, float* o, float* lse, std::uint8_t* row_masked,
                     TileRecord* records, unsigned long long* counters, unsigned long long pace_ns, bool live, cudaStream_t st) {
  if (b_r < 1 || b_r > kMaxBr || b_c < 1 || b_c > kMaxBc)
    throw std::runtime_error("tiled fp32: B_r must be in [1, 64] and B_c in [1, 128]");
  const int dmax = p.d > p.d_v ? p.d : p.d_v;
  if (dmax > 256 || p.d < 1 || p.d_v < 1) throw std::runtime_error("tiled fp32: d and d_v must be in [1, 256]");
  TiledArgs a{};
  a.p = p;
  a.b_r = b_r;
  a.b_c = b_c;
  a.bc_alloc = ((b_c + 7) / 8) * 8;
  a.t_r = (p.n_q + b_r - 1) / b_r;
  a.t_c = (p.n_k + b_c - 1) / b_c;
  a.ld_qk = PadLd(p.d);
  a.ld_v = PadLd(p.d_v);
  a.q_rows_alloc = ((b_r + 3) / 4) * 4;
  a.q = q; a.k = k; a.v = v;
  a.tile_class = tile_class;
  a.o = o; a.lse = lse; a.row_masked = row_masked;
  a.records = records; a.counters = counters; a.pace_ns = pace_ns; a.live = live ? 1 : 0;
  a.publish_every = (live && pace_ns == 0) ? 8 : 1;
  const int dmax_fast = p.d > p.d_v ? p.d : p.d_v;
  if (b_r == kFastTile && b_c == kFastTile && dmax_fast <= 128) {  // the fast path: same algorithm, 4 x 4 blocks per thread
    const bool shared_kv = dmax_fast > 64;
    const FastLayout lay = MakeFastLayout(a.ld_qk, a.ld_v, shared_kv, a.t_c);
    auto launch_fast = [&](auto kernel) {
      EnsureDynamicSmem(kernel, lay.bytes, "cudaFuncSetAttribute(fp32 fast)");
      kernel<<<dim3(a.t_r, p.heads), kFastThreads, lay.bytes, st>>>(a, lay);
      Check(cudaGetLastError(), "TiledFp32FastKernel launch");
    };
    if (p.d_v > 64) launch_fast(TiledFp32FastKernel<128, true>);
    else if (shared_kv) launch_fast(TiledFp32FastKernel<64, true>);
    else launch_fast(TiledFp32FastKernel<64, false>);
    return;
  }
  const size_t smem = TiledFp32SmemBytes(p, b_r, b_c);
  int dev = 0, max_smem = 0;
  Check(cudaGetDevice(&dev), "cudaGetDevice");
  Check(cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), "cudaDeviceGetAttribute");
  if (smem > (size_t)max_smem)
    throw std::runtime_error("tiled fp32: tiles need " + std::to_string(smem) + " bytes of shared memory, the device allows " +
                             std::to_string(max_smem) + "; use smaller B_c or d");
  const dim3 grid(a.t_r, p.heads), block(a.q_rows_alloc * kG);
  auto launch = [&](auto kernel) {
    EnsureDynamicSmem(kernel, smem, "cudaFuncSetAttribute(fp32)");
    kernel<<<grid, block, smem, st>>>(a);
    Check(cudaGetLastError(), "TiledFp32Kernel launch");
  };
  if (dmax <= 32) launch(TiledFp32Kernel<32>);
  else if (dmax <= 64) launch(TiledFp32Kernel<64>);
  else if (dmax <= 128) launch(TiledFp32Kernel<128>);
  else launch(TiledFp32Kernel<256>);
}

}  // namespace bw::cuda::detail
