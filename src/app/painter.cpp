// Scene → ImDrawList; see painter.h.
#include "app/painter.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <imgui_internal.h>  // ImRect

namespace bw::app {

ImU32 ToImColor(view::Color c) { return IM_COL32(c.r, c.g, c.b, c.a); }

namespace {

// The atlas font nearest in size, so scaled text stays sharp.
ImFont* FontFor(const Fonts& f, float px) {
  // The baked size nearest to px, preferring one at least as large (downscaled text stays sharp).
  ImFont* best = f.large;
  float best_px = f.large_px;
  for (const auto& [font, size] : {std::pair{f.body, f.body_px}, {f.text, f.text_px}, {f.large, f.large_px}, {f.diagram, f.diagram_px},
                                 {f.small, f.small_px}}) {
    if (!font) continue;
    const bool fits = size >= px * 0.95f, best_fits = best_px >= px * 0.95f;
    if ((fits && (!best_fits || size < best_px)) || (!fits && !best_fits && size > best_px)) best = font, best_px = size;
  }
  return best;
}

void Text(ImDrawList* dl, const Fonts& f, float px, ImVec2 pos, ImU32 col, const std::string& s) {
  dl->AddText(FontFor(f, px), px, pos, col, s.c_str());
}

ImVec2 Measure(const Fonts& f, float px, const std::string& s) {
  return FontFor(f, px)->CalcTextSizeA(px, 1e9f, 0.0f, s.c_str());
}

}  // namespace

view::PxPoint FontMetrics::Measure(float px, const std::string& text) const {
  const ImVec2 sz = app::Measure(fonts_, px, text);
  return {sz.x, sz.y};
}

namespace {

// An arrow along `pts` (pixels), its head at the last point, drawn up to `progress` (0–1) of its length.
void DrawArrow(ImDrawList* dl, std::vector<ImVec2> pts, ImU32 col, float em, float arrow_progress) {
  const float thick = std::max(2.0f, 0.2f * em);
  // While animating, the arrow grows along its path from the source (eased by the caller).
  if (arrow_progress < 1.0f) {
    float total = 0;
    for (size_t i = 1; i < pts.size(); ++i) total += std::hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
    float left = std::max(total * arrow_progress, 1.0f);
    std::vector<ImVec2> cut = {pts[0]};
    for (size_t i = 1; i < pts.size() && left > 0; ++i) {
      const float seg = std::hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
      if (seg <= left) {
        cut.push_back(pts[i]);
        left -= seg;
      } else {
        const float t = left / seg;
        cut.push_back({pts[i - 1].x + (pts[i].x - pts[i - 1].x) * t, pts[i - 1].y + (pts[i].y - pts[i - 1].y) * t});
        left = 0;
      }
    }
    pts = cut;
    if (pts.size() < 2) return;
  }
  // Stop the shaft short of the tip so the head stays sharp.
  const ImVec2 tip = pts.back(), prev = pts[pts.size() - 2];
  const float len = std::max(1e-3f, std::hypot(tip.x - prev.x, tip.y - prev.y));
  const ImVec2 dir{(tip.x - prev.x) / len, (tip.y - prev.y) / len};
  const float head = 0.75f * em;
  pts.back() = {tip.x - dir.x * head * 0.8f, tip.y - dir.y * head * 0.8f};
  dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), col, 0, thick);
  const ImVec2 n{-dir.y, dir.x};
  dl->AddTriangleFilled(tip, {tip.x - dir.x * head + n.x * head * 0.5f, tip.y - dir.y * head + n.y * head * 0.5f},
                        {tip.x - dir.x * head - n.x * head * 0.5f, tip.y - dir.y * head - n.y * head * 0.5f}, col);
}

void DashedLine(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thick, float dash) {
  const float len = std::hypot(b.x - a.x, b.y - a.y);
  if (len <= 0) return;
  const ImVec2 d{(b.x - a.x) / len, (b.y - a.y) / len};
  for (float t = 0; t < len; t += 2 * dash) {
    const float t1 = std::min(len, t + dash);
    dl->AddLine({a.x + d.x * t, a.y + d.y * t}, {a.x + d.x * t1, a.y + d.y * t1}, col, thick);
  }
}


}  // namespace

std::vector<ImRect> UncoveredParts(const ImRect& box, const std::vector<ImRect>& holes) {
  // Horizontal bands between the holes' top and bottom edges; in each band, the stretches of x that
  // no hole spanning the whole band covers. Bands with the same stretches as the one above are merged.
  std::vector<float> ys{box.Min.y, box.Max.y};
  for (const ImRect& h : holes)
    for (float y : {h.Min.y, h.Max.y})
      if (y > box.Min.y && y < box.Max.y) ys.push_back(y);
  std::sort(ys.begin(), ys.end());
  ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
  std::vector<ImRect> out;
  std::vector<std::pair<float, float>> prev;
  size_t prev_first = 0;
  for (size_t k = 0; k + 1 < ys.size(); ++k) {
    const float y0 = ys[k], y1 = ys[k + 1];
    std::vector<std::pair<float, float>> covered;
    for (const ImRect& h : holes)
      if (h.Min.y <= y0 && h.Max.y >= y1 && h.Max.x > box.Min.x && h.Min.x < box.Max.x)
        covered.emplace_back(std::max(h.Min.x, box.Min.x), std::min(h.Max.x, box.Max.x));
    std::sort(covered.begin(), covered.end());
    std::vector<std::pair<float, float>> gaps;
    float x = box.Min.x;
    for (const auto& [a, b] : covered) {
      if (a > x) gaps.emplace_back(x, a);
      x = std::max(x, b);
    }
    if (x < box.Max.x) gaps.emplace_back(x, box.Max.x);
    if (!out.empty() && gaps == prev) {  // the same stretches as the band above: make those taller
      for (size_t g = prev_first; g < out.size(); ++g) out[g].Max.y = y1;
      continue;
    }
    prev_first = out.size();
    for (const auto& [a, b] : gaps) out.emplace_back(a, y0, b, y1);
    prev = std::move(gaps);
  }
  return out;
}

void FillAround(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float rounding, std::vector<ImRect> holes) {
  // The rectangle's pixels, with its anti-aliased edge (half a pixel outside), on whole pixels; the
  // holes shrink to whole pixels inside themselves.
  const ImRect box(std::floor(a.x) - 1, std::floor(a.y) - 1, std::ceil(b.x) + 1, std::ceil(b.y) + 1);
  std::erase_if(holes, [&](ImRect& h) {
    h = ImRect(std::ceil(h.Min.x), std::ceil(h.Min.y), std::floor(h.Max.x), std::floor(h.Max.y));
    return h.Min.x >= h.Max.x || h.Min.y >= h.Max.y || !h.Overlaps(box);
  });
  if (holes.empty()) {
    dl->AddRectFilled(a, b, col, rounding);
    return;
  }
  for (const ImRect& piece : UncoveredParts(box, holes)) {
    dl->PushClipRect(piece.Min, piece.Max, true);
    dl->AddRectFilled(a, b, col, rounding);
    dl->PopClipRect();
  }
}

Painted PaintScene(ImDrawList* dl, const view::Scene& scene, ImVec2 origin, float em, const Fonts& fonts,
                   const view::Palette& pal, float arrow_progress, const std::vector<std::string>& highlight,
                   float text_scale, view::LabelFloors floors, const FillPass& fills) {
  const view::Placement placed = view::PlaceLabels(
      scene, FontMetrics(fonts), {.origin = {origin.x, origin.y}, .em = em, .text_scale = text_scale, .floors = floors, .highlight = highlight});
  return PaintScene(dl, scene, placed, fonts, pal, arrow_progress, fills);
}

Painted PaintScene(ImDrawList* dl, const view::Scene& scene, const view::Placement& placed, const Fonts& fonts,
                   const view::Palette& pal, float arrow_progress, const FillPass& fills) {
  Painted painted;
  const float em = placed.input.em;
  painted.em = em;
  const auto P = [&](float x, float y) {
    const view::PxPoint p = placed.At(x, y);
    return ImVec2(p.x, p.y);
  };
  // The placed labels of each rectangle (drawn right after its border), and the free ones (after the arrows).
  std::vector<std::vector<const view::PlacedLabel*>> rect_labels(scene.rects.size());
  std::vector<const view::PlacedLabel*> free_labels;
  for (const auto& l : placed.labels) {
    (l.rect >= 0 && l.rect < static_cast<int>(rect_labels.size()) ? rect_labels[l.rect] : free_labels).push_back(&l);
    painted.labels.push_back({l.owner, l.text, l.box.x0, l.box.y0, l.box.x1, l.box.y1, l.px, l.em});
  }
  // Fills first, in their own channel and under the flat-fill program (FillPass); hatches, borders,
  // labels and arrows after them, in the order they are painted.
  // Without a fill pass (--imgui-fills, tests without GL) everything is drawn in the scene's order and
  // each fill whole: the reference App.FlatFillsDrawTheSamePixelsAsImGuisProgram compares with.
  const bool pass = fills.begin != nullptr;
  ImDrawListSplitter layers;
  const auto to_channel = [&](int c) {
    if (pass) layers.SetCurrentChannel(dl, c);
  };
  if (pass) {
    layers.Split(dl, 2);
    layers.SetCurrentChannel(dl, 0);
    dl->AddCallback(fills.begin, fills.data);
  }
  // Where the fills queued later surely cover (Placement::covers): nothing is filled there first.
  const auto covered_after = [&](size_t first) {  // by the fills queued from rects[first] on
    std::vector<ImRect> out;
    if (!pass && first > 0) return out;
    for (size_t j = first; j < placed.covers.size(); ++j)
      if (const view::PxBox& c = placed.covers[j]; c.x1 - c.x0 > 0) out.emplace_back(c.x0, c.y0, c.x1, c.y1);
    return out;
  };
  for (const ImRect& piece : UncoveredParts(ImRect(P(0, 0), P(scene.width, scene.height)), covered_after(0)))
    dl->AddRectFilled(piece.Min, piece.Max, ToImColor(scene.background));

  for (size_t ri = 0; ri < scene.rects.size(); ++ri) {
    const auto& r = scene.rects[ri];
    const ImVec2 a = P(r.x, r.y), b = P(r.x + r.w, r.y + r.h);
    to_channel(placed.fill_in_pass[ri] ? 0 : 1);  // (Placement::fill_in_pass)
    // Tiny tiles (a 64 × 64 grid): two triangles each, no rounding or border — thousands of them
    // must stay cheap to draw, and the gaps between them already separate them.
    if (b.x - a.x < 0.8f * em || b.y - a.y < 0.8f * em) {
      dl->AddRectFilled(a, b, ToImColor(r.fill));
      painted.rects.push_back({r.id, view::ToString(r.state), a.x, a.y, b.x, b.y, r.fill, view::StateBadge(r.state)});
      continue;
    }
    FillAround(dl, a, b, ToImColor(r.fill), 0.15f * em, covered_after(ri + 1));
    to_channel(1);
    if (r.hatched) {  // diagonal hatch: the pattern that says "masked / not stored" without colour
      dl->PushClipRect(a, b, true);
      const float step = 0.6f * em;
      for (float x = a.x - (b.y - a.y); x < b.x; x += step)
        dl->AddLine({x, b.y}, {x + (b.y - a.y), a.y}, ToImColor(pal.text_muted), std::max(1.0f, 0.06f * em));
      dl->PopClipRect();
    }
    const float thick = std::max(1.0f, r.border_em * em);
    if (r.dashed) {
      const ImU32 c = ToImColor(r.border);
      DashedLine(dl, a, {b.x, a.y}, c, thick, 0.4f * em);
      DashedLine(dl, {b.x, a.y}, b, c, thick, 0.4f * em);
      DashedLine(dl, b, {a.x, b.y}, c, thick, 0.4f * em);
      DashedLine(dl, {a.x, b.y}, a, c, thick, 0.4f * em);
    } else {
      dl->AddRect(a, b, ToImColor(r.border), 0.15f * em, 0, thick);
    }
    for (const view::PlacedLabel* l : rect_labels[ri]) {
      const ImVec2 at(l->box.x0, l->box.y0);
      if (l->plate_pad >= 0)  // a light plate behind the state word keeps it legible on hatched or dark fills
        dl->AddRectFilled({at.x - l->plate_pad, at.y}, {l->box.x1 + l->plate_pad, l->box.y1}, IM_COL32(255, 255, 255, 220), 0.1f * em);
      Text(dl, fonts, l->px, at, ToImColor(pal.text), l->text);
    }
    painted.rects.push_back({r.id, view::ToString(r.state), a.x, a.y, b.x, b.y, r.fill, view::StateBadge(r.state)});
  }

  to_channel(1);

  // What the step points at: a thick outline just outside the rectangle.
  for (const auto& id : placed.input.highlight)
    if (const auto* r = scene.FindRect(id)) {
      const float pad = 0.18f * em;
      // Black outside, white inside: visible on every fill and palette, and no state's colour.
      const ImVec2 a{P(r->x, r->y).x - pad, P(r->x, r->y).y - pad}, b{P(r->x + r->w, r->y + r->h).x + pad, P(r->x + r->w, r->y + r->h).y + pad};
      dl->AddRect(a, b, IM_COL32(0, 0, 0, 255), 0.25f * em, 0, std::max(4.0f, 0.32f * em));
      dl->AddRect({a.x + 0.2f * em, a.y + 0.2f * em}, {b.x - 0.2f * em, b.y - 0.2f * em}, IM_COL32(255, 255, 255, 255), 0.2f * em, 0,
                  std::max(2.0f, 0.1f * em));
    }

  for (const auto& ar : scene.arrows) {
    if (ar.points.size() < 2) continue;
    std::vector<ImVec2> pts;
    for (const auto& p : ar.points) pts.push_back(P(p.x, p.y));
    painted.arrows.push_back({ar.id, pts, ar.color});
    DrawArrow(dl, std::move(pts), ToImColor(ar.color), em, arrow_progress);
  }
  // Free texts and arrow labels over the arrows.
  for (const view::PlacedLabel* l : free_labels) {
    ImVec2 at(l->box.x0, l->box.y0);
    if (l->spans.empty()) {
      Text(dl, fonts, l->px, at, ToImColor(l->color), l->text);
      continue;
    }
    for (const auto& sp : l->spans) {  // the spans one after another, each in its own colour
      Text(dl, fonts, l->px, at, ToImColor(sp.color), sp.text);
      at.x += Measure(fonts, l->px, sp.text).x;
    }
  }
  if (pass) {
    layers.SetCurrentChannel(dl, 0);
    dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
    layers.Merge(dl);
  }
  return painted;
}

}  // namespace bw::app
