// cuda_util.h — internal RAII helpers of the CUDA backend: device buffers, event pairs, checked
// calls, mask upload, 16-bit packing with zero padding of the head dimension, device-side random fill.
// Not part of the public interface (attention_cuda.h, gpu_run.h).
#pragma once

#include "cuda/attention_cuda.h"
#include "cuda/device_common.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace bw::cuda::detail {

inline void Check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// Raises `kernel`'s dynamic shared-memory limit (cudaFuncAttributeMaxDynamicSharedMemorySize) to at least
// `bytes`, never lowering it, under one process-wide lock. The attribute is per kernel and shared by every
// host thread: two threads launching one kernel with different sizes raced between one's set and its
// launch (the local ring's ranks on one H100: "TcKernel launch: invalid argument", "too many resources
// requested for launch"). A raise-only limit keeps every size set before valid; the launch's own size
// still decides the occupancy.
// The limit is kept per (device, kernel): each device's context has its own.
inline void EnsureDynamicSmem(const void* kernel, size_t bytes, const char* what) {
  static std::mutex m;
  static std::map<std::pair<int, const void*>, size_t> limit;
  int device = 0;
  Check(cudaGetDevice(&device), "cudaGetDevice");
  const std::lock_guard<std::mutex> lock(m);
  size_t& now = limit[{device, kernel}];
  if (bytes <= now) return;
  Check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)), what);
  now = bytes;
}
template <class Kernel>
void EnsureDynamicSmem(Kernel* kernel, size_t bytes, const char* what) {
  EnsureDynamicSmem(reinterpret_cast<const void*>(kernel), bytes, what);
}

// A cudaMalloc'ed buffer (bytes); moves, never copies.
struct DevBuf {
  void* ptr = nullptr;
  size_t bytes = 0;
  DevBuf() = default;
  explicit DevBuf(size_t n) : bytes(n) { if (n) Check(cudaMalloc(&ptr, n), "cudaMalloc"); }
  DevBuf(DevBuf&& o) noexcept : ptr(std::exchange(o.ptr, nullptr)), bytes(std::exchange(o.bytes, 0)) {}
  DevBuf& operator=(DevBuf&& o) noexcept { if (this != &o) { Free(); ptr = std::exchange(o.ptr, nullptr); bytes = std::exchange(o.bytes, 0); } return *this; }
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  ~DevBuf() { Free(); }
  void Free() { if (ptr) cudaFree(ptr); ptr = nullptr; bytes = 0; }
  template <class T> T* as() const { return static_cast<T*>(ptr); }
  void Upload(const void* src, size_t n) { if (n) Check(cudaMemcpy(ptr, src, n, cudaMemcpyHostToDevice), "cudaMemcpy H2D"); }
  void Download(void* dst, size_t n) const { if (n) Check(cudaMemcpy(dst, ptr, n, cudaMemcpyDeviceToHost), "cudaMemcpy D2H"); }
  void Zero() { if (bytes) Check(cudaMemset(ptr, 0, bytes), "cudaMemset"); }
  void ZeroAsync(cudaStream_t s = nullptr) { if (bytes) Check(cudaMemsetAsync(ptr, 0, bytes, s), "cudaMemsetAsync"); }
  void Fill(int byte) { if (bytes) Check(cudaMemset(ptr, byte, bytes), "cudaMemset"); }
};

struct Events {
  cudaEvent_t e[2] = {nullptr, nullptr};
  Events() { Check(cudaEventCreate(&e[0]), "cudaEventCreate"); Check(cudaEventCreate(&e[1]), "cudaEventCreate"); }
  ~Events() { cudaEventDestroy(e[0]); cudaEventDestroy(e[1]); }
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
  void Record(int i, cudaStream_t s) { Check(cudaEventRecord(e[i], s), "cudaEventRecord"); }
  float Ms(int a, int b) { float ms = 0; Check(cudaEventElapsedTime(&ms, e[a], e[b]), "cudaEventElapsedTime"); return ms; }
};

struct MaskBuffers {
  dev::MaskDev dev;
  DevBuf key_keep, keep;
};

struct DevProblem;
void Validate(const Problem& p);
MaskBuffers UploadMask(const Problem& p);
DevProblem MakeDevProblem(const Problem& p, const dev::MaskDev& m);
void FillCountersFromDevice(const unsigned long long* c, int elem_bytes, Counters& out);
void FillSummary(const Problem& p, Algorithm a, const Tiling& t, std::uint64_t pace, double ms, RunSummary& r);
double FlopsOf(const Problem& p);

inline int TcPadD(int d) { return TensorCorePadD(d); }
// (rows, d) fp32 -> (rows, D) bf16 or fp16 on the device, columns d..D-1 zero.
DevBuf UploadHalfPadded(const std::vector<float>& x, int rows, int d, int D, bool bf16);
std::vector<float> DownloadHalfUnpadded(const DevBuf& b, int rows, int d, int D, bool bf16);
// uniform(-1, 1) values from a hash of (seed, index): fp32, or bf16/fp16 when half.
void RandomFill(DevBuf& b, size_t elems, bool half, bool bf16, unsigned seed);

}  // namespace bw::cuda::detail
