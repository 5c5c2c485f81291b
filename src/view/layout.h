// ComputeLayout: where the main window's parts go, as rectangles in pixels, from the window size,
// the font size and the mode — a pure function, unit-tested without a window.
// The diagram's box depends on the window, not on the font: larger text never shrinks the diagram
// (the step text and the side panel scroll instead). In projector mode the side panel narrows to the
// one panel the step is about, and the diagram takes the rest of the width.
#pragma once

namespace bw::view {

struct Box {
  float x = 0, y = 0, w = 0, h = 0;   // pixels, origin top-left of the window's content region
  float Right() const { return x + w; }
  float Bottom() const { return y + h; }
  bool Contains(const Box& o) const { return o.x >= x - 0.5f && o.y >= y - 0.5f && o.Right() <= Right() + 0.5f && o.Bottom() <= Bottom() + 0.5f; }
  bool Intersects(const Box& o) const { return x < o.Right() && o.x < Right() && y < o.Bottom() && o.y < Bottom(); }
};

struct LayoutInput {
  float width = 0, height = 0;   // the content region below the top bar (pixels)
  float font_px = 22;            // the base font size (pixels; Ctrl ±): sizes the text, not the parts
  float chrome_px = 22;          // the top bar's and timeline's font (ChromePx)
  bool projector = false;        // projector layout: diagram + the step's panel + the step text
  bool presenter = false;        // notes in the F5 window
  bool heatmap = false;          // the scenario has a P heatmap beside the step text
  bool side = true;              // the side panel has something to show (false: the left part takes its width)
  float side_min = 0;            // the side panel's least width (px): its widest table whole at the legible size (≤ 45 %)
};

struct Layout {
  Box diagram;     // the HBM/SRAM diagram, scaled to fit
  Box text;        // the step text (scrolls)
  Box heatmap;     // empty (w = 0) when there is none
  Box side;        // the side panels (scroll)
  Box timeline;    // the timeline slider and its marks
};

Layout ComputeLayout(const LayoutInput& in);
// A narrow window taller than wide (a phone; not a projector): ComputeLayout stacks the parts in one
// column — diagram, step text, side panel — each the window's full width.
bool Portrait(const LayoutInput& in);
// Once the scene laid out for L.diagram is known (scene_w × scene_h em, filling the box's width): the
// box's height it does not use goes to the step text (and the heatmap beside it) below, so that a
// wide diagram never leaves an empty band while the text under it is cut off.
void GiveUnusedDiagramHeight(Layout& L, float scene_w, float scene_h);

// The top bar's and timeline's font size: from the window height (larger on a 4K screen), never from
// Ctrl ±, so larger text never takes height from the diagram. ≈ 27 px at 1080 rows.
float ChromePx(float display_h);
// The step text and panels grow with the window too: a 4K projector gets twice the 1080p size
// (the base font × this), 0.8–3.
// A 1280×720 laptop keeps 0.95 (body ≈ 14.4 px em ≥ 14).
float WindowTextScale(float display_h);
// How much Ctrl ± enlarges the diagram's labels: the base font over its default (22 px), 0.75–2.
float TextScale(float font_px);
inline constexpr float kDefaultFontPx = 22.0f;
// Projector mode enlarges the text 1.5× (issue 29, measured in the glyphs' ink at 1920×1080): the
// step text and question in the text font (1.3 × base ≈ 29.6 px em ≥ 28), the side panel's numbers
// in the large font (1.6 × base ≈ 36.5 px em ≥ 36), nothing the step refers to in less than the
// text font. Text that no longer fits is paged (PageDown), never scrolled.
inline constexpr float kProjectorTextScale = 1.5f;

// The diagram's scale: pixels per em so that a scene of `scene_w × scene_h` em fills `box`.
float FitEm(const Box& box, float scene_w, float scene_h);

}  // namespace bw::view
