// hopper_layout.h — where the Hopper kernel's tiles sit in shared memory and where its wgmma descriptors
// point, as plain constexpr arithmetic shared by the kernel (kernel_hopper.cu) and a CPU test
// (tests/cuda/test_hopper_layout.cpp) that checks every operand element a descriptor addresses against
// the element TMA put there. No CUDA header.
// A tile (Q_i, K_j or V_j) is 128 rows x D bf16 columns, stored as D/64 panels of 128 rows x 128 bytes,
// each written by one TMA box with the 128-byte swizzle: the 16-byte chunk c of row r lands at chunk
// c XOR (r mod 8) (address bits 4-6 XOR bits 7-9; tiles are 1024-byte aligned).
// wgmma's canonical 128-byte-swizzle layouts (PTX ISA, "Shared Memory Matrix Layout" of wgmma.mma_async),
// in bytes, before the same XOR is applied to the address:
//   K-major (A = Q, B = K): element (m, k), m < 64 or N, k < 16, at start + (m mod 8) 128 + (m / 8) SBO + 2 k
//   MN-major (B = V, imm-trans-b = 1): element (n, k), n < N, k < 16, at
//     start + 2 (n mod 64) + (n / 64) LBO + (k mod 8) 128 + (k / 8) SBO
// Units: bytes; rows and columns in elements.
#pragma once

#if defined(__CUDACC__)
#define BW_HD __host__ __device__
#else
#define BW_HD
#endif

namespace bw::cuda::hopper {

constexpr unsigned kPanelBytes = 128 * 128;  // one 64-column panel of a 128-row tile
constexpr unsigned kRowBytes = 128;
constexpr unsigned kGroupBytes = 1024;       // 8 rows: one repeat of the swizzle (SBO of every operand)
constexpr unsigned kVLbo = kPanelBytes;      // MN-major V: next 64 columns of the head dim

// The 128-byte swizzle on a byte address (1024-byte-aligned tiles).
BW_HD constexpr unsigned Swizzle128(unsigned addr) { return addr ^ (((addr >> 7) & 7u) << 4); }

// Where TMA puts element (row, col) of a tile (offset from the tile's 1024-aligned base).
BW_HD constexpr unsigned TileOffset(unsigned row, unsigned col) {
  return Swizzle128((col / 64) * kPanelBytes + row * kRowBytes + (col % 64) * 2);
}

// Descriptor start offsets (from the tile base) of the kernel's wgmma k-steps:
// S = Q K^T, k-step kk (head-dim columns 16 kk .. 16 kk + 15); consumer warpgroup wg owns Q rows 64 wg ..
BW_HD constexpr unsigned QDescOffset(unsigned wg, unsigned kk) { return wg * 64 * kRowBytes + (kk / 4) * kPanelBytes + (kk % 4) * 32; }
BW_HD constexpr unsigned KDescOffset(unsigned kk) { return (kk / 4) * kPanelBytes + (kk % 4) * 32; }
// O += P V, k-step kc (keys 16 kc .. 16 kc + 15)
BW_HD constexpr unsigned VDescOffset(unsigned kc) { return kc * 16 * kRowBytes; }

// The byte a descriptor-read operand element comes from, by the canonical layouts above.
BW_HD constexpr unsigned KMajorAddr(unsigned start, unsigned m, unsigned k, unsigned sbo) {
  return Swizzle128(start + (m % 8) * kRowBytes + (m / 8) * sbo + 2 * k);
}
BW_HD constexpr unsigned MNMajorAddr(unsigned start, unsigned n, unsigned k, unsigned lbo, unsigned sbo) {
  return Swizzle128(start + 2 * (n % 64) + (n / 64) * lbo + (k % 8) * kRowBytes + (k / 8) * sbo);
}

}  // namespace bw::cuda::hopper

#undef BW_HD
