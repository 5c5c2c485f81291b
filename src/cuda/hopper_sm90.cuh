// hopper_sm90.cuh — the sm_90a building blocks of the Hopper kernel (kernel_hopper.cu), as inline PTX:
// mbarriers (init, arrive, arrive.expect_tx, try_wait.parity), the tensor copy engine (TMA:
// cp.async.bulk.tensor.3d completing on an mbarrier), wgmma (fence, commit_group, wait_group, the
// m64nNk16 bf16 → fp32 forms used: A and B from shared memory, or A from registers), shared-memory matrix
// descriptors for the 128-byte swizzle, and setmaxnreg. Only for code compiled for sm_90a.
// Source: NVIDIA PTX ISA (8.0 and later), the sections "Asynchronous Warpgroup Level Matrix Multiply-
// Accumulate Instructions" (wgmma.mma_async, its matrix descriptor and register fragments),
// "cp.async.bulk.tensor", "mbarrier" and "setmaxnreg". Written for this project; CUTLASS and FlashAttention-3
// were read for understanding only.
#pragma once

#include <cstdint>

namespace bw::cuda::detail::sm90 {

__device__ __forceinline__ unsigned SmemAddr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// ---- mbarrier (a 64-bit word in shared memory: arrival count, phase, pending transaction bytes)
__device__ __forceinline__ void MbarInit(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
// Makes the initialised barriers visible to the async proxy (TMA) and to other threads after a barrier.
__device__ __forceinline__ void FenceBarrierInit() { asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory"); }
__device__ __forceinline__ void MbarArrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
// One arrival that also announces `bytes` the copy engine will deliver before the phase can complete.
__device__ __forceinline__ void MbarArriveExpectTx(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ bool MbarTryWait(unsigned bar, unsigned parity) {
  unsigned ok;
  asm volatile(
      "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(ok)
      : "r"(bar), "r"(parity)
      : "memory");
  return ok != 0;
}
// Waits until the phase with this parity has completed (parity 0: the first phase).
__device__ __forceinline__ void MbarWait(unsigned bar, unsigned parity) {
  while (!MbarTryWait(bar, parity)) {
  }
}

// ---- TMA: one box of a 3-D tensor map (coordinates innermost first) into shared memory; the bytes
// (out-of-bounds elements zero-filled and counted too) complete on `bar`'s transaction count.
__device__ __forceinline__ void TmaLoad3d(unsigned dst, const void* tensor_map, unsigned bar, int c0, int c1, int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(tensor_map)), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
      : "memory");
}
// ---- TMA store: one box of shared memory (the same swizzled layout a load writes) to a 3-D tensor map;
// out-of-bounds rows are not written. Issued into a bulk group: commit, then wait (.read: until the shared
// memory may be written again; without: until the global writes are done).
__device__ __forceinline__ void TmaStore3d(const void* tensor_map, unsigned src, int c0, int c1, int c2) {
  asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];\n" ::"l"(
                   reinterpret_cast<std::uint64_t>(tensor_map)),
               "r"(src), "r"(c0), "r"(c1), "r"(c2)
               : "memory");
}
__device__ __forceinline__ void BulkCommit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void BulkWaitRead() { asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory"); }
__device__ __forceinline__ void BulkWait() { asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory"); }
// Generic-proxy writes to shared memory made visible to the async proxy (a TMA store that reads them).
__device__ __forceinline__ void FenceProxyAsync() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
__device__ __forceinline__ void PrefetchTensorMap(const void* tensor_map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(tensor_map)) : "memory");
}

// ---- setmaxnreg: the warpgroup gives registers back (producer) or takes them (consumers).
template <int N>
__device__ __forceinline__ void RegDealloc() { asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N)); }
template <int N>
__device__ __forceinline__ void RegAlloc() { asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N)); }

// ---- named barriers among a subset of warps (ids 1..15; 0 is __syncthreads); the non-.aligned forms,
// so a warp that diverged before may use them
__device__ __forceinline__ void NamedBarSync(int id, int threads) {
  asm volatile("barrier.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void NamedBarArrive(int id, int threads) {
  asm volatile("barrier.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// ---- wgmma bookkeeping
__device__ __forceinline__ void WgmmaFence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void WgmmaCommit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void WgmmaWait() { asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory"); }
// Keeps the compiler from moving reads or writes of accumulator registers across wgmma waits/fences.
template <int N>
__device__ __forceinline__ void FenceRegs(float (&r)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(r[i])::"memory");
}

// Shared-memory matrix descriptor (PTX ISA "Matrix Descriptor Format"): start address, leading and
// stride byte offsets (all >> 4), layout type 1 = 128-byte swizzle (bits 62-63). Tiles are 1024-byte
// aligned, so the base offset (bits 49-51) stays 0.
// K-major operand (rows of 64 bf16 = 128 bytes, swizzled): SBO = 1024 (next group of 8 rows), LBO unused;
//   the k-th 16-wide slice within the 128-byte row starts at +32 k bytes.
// MN-major operand (V as B: its rows are keys, K of the product; 64 columns per 128-byte row): SBO = 1024
//   (next 8 keys), LBO = byte distance to the next 64-column panel.
__device__ __forceinline__ std::uint64_t MakeDesc(unsigned smem_addr, unsigned lbo_bytes, unsigned sbo_bytes) {
  std::uint64_t d = 0;
  d |= static_cast<std::uint64_t>((smem_addr & 0x3FFFF) >> 4);
  d |= static_cast<std::uint64_t>((lbo_bytes >> 4) & 0x3FFF) << 16;
  d |= static_cast<std::uint64_t>((sbo_bytes >> 4) & 0x3FFF) << 32;
  d |= static_cast<std::uint64_t>(1) << 62;
  return d;
}

// The wgmma forms below were written out by a short generator (one "+f" operand per accumulator).
// Accumulator fragment (each of the 4 warps owns 16 rows): d[4i + e] holds row 16 w + lane/4 + 8 (e/2),
// column 8 i + 2 (lane % 4) + e % 2 — the mma.sync m16n8 C layout repeated over N/8 column blocks.
// A from registers: the mma.sync m16n8k16 A fragment of the warp's 16 rows.
// D(64 x 128, fp32) (+)= A(64 x 16, shared, K-major) * B(128 x 16, shared, K-major)^T
__device__ __forceinline__ void WgmmaSS_N128(float (&d)[64], std::uint64_t da, std::uint64_t db, int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(da), "l"(db), "r"(accumulate));
}

// D(64 x 64, fp32) += A(64 x 16, registers) * B(16 x 64, shared, MN-major: transposed on the fly)
__device__ __forceinline__ void WgmmaRS_N64(float (&d)[32], const unsigned (&a)[4], std::uint64_t db) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
}

// D(64 x 128, fp32) += A(64 x 16, registers) * B(16 x 128, shared, MN-major: transposed on the fly)
__device__ __forceinline__ void WgmmaRS_N128(float (&d)[64], const unsigned (&a)[4], std::uint64_t db) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
}

}  // namespace bw::cuda::detail::sm90
