// Scene → ImDrawList; see painter.h.
#include "app/painter.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace bw::app {

ImU32 ToImColor(view::Color c) { return IM_COL32(c.r, c.g, c.b, c.a); }

namespace {

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string line;
  while (std::getline(ss, line)) out.push_back(line);
  return out;
}

// The atlas font nearest in size, so scaled text stays sharp.
ImFont* FontFor(const Fonts& f, float px) {
  if (px <= f.body_px * 1.15f) return f.body;
  if (px <= f.text_px * 1.12f) return f.text;
  return f.large;
}

void Text(ImDrawList* dl, const Fonts& f, float px, ImVec2 pos, ImU32 col, const std::string& s) {
  dl->AddText(FontFor(f, px), px, pos, col, s.c_str());
}

ImVec2 Measure(const Fonts& f, float px, const std::string& s) {
  return FontFor(f, px)->CalcTextSizeA(px, 1e9f, 0.0f, s.c_str());
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

Painted PaintScene(ImDrawList* dl, const view::Scene& scene, ImVec2 origin, float em, const Fonts& fonts,
                   const view::Palette& pal, float arrow_progress, const std::vector<std::string>& highlight) {
  Painted painted;
  const auto P = [&](float x, float y) { return ImVec2(origin.x + x * em, origin.y + y * em); };
  dl->AddRectFilled(P(0, 0), P(scene.width, scene.height), ToImColor(scene.background));

  for (const auto& r : scene.rects) {
    const ImVec2 a = P(r.x, r.y), b = P(r.x + r.w, r.y + r.h);
    // Tiny tiles (a 64 × 64 grid): two triangles each, no rounding or border — thousands of them
    // must stay cheap to draw, and the gaps between them already separate them.
    if (b.x - a.x < 0.8f * em || b.y - a.y < 0.8f * em) {
      dl->AddRectFilled(a, b, ToImColor(r.fill));
      painted.rects.push_back({r.id, view::ToString(r.state), a.x, a.y, b.x, b.y, r.fill});
      continue;
    }
    dl->AddRectFilled(a, b, ToImColor(r.fill), 0.15f * em);
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
    // Label lines centred in the upper part; the state word along the bottom.
    const auto lines = Lines(r.label);
    float y = a.y + 0.35f * em;
    for (size_t i = 0; i < lines.size(); ++i) {
      const float px = (i == 0 ? 1.15f : 0.8f) * em;
      const ImVec2 sz = Measure(fonts, px, lines[i]);
      Text(dl, fonts, px, {std::max(a.x + 0.2f * em, (a.x + b.x - sz.x) / 2), y}, ToImColor(pal.text), lines[i]);
      y += sz.y + 0.1f * em;
    }
    if (!r.sublabel.empty()) {
      const float px = 0.85f * em;
      const ImVec2 sz = Measure(fonts, px, r.sublabel);
      const ImVec2 pos{(a.x + b.x - sz.x) / 2, b.y - sz.y - 0.3f * em};
      // A light plate behind the state word keeps it legible on hatched or dark fills.
      dl->AddRectFilled({pos.x - 0.2f * em, pos.y}, {pos.x + sz.x + 0.2f * em, pos.y + sz.y}, IM_COL32(255, 255, 255, 210),
                        0.1f * em);
      Text(dl, fonts, px, pos, ToImColor(pal.text), r.sublabel);
    }
    painted.rects.push_back({r.id, view::ToString(r.state), a.x, a.y, b.x, b.y, r.fill});
  }

  // What the step points at: a thick outline just outside the rectangle, in a colour no state uses.
  for (const auto& id : highlight)
    if (const auto* r = scene.FindRect(id)) {
      const float pad = 0.18f * em;
      dl->AddRect({P(r->x, r->y).x - pad, P(r->x, r->y).y - pad}, {P(r->x + r->w, r->y + r->h).x + pad, P(r->x + r->w, r->y + r->h).y + pad},
                  IM_COL32(142, 36, 170, 255), 0.25f * em, 0, std::max(3.0f, 0.22f * em));
    }

  for (const auto& t : scene.texts) Text(dl, fonts, t.size_em * em, P(t.x, t.y), ToImColor(t.color), t.text);

  for (const auto& ar : scene.arrows) {
    if (ar.points.size() < 2) continue;
    const ImU32 col = ToImColor(ar.color);
    const float thick = std::max(2.0f, 0.2f * em);
    std::vector<ImVec2> pts;
    for (const auto& p : ar.points) pts.push_back(P(p.x, p.y));
    painted.arrows.push_back({ar.id, pts, ar.color});
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
      if (pts.size() < 2) continue;
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
    Text(dl, fonts, 0.95f * em, P(ar.label_at.x, ar.label_at.y), col, ar.label);
  }
  return painted;
}

}  // namespace bw::app
