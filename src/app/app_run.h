// One run of the app, in named phases (issue 35 item 2). main() (main.cpp) is their sequence:
//   ParseArgs → StartSession (settings, the first document, a live class) → OpenPlatform (the window,
//   ImGui, the input callbacks, the renderers) → RunFrame once per frame → Shutdown.
// A frame is: WaitForFrame (input: sleep until something is to draw; playback) → UpdateFrame (windows,
// the font atlas, the transfer animation) → BuildFrame (ImGui: the panels read AppState and call its
// actions) → PaintFrame (draw what changed) → the soak's step (soak.h) → CaptureScreenshot → PresentFrame
// → AfterFrame (the live class, --state-file, the settings).
// AppState holds the classroom; AppRun holds what the window and the loop need beside it.
// Files: options.cpp (ParseArgs), startup.cpp (StartSession, OpenPlatform, Shutdown), frame.cpp (the
// frame's phases), soak.cpp (the --soak driver).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/class_host.h"
#include "app/damage.h"
#include "app/fill_shader.h"
#include "app/fonts.h"
#include "app/frame_helpers.h"
#include "app/glyphs.h"
#include "app/gpu_panel.h"
#include "app/heatmap.h"
#include "app/notes_window.h"
#include "app/painter.h"
#include "app/platform.h"
#include "app/settings.h"
#include "app/soak.h"

namespace bw::app {

struct AppState;

// The command line (ParseArgs).
struct Args {
  std::string file, lesson, scenario, step, position, screenshot, dump_scene, lang, open_after, state_file, export_dir, show, class_at, class_state;
  int width = 1600, height = 1000;
  bool projector = false, presenter = false, no_settings = false, reveal = false, link = false;
  bool lesson_given = false;     // --lesson was on the command line (even empty)
  bool projector_given = false;  // --projector or --no-projector was
  float font_px = 0;     // 0 = from settings
  float scale = 1;       // --screenshot at this scale (re-laid out with a scaled font)
  double gpu_replay_at = -1;  // open the GPU panel replaying the H200 recording at this many seconds
  bool gpu_open = false;      // --gpu: open the GPU panel in its default state
  std::string gpu_live;       // --gpu-live: open it and start a live run (screenshots on a GPU machine)
  double screenshot_after = 0;  // --screenshot-after: seconds to wait before the capture
  int soak = 0;          // [soak] issue 7: frames to step through the lesson, printing RSS (0 = off)
  bool full_redraw = false;   // --full-redraw: every frame drawn whole (damage.h)
  bool check_redraw = false;  // --check-redraw: [soak] each partial frame compared with a full redraw
  bool imgui_fills = false;  // --imgui-fills: the diagram's fills through ImGui's program (the picture must not change)
};

using RunClock = std::chrono::steady_clock;

struct AppRun {
  Args args;
  RunClock::time_point process_start;
  bool headless = false;  // --screenshot: render, capture, exit (no waiting, no settings)

  // [settings] Read at start, saved when they change (AfterFrame).
  std::filesystem::path settings_path;
  bool use_settings = false;
  bool first_launch = false;          // no saved settings yet: the locale's language, maximised
  bool settings_save_failed = false;  // a failed save is named once
  Options options_before;             // the saved settings, before this run's own options
  RunOverrides overrides;             // --lang, --projector, --font-px: for this run only

  // [start] The first document.
  std::string lesson;           // the lesson or course file (--lesson, else the shipped course)
  bool startup_failed = false;  // the file asked for was refused: exit status 2 at the end
  bool link_failed = false;     // --link: its step or position does not exist (shown over the library)

  // [platform] The window and what draws into it (OpenPlatform). Declared in the order they were made,
  // so they go in the reverse order.
  platform::Window* window = nullptr;
  ImGuiContext* main_ctx = nullptr;
  // The live class's host (platform::NewClassHost: null where the edition cannot host one, the web);
  // no port is opened without --class or the settings window's Start.
  std::unique_ptr<ClassHost> live_class;
  std::optional<GpuPanel> gpu;
  HeatmapRenderer heatmap;
  FillShader fill_shader;  // the diagram's fills without ImGui's texture fetch
  FillPass fill_pass;      // what the paint calls get (painter.h): fill_shader's, unless --imgui-fills
  Fonts fonts;
  NotesWindow notes;
  DamageTracker damage;

  // [loop] The frame loop's own state.
  bool is_fullscreen = false;  // F11 applied (platform::SetFullscreen keeps the windowed place and size)
  int frame = 0;              // frames drawn (a screenshot waits for a few)
  int redraw_frames = 2;      // frames still to draw after input, so ImGui's layout settles
  int unsettled_frames = 0;   // frames drawn in a row and not shown while the layout settles
  std::set<unsigned> glyphs_tried;  // characters already added on demand (or found missing from the font)
  FolderTextCache folder_texts;     // the texts of each lesson folder opened, for the atlas (glyphs.h)
  std::string last_state;     // --state-file: what was last written
  int last_event = -1, last_step = -1;  // the position the transfer animation started for
  std::uint64_t atlas_revision = 0;  // the font atlas' pictures: a rebuild may reuse its texture name
  double first_frame_ms = -1;
  int exit_code = 0;
  double start_time = 0;      // platform::Now() when the loop began (--screenshot-after)
  float drawn_progress = 1.0f;  // the arrows' length in the last frame drawn (0–1)

  Soak soak;  // [soak]
};

// What one frame carries from phase to phase.
struct Frame {
  int fb_w = 0, fb_h = 0;
  RunClock::time_point start;
  float progress = 1.0f;  // the transfer arrows' length (0–1)
  Painted painted;
  bool export_png = false;  // Ctrl+E this frame
  std::vector<PixelRect> redraw;
  DrawnArea drawn;
};

inline constexpr double kAnimSeconds = 0.3;  // transfer arrows grow over this long, eased, then stay still

// [options] Parses the command line into run.args; a value when the app should exit with it now
// (--help, a bad option).
std::optional<int> ParseArgs(int argc, char** argv, Args& args);
// [start] Settings, this run's own options, the first document (with --step, --position, --reveal),
// the library, --open-after and a live class (--class). A value: exit with it now.
std::optional<int> StartSession(AppState& state, AppRun& run);
// [platform] The window, ImGui, the input callbacks, the GPU panel and the renderers. A value: exit.
std::optional<int> OpenPlatform(AppState& state, AppRun& run);
// [frame] One frame, its phases in order (frame.cpp).
void RunFrame(AppState& state, AppRun& run);
bool WaitForFrame(AppState& state, AppRun& run);                 // false: nothing to draw now
bool UpdateFrame(AppState& state, AppRun& run, Frame& f);        // false: minimised
void BuildFrame(AppState& state, AppRun& run, Frame& f);
bool PaintFrame(AppState& state, AppRun& run, Frame& f);         // false: not shown (layout settling)
void CaptureScreenshot(AppState& state, AppRun& run, Frame& f);  // --screenshot
void PresentFrame(AppState& state, AppRun& run, Frame& f);
void AfterFrame(AppState& state, AppRun& run);
// --state-file: the state after each frame, when it changed.
void WriteStateFile(const AppState& state, AppRun& run);
// A live class on `where` (--class, or the settings window's Start): "" or why not.
std::string StartClass(AppState& state, AppRun& run, const std::string& where);
// [end] The live class stopped, the windows closed; the exit status.
int Shutdown(AppState& state, AppRun& run);

}  // namespace bw::app
