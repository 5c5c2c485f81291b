// Frame helpers of the main loop (main.cpp): the app's state as JSON (--state-file), the painted
// scene and visible text as JSON (--dump-scene), a PNG of the main window at a multiple of its size
// (Ctrl+E, --scale), and the fullscreen switch (F11, Shift+F11).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "session/app_state.h"
#include "app/damage.h"
#include "app/heatmap.h"
#include "app/painter.h"
#include "app/platform.h"

namespace bw::app {

nlohmann::json StateJson(const AppState& s);
// The painted scene (every rectangle's pixel box and state, arrows, labels), the visible texts and
// StateJson: what --dump-scene writes and the web page's bw_scene_dump() returns.
nlohmann::json SceneDumpJson(const AppState& s, const Painted& painted);
// Writes SceneDumpJson atomically. Returns "" or an error line.
std::string DumpScene(const std::string& path, const AppState& s, const Painted& painted);
// Renders one frame at `scale` × the window size offscreen and saves it as PNG. Returns "" or an error line.
// It bakes a font atlas at `scale` × into ImGui's one atlas, which clears the window's: `app_fonts` (the
// window's fonts, whose ImFont pointers pointed into it) is emptied, so that the next frame bakes them
// again before it draws (drawing with them crashed: "font->Scale > 0", a segfault, after Ctrl+E).
std::string ExportScaledPng(AppState& s, platform::Window* window, Fonts& app_fonts, float scale, const std::string& path,
                            HeatmapRenderer* heatmap, Painted* painted_out, const FillPass& fills = {});
// [soak] Resident set size of this process in kB (Linux /proc) after malloc_trim, 0 if unknown.
long RssKb();
// [soak] Peak resident set size of this process so far in kB (VmHWM), 0 if unknown.
long PeakRssKb();
// F11 / Shift+F11: the window full screen on s.options.monitor, or back (platform::SetFullscreen),
// when s.ui.fullscreen or the monitor changed; `is_fullscreen`: what is applied now.
void ApplyFullscreen(AppState& s, platform::Window* window, bool& is_fullscreen);

// [soak] What one frame asks of the rasteriser, from ImGui's draw data: the pixels its triangles
// cover (each triangle's area, reduced by the part of its bounding box outside its clip rectangle —
// an estimate, exact for the axis-aligned rectangles most of a frame is), split into the triangles
// drawn from the font atlas's white pixel (fills, lines) and the rest (glyphs, images); and the
// triangle count. With software GL the frame's cost grows with the covered pixels, not the count.
struct DrawnArea {
  double fill_px = 0, textured_px = 0;
  long triangles = 0;
};
DrawnArea MeasureDrawnArea();

// [redraw] What the app's draw callbacks do, for the damage tracker (damage.h): the flat-fill program
// switch is state only; the heatmap draws its fingerprint; any other callback counts as changed in
// every frame (drawn again, never wrongly kept).
CallbackEffect DescribeCallback(const ImDrawCmd& cmd);
// [redraw] Clears to `clear` and draws `dd` inside `rects` only (damage.h); `rects` holding the whole
// framebuffer draws it as ImGui would, empty draws nothing. `drawn` (may be null): what the rasteriser
// was asked to cover (MeasureDrawnArea of what was drawn).
// `boxes`: the tracker's TriangleBoxes() of this draw data (or null).
void DrawFrame(ImDrawData* dd, const std::vector<PixelRect>& rects, int fb_w, int fb_h, const ImVec4& clear, DrawnArea* drawn,
               const std::vector<PixelRect>* boxes = nullptr);

}  // namespace bw::app
