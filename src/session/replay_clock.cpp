// The GPU replay's one position; see replay_clock.h.
#include "session/replay_clock.h"

#include <algorithm>
#include <cstdio>

#include "view/scene.h"

namespace bw::app {

bool TimelineScrubsGpu(const AppState& s) { return s.ui.show_gpu && s.ui.gpu_replay.loaded; }

void ScrubGpuReplay(AppState& s, double position_ns) {
  ReplayClock& c = s.ui.gpu_replay;
  c.position_ns = std::clamp(position_ns, 0.0, std::max(0.0, c.span_ns));
}

double SliderUsToNs(float pos_us, double span_ns) {
  if (pos_us >= static_cast<float>(span_ns * 1e-3)) return span_ns;
  return static_cast<double>(pos_us) * 1e3;
}

void ToggleGpuReplay(AppState& s) {
  ReplayClock& c = s.ui.gpu_replay;
  if (!c.loaded) return;
  if (!c.playing && c.position_ns >= c.span_ns) c.position_ns = 0;
  c.playing = !c.playing;
}

void AdvanceGpuReplay(AppState& s, double wall_s) {
  ReplayClock& c = s.ui.gpu_replay;
  if (!c.loaded || !c.playing || wall_s <= 0) return;
  c.position_ns += wall_s * 1e9 / std::max(1.0f, c.slow_down);
  if (c.position_ns >= c.span_ns) c.position_ns = c.span_ns, c.playing = false;
}

std::string GpuTimelineLabel(const AppState& s) {
  const ReplayClock& c = s.ui.gpu_replay;
  char buf[96];
  std::snprintf(buf, sizeof buf, " %.1f / %.1f \u00b5s", c.position_ns * 1e-3, c.span_ns * 1e-3);
  std::string label = view::UiText(view::Str::gpu_time_at, s.options.lang) + buf;
  if (!s.ui.gpu.recording.empty()) label += " \u00b7 " + s.ui.gpu.recording;
  if (!c.playing) label += " \u00b7 " + view::UiText(view::Str::gpu_paused, s.options.lang);
  return label;
}

}  // namespace bw::app
