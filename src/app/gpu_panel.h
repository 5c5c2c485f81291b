// The GPU panel (G): the CUDA backend's tile traffic, live from a kernel on a real GPU — each
// (Q tile, K/V tile) step lights up in the colour of the SM that ran it while counters rise — then
// kernel time, TFLOP/s and GB/s beside the CPU engine's prediction of the same counters. Without a
// GPU (or in a build without CUDA) it says why and replays the run recorded on an H200
// (assets/gpu/recorded_run_h200.json), slowed down so a class can watch.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/fonts.h"
#include "cuda/gpu_replay.h"
#include "cuda/gpu_types.h"

namespace bw::cuda {
class GpuRun;
}

namespace bw::app {

class GpuPanel {
 public:
  explicit GpuPanel(std::string recording_path);
  ~GpuPanel();
  // The panel's window; call every frame while s.ui.show_gpu. `now` in seconds (glfwGetTime).
  void Draw(AppState& s, const Fonts& fonts, double now);
  // True while tiles are still arriving (the app keeps drawing frames).
  bool Busy() const;
  // Starts the recorded run as if it began `elapsed_s` seconds ago (tests and screenshots).
  void StartReplay(double now, double elapsed_s = 0);

 private:
  void Reset(const cuda::RunSummary& shape);
  void Take(const std::vector<cuda::TileRecord>& records);
  void StartLive(double now);
  void DrawResults(AppState& s);

  std::string recording_path_;
  std::string why_no_gpu_;       // "" when a live GPU can be used
  std::string error_;
  // Live-run settings.
  int n_ = 4096, d_ = 64, b_r_ = 64, b_c_ = 64, precision_ = 0;
  bool causal_ = true;
  float pace_ms_ = 0.0f;
  float slow_down_ = 20000.0f;   // replay: wall-clock seconds per GPU second
  // What is shown.
  std::optional<cuda::GpuReplay> replay_;
  // Created only in builds with CUDA; the deleter comes with it, so builds without CUDA never
  // reference GpuRun's code.
  std::unique_ptr<cuda::GpuRun, void (*)(cuda::GpuRun*)> live_{nullptr, nullptr};
  double started_at_ = 0;
  cuda::RunSummary shape_;       // problem, device, tiling of the run on screen
  std::vector<int> cells_;       // T_r × T_c: view::kGpuCellPending / kGpuCellSkipped / SM id
  int t_r_ = 0, t_c_ = 0, seen_ = 0, total_ = 0;
  long long loaded_ = 0, written_ = 0;  // bytes, from the records so far
  bool done_ = false;
  std::optional<cuda::RunSummary> totals_;  // after the run: counters, time, TFLOP/s, GB/s
};

}  // namespace bw::app
