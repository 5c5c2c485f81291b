// cuda_util.cu — implementations of cuda_util.h that need device code or the 16-bit types:
// packing fp32 host data into zero-padded bf16/fp16 rows, unpacking, and a hash-based random fill
// for the benchmark (never zeros: METHOD.md, zeros hide unwritten outputs and time too fast).
#include "cuda/cuda_util.h"
#include "cuda/kernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace bw::cuda::detail {

DevBuf UploadHalfPadded(const std::vector<float>& x, int rows, int d, int D, bool bf16) {
  std::vector<std::uint16_t> h((size_t)rows * D, 0);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < d; ++c) {
      const float f = x[(size_t)r * d + c];
      if (bf16) { __nv_bfloat16 b = __float2bfloat16(f); h[(size_t)r * D + c] = *reinterpret_cast<std::uint16_t*>(&b); }
      else { __half b = __float2half(f); h[(size_t)r * D + c] = *reinterpret_cast<std::uint16_t*>(&b); }
    }
  DevBuf buf(h.size() * 2);
  buf.Upload(h.data(), h.size() * 2);
  return buf;
}

std::vector<float> DownloadHalfUnpadded(const DevBuf& b, int rows, int d, int D, bool bf16) {
  std::vector<std::uint16_t> h((size_t)rows * D);
  b.Download(h.data(), h.size() * 2);
  std::vector<float> out((size_t)rows * d);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < d; ++c) {
      std::uint16_t u = h[(size_t)r * D + c];
      out[(size_t)r * d + c] = bf16 ? __bfloat162float(*reinterpret_cast<__nv_bfloat16*>(&u)) : __half2float(*reinterpret_cast<__half*>(&u));
    }
  return out;
}

namespace {
__device__ __forceinline__ float HashUniform(unsigned seed, size_t i) {
  unsigned long long x = (unsigned long long)i * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull;
  x ^= x >> 31; x *= 0x94D049BB133111EBull; x ^= x >> 29;
  return (float)(x >> 40) * (2.0f / 16777216.0f) - 1.0f;
}
__global__ void FillKernel(void* p, size_t n, int mode, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const float f = HashUniform(seed, i);
    if (mode == 0) static_cast<float*>(p)[i] = f;
    else if (mode == 1) static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16(f);
    else static_cast<__half*>(p)[i] = __float2half(f);
  }
}
}  // namespace

void RandomFill(DevBuf& b, size_t elems, bool half, bool bf16, unsigned seed) {
  FillKernel<<<1024, 256>>>(b.ptr, elems, half ? (bf16 ? 1 : 2) : 0, seed);
  Check(cudaGetLastError(), "FillKernel launch");
}

}  // namespace bw::cuda::detail
