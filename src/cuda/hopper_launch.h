// hopper_launch.h — internal (CUDA side): one launch of the Hopper kernel (kernel_hopper.cu) over device
// buffers its caller owns, on its caller's stream. GpuRun's live runs use it (issue 33); RunHopper and the
// peer benchmark build the same plan (tensor maps and arguments: kernel_hopper.cu's MakePlan) inside
// kernel_hopper.cu. Included by .cu files only; the public interface is hopper_cuda.h and gpu_run.h.
#pragma once

#include "cuda/hopper_cuda.h"
#include "cuda/kernels.h"

#include <memory>
#include <vector>

namespace bw::cuda::detail {

class HopperLaunch {
 public:
  // dp: the problem with d = d_v = D (HopperPadD, 64 or 128) and its mask's device buffers; q, k, v, o:
  // bf16 (heads, N, D); tile_class: ClassifyTiles(p, kHopperTiling) on the device; records ((heads, T_r,
  // T_c) slots) and counters (dev::kNumCounterSlots) may be null; warp_ctas > 0 logs the warp phases of
  // that many CTAs spread over the grid (buffers owned here). Throws std::invalid_argument for sizes the
  // kernel cannot take, std::runtime_error for CUDA errors.
  HopperLaunch(const DevProblem& dp, const void* q, const void* k, const void* v, const std::uint8_t* tile_class, void* o, float* lse,
               std::uint8_t* row_masked, TileRecord* records, unsigned long long* counters, int warp_ctas = 0);
  ~HopperLaunch();
  HopperLaunch(const HopperLaunch&) = delete;
  HopperLaunch& operator=(const HopperLaunch&) = delete;
  // Queues the kernel on `st` (BW_HOPPER_SCHED picks the schedule, as for RunHopper).
  void Launch(cudaStream_t st) const;
  // After the launch has completed: the sampled CTAs' phases (WarpPhasesFromMarks); empty without warp_ctas.
  std::vector<WarpPhaseRecord> WarpPhases() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bw::cuda::detail
