// gpu_run.h — a live GPU run the app polls once per frame (issue 6, "Live").
// The tiled kernel runs on its own non-default stream; each (Q tile, K/V tile) step writes one
// TileRecord into mapped pinned host memory (one writer per slot, fence, then the ready word), and
// Poll() hands the app the records that became ready since the last call. No CUDA include here.
//   GpuRun run; run.Start(problem, {Algorithm::TiledFp32, {64, 64}, 2'000'000});   // 2 ms per tile
//   each frame: for (auto& r : run.Poll()) light(r.q_tile, r.kv_tile, r.smid);  if (run.Done()) show(run.Totals());
#pragma once

#include "cuda/attention_cuda.h"

#include <memory>
#include <vector>

namespace bw::cuda {

struct GpuRunOptions {
  Algorithm algorithm = Algorithm::TiledFp32;  // TiledFp32, TensorCoreBf16 or TensorCoreFp16
  Tiling tiling;                               // tiled fp32 only; tensor core uses TensorCoreTiling(mask)
  std::uint64_t pace_ns = 0;                   // slow motion: minimum time per computed tile, 0 = full speed
};

class GpuRun {
 public:
  GpuRun();
  ~GpuRun();  // waits for a kernel still running, then frees everything
  GpuRun(const GpuRun&) = delete;
  GpuRun& operator=(const GpuRun&) = delete;

  // Uploads the problem and launches; returns at once. Throws std::runtime_error (no GPU, bad sizes,
  // a run still in flight). Materialising is not offered here: it has no tiles to stream.
  void Start(const Problem& p, const GpuRunOptions& o);
  // Records completed since the previous Poll(), in the order they were seen (per Q tile: j order).
  std::vector<TileRecord> Poll();
  bool Running() const;         // started and not yet Done()
  bool Done();                  // the kernel finished (call Poll() once more for the last records)
  int TilesTotal() const;       // heads * T_r * T_c
  int TilesSeen() const;        // records polled so far
  // After Done(): counters read back from the GPU, kernel time, TFLOP/s, GB/s, and all records in
  // the order they were polled. Output (O, lse, flags) likewise.
  const RunSummary& Totals() const;
  const Output& Result() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bw::cuda
