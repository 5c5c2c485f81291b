// kernel_tc.cu — bf16/fp16 tensor-core FlashAttention-2 forward (Dao 2023, Algorithm 1; §3.3 work
// partitioning: each warp owns its query rows, so no shared-memory exchange between warps).
// mma.sync m16n8k16 (fp32 accumulators), ldmatrix for Q and K, ldmatrix.trans for V, P kept in
// registers as the A operand of P V, K/V tiles double-buffered with cp.async (zero-filled tails).
// 4 warps of 16 or 32 rows (B_r = 64 causal, 128 otherwise: TensorCoreTiling), B_c = 64, head dim D in
// {32, 64, 128}; same tile records and counters as fp32.
// size-exception: TcKernel is one __global__ function whose mma.sync fragments stay in registers from Q K^T through the softmax to P V; split into device functions it would pass whole fragment arrays between them.
#include "cuda/cuda_util.h"
#include "cuda/kernels.h"
#include "cuda/mma_common.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace bw::cuda::detail {
namespace {

constexpr int kWarps = 4, kBc = kTcBc;

struct TcArgs {
  DevProblem p;  // p.d = p.d_v = D
  int t_r, t_c;
  const std::uint16_t *q, *k, *v;
  const std::uint8_t* tile_class;
  std::uint16_t* o;
  float* lse;
  std::uint8_t* row_masked;
  TileRecord* records;
  unsigned long long* counters;
  unsigned long long pace_ns;
  int live;  // records go to mapped host memory, polled while the kernel runs
  int publish_every;  // ready words set every this many records (and at the last tile)
  int heads_fastest;  // the grid is (heads, T_r): kernels.h's TileGrid
};

template <int D, int MT>
constexpr size_t TcSmemBytes() { return sizeof(std::uint16_t) * (size_t)(16 * kWarps * MT + 4 * kBc) * (D + 8); }

// LIVE (records in mapped host memory, published behind a system fence) is a template parameter so the
// plain build carries no fence code: in one build it cost the counters-on kernel several per cent.
// MT: 16-row MMA tiles per warp. MT = 2 (B_r = 128) lets each K and V fragment loaded by ldmatrix feed
// two MMAs, as FlashAttention-2's kernels do; Q fragments are then re-read from shared memory per tile.
template <int D, bool BF16, bool LIVE, int MT>
__global__ void __launch_bounds__(kWarps * 32) TcKernel(TcArgs a) {
  constexpr int kBrT = 16 * kWarps * MT;
  constexpr int LD = D + 8;  // +16 bytes per row: ldmatrix rows land in distinct bank groups
  constexpr int kChunks = D / 8;  // 16-byte chunks per row
  extern __shared__ float4 smem4[];
  std::uint16_t* Qs = reinterpret_cast<std::uint16_t*>(smem4);
  std::uint16_t* Ks = Qs + kBrT * LD;     // [2][kBc][LD]
  std::uint16_t* Vs = Ks + 2 * kBc * LD;  // [2][kBc][LD]
  std::uint8_t* cls_row = reinterpret_cast<std::uint8_t*>(Vs + 2 * kBc * LD);

  const DevProblem& p = a.p;
  int i_tile, head;  // last Q tiles first: under a causal mask they have the most K/V tiles
  dev::TileOfBlock(a.heads_fastest != 0, i_tile, head);
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  const int row0 = i_tile * kBrT, rows_i = min(kBrT, p.n_q - row0);
  const int wrow = warp * 16 * MT;  // this warp's first row in the tile
  const std::uint16_t* q = a.q + ((long long)head * p.n_q + row0) * D;
  const std::uint16_t* k = a.k + (long long)head * p.n_k * D;
  const std::uint16_t* v = a.v + (long long)head * p.n_k * D;
  const bool lead = tid == 0;
  const unsigned smid = dev::SmId();
  const float sl2 = p.scale * 1.4426950408889634f;  // exp(x*scale) = exp2(x*scale*log2 e)

  auto load_rows = [&](std::uint16_t* dst, const std::uint16_t* src, int rows_valid, int rows) {
    for (int idx = tid; idx < rows * kChunks; idx += kWarps * 32) {
      const int r = idx / kChunks, ch = idx % kChunks;
      const bool ok = r < rows_valid;
      CpAsync16(dst + r * LD + ch * 8, src + (long long)(ok ? r : 0) * D + ch * 8, ok);
    }
  };
  auto load_kv = [&](int jt, int stage) {
    const int key0 = jt * kBc, c = min(kBc, p.n_k - key0);
    load_rows(Ks + stage * kBc * LD, k + (long long)key0 * D, c, kBc);
    load_rows(Vs + stage * kBc * LD, v + (long long)key0 * D, c, kBc);
  };

  for (int j = tid; j < a.t_c; j += kWarps * 32) cls_row[j] = a.tile_class[(long long)i_tile * a.t_c + j];
  load_rows(Qs, q, rows_i, kBrT);  // Algorithm 1 line 4
  CpAsyncCommit();
  __syncthreads();  // cls_row visible
  int next = 0;
  while (next < a.t_c && cls_row[next] == 0) ++next;
  if (next < a.t_c) load_kv(next, 0);
  CpAsyncCommit();
  CpAsyncWait<1>();  // Q has landed (the K/V group may still be in flight)
  __syncthreads();

  constexpr bool kQInRegs = (MT == 1);
  unsigned qf[kQInRegs ? D / 16 : 1][4];
  if (kQInRegs) {
#pragma unroll
    for (int kk = 0; kk < (kQInRegs ? D / 16 : 0); ++kk)
      LdMatrixX4(qf[kk], Qs + (wrow + (lane % 8) + 8 * ((lane / 8) % 2)) * LD + kk * 16 + 8 * (lane / 16));
  }

  float o[MT][D / 8][4];
  float m[MT][2], l[MT][2];  // rows lane/4 and lane/4 + 8 of each of this warp's 16-row tiles
#pragma unroll
  for (int mt = 0; mt < MT; ++mt) {
#pragma unroll
    for (int n = 0; n < D / 8; ++n) o[mt][n][0] = o[mt][n][1] = o[mt][n][2] = o[mt][n][3] = 0.f;
    m[mt][0] = m[mt][1] = -INFINITY;
    l[mt][0] = l[mt][1] = 0.f;
  }
  unsigned long long kv_elems = 0, n_skipped = 0;
  int unpublished = 0;  // records written by thread 0 whose ready word is not yet set
  int stage = 0;

  for (int j = 0; j < a.t_c; ++j) {
    const unsigned long long t0 = lead ? dev::GlobalTimer() : 0ull;
    const int cls = cls_row[j];
    const int key0 = j * kBc, c_j = min(kBc, p.n_k - key0);
    if (cls != 0) {
      // prefetch the next tile that is not skipped into the other stage, then wait for this one
      int nn = j + 1;
      while (nn < a.t_c && cls_row[nn] == 0) ++nn;
      if (nn < a.t_c) load_kv(nn, stage ^ 1);
      CpAsyncCommit();
      CpAsyncWait<1>();
      __syncthreads();
      kv_elems += (unsigned long long)c_j * D;
      const std::uint16_t* Kst = Ks + stage * kBc * LD;
      const std::uint16_t* Vst = Vs + stage * kBc * LD;

      // S = Q K_j^T: per 16-row tile, 8 n-blocks of 8 keys, fp32 accumulators
      float s[MT][kBc / 8][4];
#pragma unroll
      for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int n = 0; n < kBc / 8; ++n) s[mt][n][0] = s[mt][n][1] = s[mt][n][2] = s[mt][n][3] = 0.f;
#pragma unroll
      for (int kk = 0; kk < D / 16; ++kk) {
        unsigned qa[MT][4];
#pragma unroll
        for (int mt = 0; mt < MT; ++mt) {
          if (kQInRegs) {
#pragma unroll
            for (int e = 0; e < 4; ++e) qa[mt][e] = qf[kQInRegs ? kk : 0][e];
          } else {
            LdMatrixX4(qa[mt], Qs + (wrow + mt * 16 + (lane % 8) + 8 * ((lane / 8) % 2)) * LD + kk * 16 + 8 * (lane / 16));
          }
        }
#pragma unroll
        for (int np = 0; np < kBc / 16; ++np) {
          unsigned b[4];
          LdMatrixX4(b, Kst + (np * 16 + (lane % 8) + 8 * (lane / 16)) * LD + kk * 16 + 8 * ((lane / 8) % 2));
#pragma unroll
          for (int mt = 0; mt < MT; ++mt) {
            Mma<BF16>(s[mt][2 * np], qa[mt], b[0], b[1]);
            Mma<BF16>(s[mt][2 * np + 1], qa[mt], b[2], b[3]);
          }
        }
      }
      if (cls == 2) {  // tails and partially masked tiles
#pragma unroll
        for (int mt = 0; mt < MT; ++mt)
          MaskFragment<kBc / 8>([&](int n, int e) -> float& { return s[mt][n][e]; }, p.mask, p.n_q,
                                row0 + wrow + mt * 16 + lane / 4, key0, c_j, lane);
      }
      // online softmax, two rows per thread and tile, rows spread over a quad of lanes
#pragma unroll
      for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          float mx = -INFINITY;
#pragma unroll
          for (int n = 0; n < kBc / 8; ++n) mx = fmaxf(mx, fmaxf(s[mt][n][2 * h], s[mt][n][2 * h + 1]));
          mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
          mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
          const float m_new = fmaxf(m[mt][h], mx);
          const float m_use = (m_new == -INFINITY) ? 0.f : m_new;
          const float alpha = exp2f((m[mt][h] - m_use) * sl2);
          float rs = 0.f;
#pragma unroll
          for (int n = 0; n < kBc / 8; ++n) {
            s[mt][n][2 * h] = exp2f(s[mt][n][2 * h] * sl2 - m_use * sl2);
            s[mt][n][2 * h + 1] = exp2f(s[mt][n][2 * h + 1] * sl2 - m_use * sl2);
            rs += s[mt][n][2 * h] + s[mt][n][2 * h + 1];
          }
          l[mt][h] = alpha * l[mt][h] + rs;  // this lane's partial sum; the quad is reduced once at the end
          m[mt][h] = m_new;
#pragma unroll
          for (int n = 0; n < D / 8; ++n) { o[mt][n][2 * h] *= alpha; o[mt][n][2 * h + 1] *= alpha; }
        }
      // O += P V_j: P from registers as A fragments of 16 keys; each V fragment feeds MT MMAs
#pragma unroll
      for (int kc = 0; kc < kBc / 16; ++kc) {
        unsigned pa[MT][4];
#pragma unroll
        for (int mt = 0; mt < MT; ++mt) {
          pa[mt][0] = Pack<BF16>(s[mt][2 * kc][0], s[mt][2 * kc][1]);
          pa[mt][1] = Pack<BF16>(s[mt][2 * kc][2], s[mt][2 * kc][3]);
          pa[mt][2] = Pack<BF16>(s[mt][2 * kc + 1][0], s[mt][2 * kc + 1][1]);
          pa[mt][3] = Pack<BF16>(s[mt][2 * kc + 1][2], s[mt][2 * kc + 1][3]);
        }
#pragma unroll
        for (int dp = 0; dp < D / 16; ++dp) {
          unsigned b[4];
          LdMatrixX4T(b, Vst + (kc * 16 + (lane % 8) + 8 * ((lane / 8) % 2)) * LD + dp * 16 + 8 * (lane / 16));
#pragma unroll
          for (int mt = 0; mt < MT; ++mt) {
            Mma<BF16>(o[mt][2 * dp], pa[mt], b[0], b[1]);
            Mma<BF16>(o[mt][2 * dp + 1], pa[mt], b[2], b[3]);
          }
        }
      }
      __syncthreads();  // this stage is free for the prefetch two tiles ahead
      stage ^= 1;
    } else {
      ++n_skipped;
    }
    const bool last = (j == a.t_c - 1);
    if (last) {
#pragma unroll
      for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          float lt = l[mt][h];
          lt += __shfl_xor_sync(0xffffffffu, lt, 1);
          lt += __shfl_xor_sync(0xffffffffu, lt, 2);
          const int r = row0 + wrow + mt * 16 + lane / 4 + 8 * h;
          if (r < p.n_q) {
            const float inv = lt > 0.f ? 1.f / lt : 0.f;
            std::uint16_t* orow = a.o + ((long long)head * p.n_q + r) * D;
#pragma unroll
            for (int n = 0; n < D / 8; ++n)
              *reinterpret_cast<unsigned*>(orow + n * 8 + (lane % 4) * 2) =
                  Pack<BF16>(o[mt][n][2 * h] * inv, o[mt][n][2 * h + 1] * inv);
            if ((lane % 4) == 0) {
              const long long ri = (long long)head * p.n_q + r;
              a.lse[ri] = lt > 0.f ? m[mt][h] * p.scale + logf(lt) : -INFINITY;
              a.row_masked[ri] = lt > 0.f ? 0 : 1;
            }
          }
          l[mt][h] = lt;
        }
      __syncthreads();
    }
    if (lead && (cls != 0 || LIVE)) {
      const dev::TileStep step{t0, (unsigned)i_tile, (unsigned)j, (unsigned)head, smid, cls,
                               2u * ((j == 0 ? (unsigned)rows_i * D : 0u) + (cls != 0 ? 2u * (unsigned)c_j * D : 0u)),
                               last ? (unsigned)rows_i * (2u * D + 4u) : 0u, last};
      dev::FinishTileStep<LIVE>(step, a.records, a.t_r, a.t_c, a.pace_ns, a.publish_every, unpublished);
    }
  }
  CpAsyncWait<0>();
  if (!LIVE && a.records)
    dev::WriteSkippedRecords(cls_row, a.records, a.t_r, a.t_c, i_tile, head, smid, 2u * (unsigned)rows_i * D,
                             (unsigned)rows_i * (2u * D + 4u));
  if (a.counters) {
    int masked_here = 0;
    if ((lane % 4) == 0)
      for (int mt = 0; mt < MT; ++mt)
        for (int h = 0; h < 2; ++h)
          masked_here += (row0 + wrow + mt * 16 + lane / 4 + 8 * h < p.n_q && !(l[mt][h] > 0.f)) ? 1 : 0;
    int n_masked = 0;
    for (int t = 1; t <= 2 * MT; ++t) n_masked += __syncthreads_count(masked_here >= t);
    if (lead)
      dev::AddBlockCounters(a.counters, (unsigned long long)rows_i * D, kv_elems, kv_elems,
                            (unsigned long long)rows_i * D, (unsigned long long)rows_i, (unsigned long long)a.t_c, n_skipped,
                            (unsigned long long)n_masked);
  }
}

template <int D, bool BF16, int MT>
void LaunchD(const TcArgs& a, cudaStream_t st) {
  const size_t smem = TcSmemBytes<D, MT>() + a.t_c;
  auto kernel = a.live ? TcKernel<D, BF16, true, MT> : TcKernel<D, BF16, false, MT>;
  EnsureDynamicSmem(kernel, smem, "cudaFuncSetAttribute(tc)");
  kernel<<<TileGrid(a.heads_fastest != 0, a.p, a.t_r), kWarps * 32, smem, st>>>(a);
  Check(cudaGetLastError(), "TcKernel launch");
}

}  // namespace

void LaunchTensorCore(const DevProblem& p, int b_r, bool bf16, const void* q, const void* k, const void* v,
                      const std::uint8_t* tile_class, void* o, float* lse, std::uint8_t* row_masked,
                      TileRecord* records, unsigned long long* counters, unsigned long long pace_ns, bool live, cudaStream_t st) {
  TcArgs a{};
  a.p = p;
  if (b_r != 64 && b_r != 128) throw std::runtime_error("tensor-core kernel: B_r must be 64 or 128");
  a.t_r = (p.n_q + b_r - 1) / b_r;
  a.t_c = (p.n_k + kBc - 1) / kBc;
  a.q = static_cast<const std::uint16_t*>(q);
  a.k = static_cast<const std::uint16_t*>(k);
  a.v = static_cast<const std::uint16_t*>(v);
  a.tile_class = tile_class;
  a.o = static_cast<std::uint16_t*>(o);
  a.lse = lse;
  a.row_masked = row_masked;
  a.records = records;
  a.counters = counters;
  a.pace_ns = pace_ns;
  a.live = live ? 1 : 0;
  a.publish_every = (live && pace_ns == 0) ? 8 : 1;
  a.heads_fastest = HeadsFastest(p, a.t_r) ? 1 : 0;
  if (p.d != p.d_v) throw std::runtime_error("tensor-core kernel: d must equal d_v");
  auto go = [&](auto d_tag) {
    constexpr int D = decltype(d_tag)::value;
    if (b_r == 128) bf16 ? LaunchD<D, true, 2>(a, st) : LaunchD<D, false, 2>(a, st);
    else bf16 ? LaunchD<D, true, 1>(a, st) : LaunchD<D, false, 1>(a, st);
  };
  switch (p.d) {
    case 32: go(std::integral_constant<int, 32>{}); break;
    case 64: go(std::integral_constant<int, 64>{}); break;
    case 128: go(std::integral_constant<int, 128>{}); break;
    default: throw std::runtime_error("tensor-core kernel: padded head dim must be 32, 64 or 128");
  }
}

}  // namespace bw::cuda::detail
