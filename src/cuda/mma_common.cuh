// mma_common.cuh — the tensor-core helpers the bf16/fp16 kernels share (kernel_tc.cu, kernel_decode.cu):
// cp.async 16-byte copies global → shared (zero-fill when invalid), ldmatrix (plain and .trans),
// mma.sync m16n8k16 with fp32 accumulators, and packing two floats into one bf16x2/fp16x2 register.
// Fragment layouts: PTX ISA, "Matrix fragments for mma.m16n8k16".
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>

#include "cuda/device_common.cuh"

namespace bw::cuda::detail {

__device__ __forceinline__ void CpAsync16(void* smem, const void* gmem, bool valid) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int n = valid ? 16 : 0;  // src-size 0: the 16 bytes are zero-filled, nothing is read
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(n));
}
__device__ __forceinline__ void CpAsyncCommit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void CpAsyncWait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

__device__ __forceinline__ void LdMatrixX4(unsigned (&r)[4], const void* p) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s));
}
__device__ __forceinline__ void LdMatrixX4T(unsigned (&r)[4], const void* p) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s));
}

template <bool BF16>
__device__ __forceinline__ void Mma(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  if constexpr (BF16) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  } else {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
}

template <bool BF16>
__device__ __forceinline__ unsigned Pack(float lo, float hi) {
  if constexpr (BF16) {
    __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<unsigned*>(&h);
  } else {
    __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<unsigned*>(&h);
  }
}

// Masks one thread's part of an S tile held in the accumulator layout that mma.m16n8k16 and wgmma share:
// column block nb (8 keys), element e of it at tile row `row` + 8·(e / 2) (row: this thread's first row, in
// the whole problem) and key nb·8 + 2·(lane % 4) + e % 2 of the tile (key0: its first key, c_j: its keys).
// `at(nb, e)` is that element; those past N_q, past c_j, or masked by `m` become −∞. Causal masks (kinds 1
// and 2) take one key limit per row, computed once, and a select per element: the generic dev::Keep, a
// switch per element, made the Hopper kernel's diagonal tile's softmax ~9 µs against ~0.9 µs for an
// unmasked tile (warp phases of the H200 recording, assets/gpu/recorded_run_h200_hopper_*causal*).
template <int NB, class At>
__device__ __forceinline__ void MaskFragment(At&& at, const dev::MaskDev& m, int n_q, int row, int key0, int c_j, int lane) {
  const int col0 = 2 * (lane % 4);
  if (m.kind == 1 || m.kind == 2) {
    const int shift = m.kind == 2 ? m.n_k - m.n_q : 0;  // bottom-right: key j kept while j <= i + N_k − N_q
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = row + 8 * h;
      const int lim = r < n_q ? min(c_j - 1, r + shift - key0) : -1;  // the last kept key of the tile
#pragma unroll
      for (int nb = 0; nb < NB; ++nb)
#pragma unroll
        for (int x = 0; x < 2; ++x)
          if (nb * 8 + col0 + x > lim) at(nb, 2 * h + x) = -INFINITY;
    }
    return;
  }
#pragma unroll
  for (int nb = 0; nb < NB; ++nb)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int r = row + 8 * (e / 2), jj = nb * 8 + col0 + (e % 2);
      if (r >= n_q || jj >= c_j || !dev::Keep(m, r, key0 + jj)) at(nb, e) = -INFINITY;
    }
}

}  // namespace bw::cuda::detail
