// gpu_run.h — a live GPU run the app polls once per frame (issue 6, "Live"; issue 15, cheap records).
// The tiled kernel runs on its own non-default stream; each (Q tile, K/V tile) step writes one
// TileRecord into device memory, exactly as a counted (not live) run does, with its ready word set to
// RecordSeal(fields). Poll() copies the records on a second stream while the kernel runs (one copy in
// flight at a time, from the first Q tile row not yet complete) and hands out those whose seal matches,
// in j order per Q tile. So live streaming costs the kernel what counting does (docs/performance.md).
// The issue 6 transport, mapped pinned host memory behind a system fence, stays selectable for
// comparison (it costs the tensor-core kernel 30-50 %). No CUDA include here.
//   GpuRun run; run.Start(problem, {Algorithm::TiledFp32, {64, 64}, 2'000'000});   // 2 ms per tile
//   each frame: for (auto& r : run.Poll()) light(r.q_tile, r.kv_tile, r.smid);  if (run.Done()) show(run.Totals());
#pragma once

#include "cuda/attention_cuda.h"

#include <memory>
#include <vector>

namespace bw::cuda {

enum class RecordTransport : int {
  kDeviceCopy = 0,  // records in device memory, copied to pinned host memory on a second stream (default)
  kMappedHost = 1,  // records written straight into mapped pinned host memory, system fence per 8 (issue 6)
};

// Which kernel streams its records. kFa2: the FlashAttention-2 kernels of attention_cuda.h (any Algorithm
// but Materialising). kHopper: the sm_90a kernel of hopper_cuda.h (issue 33): Algorithm::TensorCoreBf16
// only, d, d_v <= 128 (padded to 64 or 128), B_r = B_c = 128 (kHopperTiling; `tiling` is ignored), no pace,
// device-copy transport only; its records are written at each CTA's end (all of its Q tile's at once),
// so they arrive a Q tile at a time. RunSummary::kernel is "hopper".
enum class GpuKernel : int { kFa2 = 0, kHopper = 1 };

struct GpuRunOptions {
  Algorithm algorithm = Algorithm::TiledFp32;  // TiledFp32, TensorCoreBf16 or TensorCoreFp16
  Tiling tiling;                               // tiled fp32 only; tensor core uses TensorCoreTiling(mask)
  std::uint64_t pace_ns = 0;                   // slow motion: minimum time per computed tile, 0 = full speed
  RecordTransport transport = RecordTransport::kDeviceCopy;
  // Launch the kernel once, unpaced and unrecorded, before the timed run: the first launch of a kernel
  // in a process also loads its module (lazy loading), which would otherwise be counted in kernel_ms.
  bool warm_up = true;
  GpuKernel kernel = GpuKernel::kFa2;
  // Hopper only: log the warp phases of this many CTAs spread over the grid (hopper_cuda.h's
  // Options::warp_sample_ctas); read after the kernel into Totals().warp_phases. 0: none.
  int warp_sample_ctas = 0;
};

class GpuRun {
 public:
  GpuRun();
  ~GpuRun();  // waits for a kernel still running, then frees everything
  GpuRun(const GpuRun&) = delete;
  GpuRun& operator=(const GpuRun&) = delete;

  // Uploads the problem and launches; returns at once. Throws std::runtime_error (no GPU, no sm_90 GPU
  // for kHopper, a run still in flight) or std::invalid_argument (bad sizes; kHopper with pace, the mapped
  // transport or another precision). Materialising is not offered here: it has no tiles to stream.
  void Start(const Problem& p, const GpuRunOptions& o);
  // Records completed since the previous Poll(), in the order they were seen (per Q tile: j order).
  std::vector<TileRecord> Poll();
  bool Running() const;         // started and not yet Done()
  bool Done();                  // the kernel finished (call Poll() once more for the last records)
  int TilesTotal() const;       // heads * T_r * T_c
  int TilesSeen() const;        // records polled so far
  // After Done(): live records that differ from the same record read again after the kernel (a torn
  // copy whose seal matched by chance). Expected 0; the final Totals().tiles hold the re-read values.
  int LiveMismatches() const;
  int CopiesIssued() const;     // device-to-host copies of the record buffer made while the kernel ran
  // After Done(): counters read back from the GPU, kernel time, TFLOP/s, GB/s, and all records in
  // the order they were polled. Output (O, lse, flags) likewise.
  const RunSummary& Totals() const;
  const Output& Result() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bw::cuda
