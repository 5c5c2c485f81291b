// [frame] One frame's phases, in order; see app_run.h.
#include "app/app_run.h"

#include <GL/gl.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string_view>
#include <utility>

#include "app/class_panel.h"
#include "app/export.h"
#include "app/glyphs.h"
#include "app/panels.h"
#include "app/platform.h"
#include "app/settings_window.h"
#include "app/shortcuts.h"
#include "app/toast.h"
#include "classroom/student.h"
#include "data/atomic_write.h"
#include "data/json_file.h"
#include "session/app_state.h"
#include "session/shown.h"
#include "view/format.h"
#include "view/ui_text.h"

namespace bw::app {

namespace {

// Whether a live class has news (students joined or answered) for the idle window to draw.
bool ClassChanged(AppState& state, AppRun& run, double now) { return run.live_class && run.live_class->Poll(state, now); }

// The atlas rebuilt when the sizes changed or a shown text needs glyphs it lacks (glyphs.h).
void RebuildFontsIfNeeded(AppState& state, AppRun& run) {
  if (!state.ui.fonts_dirty) return;
  auto texts = ShownTexts(state);
  const auto runtime = RuntimeTexts(state);  // glyphs on demand (glyphs.h)
  texts.insert(texts.end(), runtime.begin(), runtime.end());
  Fonts& fonts = run.fonts;
  if (AtlasCovers(fonts, texts, state.ui.text_px, state.ui.diagram_px, state.ui.chrome_px)) {
    state.ui.fonts_dirty = false;   // nothing new to bake: the same sizes, every glyph already there
    run.notes.RequestGlyphs(texts);  // the F5 window's atlas holds only the shown texts
    return;
  }
  // The other lessons of the course too: switching lessons then finds its glyphs (glyphs.h).
  // Not in the very first bake (no diagram size yet): the second frame rebakes anyway with the
  // diagram's size, and the first frame comes sooner without them.
  const std::vector<std::string>* folder = nullptr;
  if (state.model.lesson && state.ui.diagram_px > 0) folder = &FolderTexts(run.folder_texts, state.ui.opened_path);
  const auto atlas_start = RunClock::now();
  const Fonts was = fonts;  // [soak] the sizes before, for the log (its ImFont pointers die below)
  std::string new_glyphs;
  if (run.soak.On() && fonts.body)
    for (unsigned c : MissingGlyphs(fonts, texts)) {
      ImWchar w[2] = {static_cast<ImWchar>(c), 0};
      char u[8] = {};
      ImTextStrToUtf8(u, sizeof u, w, w + 1);
      new_glyphs += u;
    }
  fonts = LoadFonts(state.ui.text_px, texts, state.ui.diagram_px, state.ui.chrome_px, folder);
  if (run.soak.On()) {
    char why[160];
    std::snprintf(why, sizeof why, "diagram %.2f → %.2f px, text %.2f → %.2f px, chrome %.2f → %.2f", was.diagram_px, fonts.diagram_px,
                  was.body_px, fonts.body_px, was.chrome_px, fonts.chrome_px);
    if (!new_glyphs.empty()) run.soak.frame_did += "new glyphs \"" + new_glyphs.substr(0, 60) + "\" ";
    run.soak.frame_did += "font atlas rebuilt (" +
                          std::to_string(std::lround(std::chrono::duration<double, std::milli>(RunClock::now() - atlas_start).count())) +
                          " ms; " + why + ") ";
  }
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  ++run.atlas_revision;
  state.ui.fonts_dirty = false;
  run.notes.MarkFontsDirty();
  if (!fonts.error.empty()) std::cerr << "warning: " << fonts.error << "\n";
  if (!fonts.missing.empty()) SetStatus(state, fonts.missing);  // web: characters the font subset lacks
  // Characters left out by the atlas budget are not asked for again (each ask rebaked 8,000
  // characters at six sizes for nothing: seconds per bake with a 49,000-character title).
  // The budget's cut is named, never a silent "?" (fonts.h).
  if (fonts.dropped_glyphs > 0) {
    for (unsigned c : MissingGlyphs(fonts, texts)) run.glyphs_tried.insert(c);
    SetStatus(state, view::UiFormat(view::Str::glyphs_dropped, state.options.lang,
                                    {view::FormatInt(fonts.dropped_glyphs), view::FormatInt(fonts.glyph_capacity)}));
  }
}

// Ctrl+Shift+E: the numbers as CSV and the trace as JSON.
void ExportData(AppState& state) {
  const std::string stem = ExportPath(state, "");
  std::string err = MakeExportFolder(state);
  if (err.empty()) err = ExportPanelsCsv(state, stem + "-counters.csv");
  if (err.empty()) err = ExportTraceJson(state, stem + "-trace.json");
  if (!err.empty()) {
    state.ui.error = err;
    return;
  }
  SetStatus(state, "wrote " + stem + "-counters.csv, " + stem + "-trace.json");
  ShowToast(state, state.ui.status, platform::Now());
}

// Ctrl+E: the view as PNG at 2×.
void ExportPng(AppState& state, AppRun& run) {
  const std::string path = ExportPath(state, "@2x.png");
  std::string err = MakeExportFolder(state);
  if (err.empty()) err = ExportScaledPng(state, run.window, run.fonts, 2.0f, path, &run.heatmap, nullptr, run.fill_pass);
  if (!err.empty()) {
    state.ui.error = err;
    return;
  }
  SetStatus(state, "wrote " + path);
  ShowToast(state, state.ui.status, platform::Now());
}

}  // namespace

void WriteStateFile(const AppState& state, AppRun& run) {
  if (run.args.state_file.empty()) return;
  const std::string js = data::DumpJson(StateJson(state), 2) + "\n";
  if (js == run.last_state) return;
  try {
    data::WriteFileAtomically(run.args.state_file, js);
  } catch (const std::exception& e) {
    std::cerr << "warning: " << e.what() << "\n";
  }
  run.last_state = js;
}

// [input] Event-driven: sleep until input arrives, a playback step or animation frame is due, or the
// watched files need a look (once a second). The screenshot and soak paths never wait.
bool WaitForFrame(AppState& state, AppRun& run) {
  const bool waits = !run.headless && !run.soak.On();
  // Iconified: no frames, no playback, no file checks — sleep until the window comes back, then
  // resume playing from that moment (not with the missed steps).
  if (waits && platform::Iconified(run.window)) {
    platform::WaitEvents();
    state.ui.last_advance = platform::Now();
    run.redraw_frames = 2;
    return false;
  }
  const double now = platform::Now();
  // Until a frame has shown the arrows' full length: a frame drawn just before the end (woken
  // early by input) left them a pixel short until the next input (a helper saw it).
  const bool animating = (state.ui.anim_start >= 0 && (now - state.ui.anim_start < kAnimSeconds || run.drawn_progress < 1.0f)) ||
                         (state.ui.show_gpu && run.gpu->Busy());  // tiles arriving: keep drawing
  if (!waits || run.unsettled_frames > 0) {  // (the frame not shown: draw the next at once)
    platform::PollEvents();
  } else if (state.ui.playing) {
    const double due = state.ui.last_advance + 1.0 / state.options.play_speed;
    platform::WaitEvents(std::max(0.0, std::min(due - now, animating ? 1.0 / 60 : 1.0)));
    if (platform::Now() >= due) {
      const std::string said = state.ui.status;
      PlayTick(state);  // stops at the next step's mark, at the end and before leaving an open question
      // What playing says when it refuses to go on (reveal the question first) goes where the class
      // sees it: the toolbar's status line alone is too small and pale on a projector.
      if (state.ui.status != said) ShowToast(state, state.ui.status, platform::Now());
      state.ui.last_advance = platform::Now();
    }
  } else if (animating || run.redraw_frames > 0) {
    platform::WaitEvents(animating ? 1.0 / 60 : 0.0);  // a few frames after input settle ImGui's layout
    if (!animating) --run.redraw_frames;
  } else {
    // While the model computes in the background, look ten times a second whether it is done.
    const auto* computing = state.Current() && state.Current()->Computing() ? state.Current() : nullptr;
    // A live class looks four times a second whether students joined or answered (the notes window).
    platform::WaitForInput(state, computing ? 0.1 : state.ui.live_class.live ? 0.25 : 1.0);  // clears input_seen first (web: input since the last drawn frame)
    state.ui.last_advance = platform::Now();
    const bool arrived = computing && state.Current() == computing && !computing->Computing();
    const bool reloaded = ReloadIfChanged(state);
    // Woken by the once-a-second file check and nothing changed: draw nothing.
    if (!state.ui.input_seen && !reloaded && !arrived && state.ui.presenter == run.notes.IsOpen() && !run.notes.CloseRequested() &&
        state.ui.fullscreen == run.is_fullscreen && state.ui.toast.empty() &&  // a toast redraws until it expires
        !ClassChanged(state, run, platform::Now()))
      return false;
    run.redraw_frames = 2;
  }
  return true;
}

// [update] The notes window, fullscreen, the font sizes and atlas, the transfer animation.
bool UpdateFrame(AppState& state, AppRun& run, Frame& f) {
  NotesWindow& notes = run.notes;
  if (state.ui.presenter != notes.IsOpen()) {
    if (state.ui.presenter) {
      if (!notes.Open(run.window, &state)) state.ui.presenter = false;
    } else {
      notes.Close();
    }
  }
  if (notes.CloseRequested()) {
    state.ui.presenter = false;
    notes.Close();
  }
  ApplyFullscreen(state, run.window, run.is_fullscreen);

  const platform::Size fb = platform::FramebufferSize(run.window);
  f.fb_w = fb.w, f.fb_h = fb.h;
  if (f.fb_w == 0 || f.fb_h == 0) {  // minimised: nothing to draw, and nothing to spin on
    if (!run.headless && !run.soak.On()) platform::WaitEvents(0.5);
    return false;
  }
  f.start = RunClock::now();
  run.soak.last_frame_did = std::exchange(run.soak.frame_did, std::exchange(run.soak.next_draws, ""));  // [soak] what the frame now measured did
  UpdateFontSizes(state, static_cast<float>(platform::WindowSize(run.window).h));
  RebuildFontsIfNeeded(state, run);
  // A new event starts its transfer animation.
  if (state.ui.event != run.last_event || state.ui.step != run.last_step) {
    state.ui.anim_start = (run.last_event < 0 || run.headless || run.soak.On()) ? -1 : platform::Now();
    run.last_event = state.ui.event;
    run.last_step = state.ui.step;
  }
  f.progress = 1.0f;
  if (state.ui.anim_start >= 0) {
    const double t = std::min(1.0, (platform::Now() - state.ui.anim_start) / kAnimSeconds);
    f.progress = static_cast<float>(1.0 - (1.0 - t) * (1.0 - t) * (1.0 - t));  // ease-out cubic
  }
  run.drawn_progress = f.progress;
  return true;
}

// [build] ImGui's frame: keys, the main window, the dialogs and panels over it; Ctrl+Shift+E.
void BuildFrame(AppState& state, AppRun& run, Frame& f) {
  ImGui_ImplOpenGL3_NewFrame();
  platform::NewImGuiFrame();
  ImGui::NewFrame();
  HandleKeys(state);
  classroom::AfterInput(state);  // a student of a live class: a key that moved away from the teacher
  if (state.ui.show_gpu) run.gpu->Tick(state, platform::Now());  // the timeline shows the replay's position now
  f.painted = DrawMainWindow(state, run.fonts, f.progress, &run.heatmap, run.fill_pass);
  classroom::AfterInput(state);  // … or a click, a drag of the timeline
  DrawOpenBrowser(state);
  if (state.ui.show_gpu) {
    Painted gp = run.gpu->Draw(state, run.fonts, platform::Now(), run.fill_pass);
    f.painted.rects.insert(f.painted.rects.end(), gp.rects.begin(), gp.rects.end());
  }
  DrawSettingsWindow(state);
  DrawToast(state, platform::Now());
  if (run.live_class) {  // the teacher's: the join card and the class's answers over the projected screen
    DrawJoinCard(state, ImGui::GetIO().DisplaySize.y / 1080.0f);
    DrawClassAnswers(state, run.fonts, ImGui::GetIO().DisplaySize.y / 1080.0f);
  }
  // Ctrl+E: the view as PNG at 2× (after the frame is drawn); Ctrl+Shift+E: the numbers as CSV and
  // the trace as JSON. The keys come through AppState's queue (HandleKeys), so a tap inside one frame
  // still exports.
  const auto export_request = std::exchange(state.ui.export_request, Transient::Export::kNone);
  if (export_request == Transient::Export::kData) ExportData(state);
  f.export_png = export_request == Transient::Export::kPng;
  ImGui::Render();
  // A character this frame showed that the atlas lacks: rebuild it before the next frame.
  RequestGlyphs(state, run.fonts, run.glyphs_tried);
}

// [paint] What changed since the picture the back buffer holds, drawn; Ctrl+E's PNG.
bool PaintFrame(AppState& state, AppRun& run, Frame& f) {
  // A frame whose layout is still settling (the text's pages or the side panel's fit moved, a
  // new table sized its columns, a glyph is missing from the atlas) is not shown: the next one is
  // drawn at once. A reveal that switched the side panel flashed a table of sliced characters and
  // the text on its last page for about half a second (issue 29's walk-through). At most three in
  // a row, so a layout that never settles still reaches the screen.
  if (!run.headless && !run.soak.On() && !f.export_png && run.unsettled_frames < 3) {
    if (state.ui.layout_settling || state.ui.fonts_dirty) {
      WriteStateFile(state, run);
      ++run.unsettled_frames;
      state.ui.layout_settling = false;
      run.redraw_frames = std::max(run.redraw_frames, 2);
      return false;
    }
  }
  run.unsettled_frames = 0;
  // The main window draws no background of its own (fill-rate matters with software GL): the
  // clear colour is ImGui's window background.
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  ImDrawData* draw_data = ImGui::GetDrawData();
  // Only what changed since the picture the back buffer holds (damage.h); screenshots draw whole.
  f.redraw = {{0, 0, f.fb_w, f.fb_h}};
  if (!run.headless && !run.args.full_redraw && draw_data->FramebufferScale.x == 1.0f && draw_data->FramebufferScale.y == 1.0f &&
      platform::CanRedrawInPart(run.window)) {
    const float seed_parts[4] = {bg.x, bg.y, bg.z, static_cast<float>(run.atlas_revision)};
    run.damage.Record(*draw_data, f.fb_w, f.fb_h,
                      std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(seed_parts), sizeof seed_parts)),
                      DescribeCallback);
    f.redraw = run.damage.Damage(platform::BackBufferAge(run.window));
  }
  DrawFrame(draw_data, f.redraw, f.fb_w, f.fb_h, bg, run.soak.On() ? &f.drawn : nullptr, &run.damage.TriangleBoxes());
  if (run.soak.On()) SoakMeasureDraw(run.soak, draw_data, f.redraw, f.fb_w, f.fb_h, bg);  // [soak] how much was drawn again
  platform::FramePainted(state, f.painted);  // web: what bw_scene_dump() reports
  if (state.ui.fonts_dirty || std::exchange(state.ui.layout_settling, false)) run.redraw_frames = std::max(run.redraw_frames, 2);
  if (run.first_frame_ms < 0) run.first_frame_ms = std::chrono::duration<double, std::milli>(RunClock::now() - run.process_start).count();
  if (f.export_png) ExportPng(state, run);
  return true;
}

// [capture] --screenshot: a few frames let ImGui settle its layout (window sizes, table widths) before
// the capture; then the PNG (and --dump-scene's JSON) and the window closes.
void CaptureScreenshot(AppState& state, AppRun& run, Frame& f) {
  if (!run.headless || ++run.frame < 4 || platform::Now() - run.start_time < run.args.screenshot_after) return;
  const Args& args = run.args;
  Painted scaled;
  std::string err;
  if (args.scale > 1.0f) {
    err = ExportScaledPng(state, run.window, run.fonts, args.scale, args.screenshot, &run.heatmap, &scaled, run.fill_pass);
    f.painted = std::move(scaled);
  } else {
    err = WritePixelsPng(args.screenshot, 0, 0, f.fb_w, f.fb_h);
  }
  if (!err.empty()) {
    std::cerr << "error: " << err << "\n";
    run.exit_code = 1;
  }
  if (!args.dump_scene.empty()) {
    if (const std::string derr = DumpScene(args.dump_scene, state, f.painted); !derr.empty()) {
      std::cerr << "error: " << derr << "\n";
      run.exit_code = 1;
    }
  }
  platform::RequestClose(run.window);
}

// [present] The frame to the screen (only what changed, where the platform can), then the F5 window's.
void PresentFrame(AppState& state, AppRun& run, Frame& f) {
  if (run.headless || run.args.full_redraw) platform::SwapBuffers(run.window);
  else platform::Present(run.window, f.redraw, f.fb_w, f.fb_h);
  if (run.notes.IsOpen()) run.notes.Frame(run.window, run.main_ctx, ShownTexts(state));
}

// [after] The live class follows what this frame showed; --state-file; the settings saved.
void AfterFrame(AppState& state, AppRun& run) {
  if (run.live_class) {
    if (auto& setup = state.ui.class_setup; !setup.start_at.empty()) setup.error = StartClass(state, run, std::exchange(setup.start_at, ""));
    run.live_class->Frame(state, platform::Now());  // the class follows what this frame showed
  }
  WriteStateFile(state, run);
  if (run.use_settings && state.ui.settings_dirty) {
    const std::string err = SaveSettings(OptionsToSave(state.options, run.options_before, run.overrides), run.settings_path);
    // Named once, in the window and on stderr, with the file (an unwritable HOME printed a bare
    // "filesystem error" on stderr at every change, and the window said nothing: issue 31).
    if (!err.empty() && !run.settings_save_failed) {
      run.settings_save_failed = true;
      SetStatus(state, view::UiFormat(view::Str::settings_not_saved, state.options.lang, {run.settings_path.string(), err}));
      std::cerr << "warning: " << state.ui.status << "\n";
    }
    if (err.empty()) run.settings_save_failed = false;
    state.ui.settings_dirty = false;
  }
}

void RunFrame(AppState& state, AppRun& run) {
  if (!WaitForFrame(state, run)) return;
  Frame f;
  if (!UpdateFrame(state, run, f)) return;
  BuildFrame(state, run, f);
  if (!PaintFrame(state, run, f)) return;
  // [soak] One trace event per frame, on to the next step (wrapping) at the end of each trace.
  if (run.soak.On() && SoakStep(state, run.soak, f.start, f.drawn, f.fb_w, f.fb_h, run.first_frame_ms, run.exit_code))
    platform::RequestClose(run.window);
  CaptureScreenshot(state, run, f);
  PresentFrame(state, run, f);
  AfterFrame(state, run);
}

}  // namespace bw::app
