// gpu_replay.h — plays a recorded GPU run (assets/gpu/recorded_run_h200.json) back with the same
// Poll() shape as GpuRun, for machines without a GPU: records come out in order of their end time,
// as the GPU's %globaltimer placed them, stretched by `slow_down` (1 = real time; a 0.5 ms kernel at
// slow_down 20000 takes 10 s, which a class can watch). Plain C++, no CUDA; the caller supplies time.
//   GpuReplay rp(LoadRecordedRun(path), 20000.0);  each frame: for (auto& r : rp.Poll(seconds_since_start)) light(r);
#pragma once

#include "cuda/gpu_types.h"

#include <vector>

namespace bw::cuda {

class GpuReplay {
 public:
  GpuReplay(RunSummary run, double slow_down);
  // Records whose (scaled) end time is <= elapsed_s and that were not returned before.
  std::vector<TileRecord> Poll(double elapsed_s);
  bool Done() const { return next_ == order_.size(); }
  int TilesTotal() const { return static_cast<int>(order_.size()); }
  int TilesSeen() const { return static_cast<int>(next_); }
  double DurationSeconds() const;     // wall-clock length of the whole replay
  const RunSummary& Totals() const { return run_; }  // counters, time, TFLOP/s as recorded

 private:
  RunSummary run_;
  double slow_down_;
  std::uint64_t t0_ = 0;
  std::vector<std::size_t> order_;  // indices into run_.tiles by end time
  std::size_t next_ = 0;
};

}  // namespace bw::cuda
