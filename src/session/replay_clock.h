// One scrubber for the GPU replay (issue 15): the GPU panel's "GPU time" slider and the main
// window's timeline move the same AppState::ui.gpu_replay. While the GPU panel is shown with a
// recording, the timeline at the bottom of the window scrubs the replay's GPU time, and its play
// button and Space play and pause the replay, instead of stepping the lesson's trace events; closing
// the panel gives the timeline back to the lesson (its position untouched). Speed stays in the panel.
#pragma once

#include <string>

#include "session/app_state.h"

namespace bw::app {

// True while the timeline drives the GPU replay: the panel is shown and holds a recording.
bool TimelineScrubsGpu(const AppState& s);
// Moves the replay to `position_ns`, clamped to [0, span]; a scrub does not start or stop playing.
void ScrubGpuReplay(AppState& s, double position_ns);
// The position a slider over [0, span] in µs (a float) stands for: its maximum is the span exactly,
// so dragging to the end shows the finished run (float rounding would stop short of the last tile).
double SliderUsToNs(float pos_us, double span_ns);
// Play / pause. Play at the end starts again from 0.
void ToggleGpuReplay(AppState& s);
// A playing replay moves on by `wall_s` wall-clock seconds ÷ slow_down; it stops (paused) at the end.
void AdvanceGpuReplay(AppState& s, double wall_s);
// The timeline's label in GPU mode, e.g. "GPU time 354.7 / 997.9 µs · recorded_run_h200.json".
std::string GpuTimelineLabel(const AppState& s);

}  // namespace bw::app
