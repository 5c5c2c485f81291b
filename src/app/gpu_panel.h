// The GPU panel (G): the CUDA backend's tile traffic, from a kernel running on this machine's GPU
// ("LIVE", only then) or from a run recorded on an H200 (assets/gpu/*.json) that can be paused,
// sped up or slowed down, and scrubbed. Beside the tile grid (cells coloured by start time, skipped
// tiles striped): the SM × time lanes, the roofline against the device's peaks, and the counters
// against the CPU engine's prediction. Without a GPU it opens on a plain sentence (the driver's reason
// on hover) and a paused replay. Geometry comes from src/view/gpu_scene.h and gpu_roofline.h.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "session/app_state.h"
#include "app/fonts.h"
#include "app/painter.h"
#include "cuda/gpu_types.h"
#include "view/gpu_scene.h"

namespace bw::cuda {
class GpuRun;
}

namespace bw::app {

class GpuPanel {
 public:
  // `recording_path`: the default recording; every *.json beside it is offered too. `clock`: the
  // replay's position (AppState::ui.gpu_replay), which the main timeline moves too (replay_clock.h);
  // it must outlive the panel.
  GpuPanel(std::string recording_path, ReplayClock& clock);
  ~GpuPanel();
  // The panel's window; call every frame while s.ui.show_gpu. `now` in seconds (platform::Now).
  // Returns what it painted (grid, lanes, roofline) for --dump-scene; fills s.ui.gpu.
  // `fills`: the fills' pass of the other paint calls (AppRun::fill_pass; painter.h).
  Painted Draw(AppState& s, const Fonts& fonts, double now, const FillPass& fills = {});
  // Moves a playing replay on to `now` (seconds, as Draw's). Call before drawing the main window, so
  // the timeline shows this frame's position, the same one the panel then draws; Draw calls it too.
  void Tick(AppState& s, double now);
  // True while tiles are still arriving (a live run, or a replay playing): the app keeps drawing.
  bool Busy() const;
  // Plays the default recording from `elapsed_s` wall-clock seconds in (tests and screenshots).
  void StartReplay(double now, double elapsed_s = 0);
  // Starts a live run from "ALG,N,D,CAUSAL,PACE_MS" (ALG fp32|bf16), or "hopper,N,D,CAUSAL,0[,WARP_CTAS]":
  // the Hopper kernel (sm_90 only, d <= 128, no pace), its warp phases logged in WARP_CTAS sampled CTAs
  // (default 3, 0 = none); returns "" or why not.
  std::string StartLiveFromSpec(const std::string& spec, double now);

 private:
  void LoadRecording(size_t index);
  void StartLive(double now);
  void PollLive();
  void DrawControls(AppState& s, double now);
  void DrawKernelChoice(AppState& s);
  void DrawResults(AppState& s, const Fonts& fonts, float width_px, Painted& painted);
  // gpu_panel_hover.cpp: the grid, the lanes and the warp timeline, each with its tooltip, the tile under
  // the mouse outlined in all three (hovered_: last frame's, found_: this frame's).
  void DrawGrid(AppState& s, const Fonts& fonts, float grid_px, Painted& painted);
  void DrawLanes(AppState& s, const Fonts& fonts, float w_em, float h_em, Painted& painted);
  void DrawWarps(AppState& s, const Fonts& fonts, float w_em, Painted& painted);
  FillPass fills_;  // this frame's fills' pass (Draw's argument)
  std::string KernelLabel(const std::string& lang) const;
  // The run whose warp phases the timeline draws: the replay, or a finished live run; null when none.
  const cuda::RunSummary* WarpRun() const;

  std::vector<std::string> recordings_;  // paths, default first
  size_t recording_ = 0;
  std::string why_no_gpu_;               // "" when a live GPU can be used
  std::string why_no_hopper_;            // "" when the Hopper kernel can run here (an sm_90 GPU)
  std::string device_name_;
  std::string error_;
  // Live-run settings.
  // precision_: the kernel choice, 0 fp32 tiled, 1 bf16 and 2 fp16 tensor core (FA-2), 3 the Hopper kernel.
  static constexpr int kHopperChoice = 3;
  int n_ = 4096, d_ = 64, b_r_ = 64, b_c_ = 64, precision_ = 0;
  int warp_ctas_ = 3;  // Hopper: CTAs whose warp phases are logged (the warp timeline)
  bool causal_ = true;
  float pace_ms_ = 0.0f;
  // Replay: the recording; its position, play/pause and speed live in `clock_` (shared with the timeline).
  std::optional<cuda::RunSummary> replay_;
  ReplayClock& clock_;
  double last_now_ = 0;
  // Live: created only in builds with CUDA; the deleter comes with it.
  std::unique_ptr<cuda::GpuRun, void (*)(cuda::GpuRun*)> live_{nullptr, nullptr};
  cuda::RunSummary shape_;               // problem, device, tiling of the run on screen
  view::GpuFrame frame_;
  bool done_ = false;
  std::optional<cuda::RunSummary> totals_;  // after the run: counters, time, TFLOP/s, GB/s
  view::GpuTileRef hovered_, found_;
};

// Bytes in decimal units as GPU datasheets give bandwidth ("4.8 TB/s"): "220.86 MB", "957.7 kB"
// (view::GpuBytes; view::FormatBytes writes binary units, KiB/MiB, for SRAM sizes).
std::string GpuBytes(double bytes);

}  // namespace bw::app
