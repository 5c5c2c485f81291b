// See layout.h.
#include "view/layout.h"

#include <algorithm>

namespace bw::view {

Layout ComputeLayout(const LayoutInput& in) {
  Layout L;
  // Gaps and the diagram's share are computed from the window and a 22 px reference font only, so
  // the diagram's box is the same at any font size; a taller timeline (larger text) is taken from
  // the step text below the diagram, which scrolls.
  const float gap = std::max(4.0f, in.chrome_px * 0.35f);
  const float timeline_ref = std::min(in.height * 0.2f, in.chrome_px * 2.4f + 12.0f);
  const float timeline_h = timeline_ref;
  const float body_h = std::max(0.0f, in.height - timeline_h - gap);
  if (Portrait(in)) {
    // A phone (a student in a live class, 390 × 844): one column. The diagram takes the full width
    // (its scene is wider than tall: GiveUnusedDiagramHeight hands what it leaves to the text), the
    // step text under it, the side panel under that; a heatmap has no room beside the text.
    const float diagram_h = body_h * 0.38f;
    const float rest = std::max(0.0f, body_h - diagram_h - 2 * gap);
    const float text_h = std::max(1.0f, rest * 0.58f);
    L.diagram = {0, 0, in.width, diagram_h};
    L.text = {0, diagram_h + gap, in.width, text_h};
    L.heatmap = {0, L.text.Bottom(), 0, 0};
    L.side = in.side ? Box{0, L.text.Bottom() + gap, in.width, std::max(0.0f, body_h - L.text.Bottom() - gap)} : Box{0, body_h, in.width, 0};
    if (!in.side) L.text.h = std::max(1.0f, body_h - L.text.y);
    L.timeline = {0, body_h + gap, in.width, timeline_h};
    return L;
  }
  // The side panel is a share of the window, never of the font: at 96 px text it scrolls.
  const float side_share = in.projector ? 0.30f : (in.presenter ? 0.28f : 0.31f);
  const float side_w =
      in.side ? std::clamp(std::max(in.width * side_share, in.side_min), std::min(in.width * 0.45f, 240.0f), in.width * 0.45f) : 0.0f;
  const float left_w = std::max(0.0f, in.width - side_w - (in.side ? gap : 0.0f));
  // The projector's text is 1.5× (kProjectorTextScale): the diagram keeps the same share as on a
  // laptop, and the step text pages where it does not fit.
  const float diagram_share = 0.60f;
  const float diagram_h = std::min(body_h, (in.height - timeline_ref - gap) * diagram_share);
  L.diagram = {0, 0, left_w, diagram_h};
  const float text_y = diagram_h + gap;
  const float text_h = std::max(1.0f, body_h - text_y);
  float heat_w = 0;
  if (in.heatmap) heat_w = std::min(left_w * 0.3f, text_h * 1.2f);
  L.text = {0, text_y, std::max(0.0f, left_w - heat_w - (heat_w > 0 ? gap : 0)), text_h};
  L.heatmap = {heat_w > 0 ? left_w - heat_w : 0, text_y, heat_w, heat_w > 0 ? text_h : 0};
  L.side = {left_w + gap, 0, side_w, body_h};
  L.timeline = {0, body_h + gap, in.width, timeline_h};
  return L;
}

bool Portrait(const LayoutInput& in) { return !in.projector && in.width < in.height && in.width < 800.0f; }

void GiveUnusedDiagramHeight(Layout& L, float scene_w, float scene_h) {
  if (scene_w <= 0 || scene_h <= 0 || L.diagram.w <= 0) return;
  const float used = L.diagram.w * scene_h / scene_w;
  const float spare = L.diagram.h - used;
  if (spare < 1.0f) return;   // the scene is as tall as the box (its height sets the scale)
  L.diagram.h = used;
  L.text.y -= spare, L.text.h += spare;
  if (L.heatmap.w > 0) L.heatmap.y -= spare, L.heatmap.h += spare;
}

float ChromePx(float display_h) { return std::clamp(display_h / 40.0f, 16.0f, 56.0f); }

float WindowTextScale(float display_h) { return std::clamp(display_h / 1080.0f, 0.95f, 3.0f); }

float TextScale(float font_px) { return std::clamp(font_px / kDefaultFontPx, 0.75f, 2.0f); }

float FitEm(const Box& box, float scene_w, float scene_h) {
  if (scene_w <= 0 || scene_h <= 0) return 1;
  return std::max(1.0f, std::min(box.w / scene_w, box.h / scene_h));
}

}  // namespace bw::view
