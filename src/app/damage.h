// Partial redraw (issue 16, frames on software GL): a frame repaints only the parts of the window
// whose picture changed since the picture the back buffer still holds.
//
// How a change is found: the window is cut into cells of kCell × kCell framebuffer pixels. Each cell
// gets a 64-bit hash of every triangle that can put a pixel in it, in draw order — the triangle's
// three vertices (position, atlas uv, colour), its texture, its scissor rectangle (the whole pixels
// ImGui's OpenGL3 backend gives glScissor) and the program state set by draw callbacks — seeded with
// what the draw data does not show (the clear colour, the font atlas' revision, the window size). A
// pixel's colour depends only on the ordered fragments of the triangles that cover it, so a cell whose
// hash equals the one of `age` frames ago (GLX_EXT_buffer_age: the back buffer's picture) comes out
// the same and is left alone. Draw callbacks are described by the caller (CallbackEffect): a program
// switch changes only the state, a callback that draws (the heatmap) covers its clip rectangle with a
// fingerprint of what it draws.
//
// How it is painted: the changed cells are joined into at most kMaxRects disjoint rectangles (one
// rectangle for the whole window when they would cover most of it or the age is unknown). Each draw
// command is then repeated once per rectangle it meets, its clip rectangle cut to that rectangle on
// whole pixels, so inside a rectangle every command scissors exactly the pixels of a full draw and
// the order of commands is kept. The test App.PartialRedrawDrawsWhatAFullRedrawDraws compares every
// partial frame of a soak with a full redraw of the same frame, pixel for pixel.
// Units: framebuffer pixels, top-left origin (ImGui's), [x0, x1) × [y0, y1). Only for draw data whose
// framebuffer scale is 1 (X11); other scales are drawn whole.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace bw::app {

struct PixelRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  long Area() const { return static_cast<long>(x1 - x0) * (y1 - y0); }
  bool operator==(const PixelRect&) const = default;
};

// What a draw callback (ImDrawCmd::UserCallback) does to the pixels that follow or under it.
struct CallbackEffect {
  bool draws = true;             // false: a state change only (e.g. a program switch)
  std::uint64_t fingerprint = 0; // what it draws or the state it sets; equal fingerprints draw the same
};
using CallbackDescriber = std::function<CallbackEffect(const ImDrawCmd&)>;

class DamageTracker {
 public:
  static constexpr int kCell = 16;     // pixels a side
  static constexpr int kMaxRects = 6;  // more rectangles cost more vertex work than they save in pixels
  static constexpr int kHistory = 3;   // back buffer ages that can be answered

  // Hashes the cells of this frame's picture (see above). `describe` says what each callback does; a
  // callback it does not know should be reported as drawing with a fingerprint that changes.
  void Record(const ImDrawData& dd, int fb_w, int fb_h, std::uint64_t seed, const CallbackDescriber& describe);
  // The rectangles to repaint so that a back buffer holding the picture of `age` frames ago
  // (0: unknown) shows this frame: empty when nothing changed, the whole window when the age is
  // unknown or beyond the history, the size changed, or the changed cells
  // would cover more than 60 % of it. Then the frame becomes history.
  std::vector<PixelRect> Damage(int age);

  int fb_w() const { return fb_w_; }
  int fb_h() const { return fb_h_; }
  // The pixels each triangle of the recorded draw data can write (cut to its scissor; empty: none), in
  // draw order over every command that is not a callback: for ClipDrawDataTo.
  const std::vector<PixelRect>& TriangleBoxes() const { return boxes_; }

 private:
  int fb_w_ = 0, fb_h_ = 0, cols_ = 0, rows_ = 0;
  std::vector<std::uint64_t> cells_;
  std::vector<PixelRect> boxes_;
  std::vector<std::vector<std::uint64_t>> history_;  // [0]: last frame; same size as cells_
};

// Cells joined into at most `max_rects` disjoint rectangles covering every marked cell (cols × rows
// grid, row-major), in cell units. Exposed for tests.
std::vector<PixelRect> JoinCells(const std::vector<std::uint8_t>& marked, int cols, int rows, int max_rects);

// Restricts `dd` to `rects` (disjoint) for one RenderDrawData call, as described above; the
// destructor puts the command buffers back as they were. `boxes`: DamageTracker::TriangleBoxes() of
// the same draw data, or null to compute them here.
class ClipDrawDataTo {
 public:
  ClipDrawDataTo(ImDrawData& dd, const std::vector<PixelRect>& rects, int fb_h, const std::vector<PixelRect>* boxes = nullptr);
  ~ClipDrawDataTo();
  ClipDrawDataTo(const ClipDrawDataTo&) = delete;
  ClipDrawDataTo& operator=(const ClipDrawDataTo&) = delete;

 private:
  ImDrawData& dd_;
  std::vector<ImVector<ImDrawCmd>> saved_;
};

// The whole pixels ImGui's OpenGL3 backend (1.86) scissors for clip rectangle `clip` of draw data at
// `display_pos` in a framebuffer `fb_h` pixels high (scale 1), top-left origin; empty when it skips
// the command.
PixelRect BackendScissor(const ImVec4& clip, const ImVec2& display_pos, int fb_h);

}  // namespace bw::app
