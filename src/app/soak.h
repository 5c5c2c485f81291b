// [soak] issue 7: --soak N steps one trace event per frame through every step of every lesson in the
// lesson's folder (wrapping) for at least N frames, then prints RSS, frame times, what the slowest
// frames did and how much of the window was drawn again, and closes the window. With --check-redraw
// each partially drawn frame is drawn whole too and the two pictures compared (damage.h).
// The driver's state and its steps; the frame loop (app_run.h) calls them.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/damage.h"
#include "app/frame_helpers.h"

namespace bw::app {

struct AppState;

struct Soak {
  int frames = 0;  // --soak: at least this many frames (0: no soak)
  bool check_redraw = false, full_redraw = false;
  int frame = 0;   // frames stepped so far
  long rss_first = 0, rss_warm = 0;  // after frame 1 and after the warm-up
  int warm_frame = 0;                // the warm-up's last frame (-1: the end of the first pass)
  // Every lesson in the lesson's folder, in name order: at the end of one the soak opens the next
  // (wrapping); the warm-up is then the first pass through all of them.
  std::vector<std::string> lessons;
  size_t next = 0, first = 0;
  std::vector<double> frame_ms;  // each frame's time, for the benchmark
  // What the slowest frames did: each frame's time with what it did besides drawing (a font atlas
  // rebuild, a file opened), and the pixels the rasteriser was asked to cover (frame_helpers.h).
  std::vector<std::pair<double, std::string>> frame_log;
  std::string frame_did, last_frame_did;
  std::string next_draws;  // what the next frame shows first (a step, a lesson)
  std::chrono::steady_clock::time_point last;  // the previous frame's start
  double drawn_fill_px = 0, drawn_textured_px = 0, redrawn_screens = 0;
  int redrawn_whole = 0, checked_frames = 0, check_failures = 0;  // partial redraw (damage.h)
  long drawn_triangles = 0, drawn_frames = 0;

  bool On() const { return frames > 0; }
};

// The soak of `frames` frames (0: none) over the lessons beside `lesson` (none with a --scenario).
void SoakInit(Soak& soak, int frames, bool check_redraw, bool full_redraw, bool scenario_given, const std::string& lesson);
// After the frame was drawn into the back buffer with `redraw`: how much was drawn again, and with
// --check-redraw the same frame drawn whole and compared.
void SoakMeasureDraw(Soak& soak, ImDrawData* draw_data, const std::vector<PixelRect>& redraw, int fb_w, int fb_h, const ImVec4& bg);
// After the frame: its time and drawn area counted, then one event on (the next step, the next
// lesson). True when the soak is done: its report is printed and `exit_code` is 1 when the redraw
// check failed.
bool SoakStep(AppState& state, Soak& soak, std::chrono::steady_clock::time_point frame_start, const DrawnArea& drawn, int fb_w, int fb_h,
              double first_frame_ms, int& exit_code);

}  // namespace bw::app
