// Scene → ImDrawList; see painter.h.
#include "app/painter.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <imgui_internal.h>  // ImRect

namespace bw::app {

ImU32 ToImColor(view::Color c) { return IM_COL32(c.r, c.g, c.b, c.a); }

namespace {
FillPass fill_pass;  // SetFillPass
}  // namespace

void SetFillPass(FillPass pass) { fill_pass = pass; }

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

void DashedLine(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thick, float dash) {
  const float len = std::hypot(b.x - a.x, b.y - a.y);
  if (len <= 0) return;
  const ImVec2 d{(b.x - a.x) / len, (b.y - a.y) / len};
  for (float t = 0; t < len; t += 2 * dash) {
    const float t1 = std::min(len, t + dash);
    dl->AddLine({a.x + d.x * t, a.y + d.y * t}, {a.x + d.x * t1, a.y + d.y * t1}, col, thick);
  }
}


// [SECTION] Label placement -----------------------------------------------------------------------

struct Placer {
  ImRect bounds;                                    // the scene: no text outside it
  std::vector<ImRect> placed;                       // label boxes so far
  std::vector<std::pair<ImVec2, ImVec2>> segments;  // arrow shafts
  std::vector<ImRect> walls;                        // panels (rectangles holding others): a label is inside or outside, never across the border

  // `gap` (pixels): the free space kept left and right of the box, so that two texts placed on one
  // line never read as one ("l = 2u = 69/4").
  bool Free(const ImRect& box, float gap = 0) const {
    if (!bounds.Contains(box)) return false;
    const ImRect wide(box.Min.x - gap, box.Min.y, box.Max.x + gap, box.Max.y);
    for (const auto& p : placed)
      if (p.Overlaps(wide)) return false;
    for (const auto& [a, b] : segments)
      if (SegmentHitsBox(a, b, box)) return false;
    return true;
  }
  // Whether the box lies across a panel's border ("write O = u/l" was drawn across the HBM panel's edge).
  bool CrossesWall(const ImRect& box) const {
    return std::any_of(walls.begin(), walls.end(), [&](const ImRect& w) { return w.Overlaps(box) && !w.Contains(box); });
  }
  // Liang–Barsky clipping: does the segment a→b pass through the box?
  static bool SegmentHitsBox(ImVec2 a, ImVec2 b, const ImRect& r) {
    float t0 = 0, t1 = 1;
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float p[4] = {-dx, dx, -dy, dy};
    const float q[4] = {a.x - r.Min.x, r.Max.x - a.x, a.y - r.Min.y, r.Max.y - a.y};
    for (int i = 0; i < 4; ++i) {
      if (p[i] == 0) {
        if (q[i] < 0) return false;
        continue;
      }
      const float t = q[i] / p[i];
      if (p[i] < 0) t0 = std::max(t0, t);
      else t1 = std::min(t1, t);
      if (t0 > t1) return false;
    }
    return true;
  }
};

void Record(Painted& painted, Placer& placer, const std::string& owner, const std::string& text, ImVec2 pos, ImVec2 size, float px,
            const Fonts& fonts) {
  placer.placed.emplace_back(pos, ImVec2(pos.x + size.x, pos.y + size.y));
  painted.labels.push_back({owner, text, pos.x, pos.y, pos.x + size.x, pos.y + size.y, px, fonts.Em(px)});
}

// The scene's LabelFloors as font sizes (px, the line height): 0 where the scene has none.
struct Floors {
  float text_px = 0, key_px = 0;
};

// A rectangle's label lines (the first larger) and its state word with its symbol, fitted inside it.
// Layouts are tried from the fullest to the barest — every line and the word; the symbol for the
// word; the first line only; the symbol and the first line on one line; the symbol alone — and the
// first that reads at a legible size wins. `ts` is the text scale (Ctrl ±).
void FitRectLabels(ImDrawList* dl, const Fonts& fonts, const view::Palette& pal, const view::SceneRect& r, ImVec2 a, ImVec2 b,
                   float em, float ts, const Floors& floors, Placer& placer, Painted& painted) {
  const std::vector<std::string> all = Lines(r.label);
  const std::string badge = view::StateBadge(r.state);
  const std::string word = badge.empty() ? r.sublabel : r.sublabel.empty() ? badge : badge + " " + r.sublabel;
  const std::vector<std::string> first = all.empty() ? all : std::vector<std::string>{all[0]};
  struct Option {
    std::vector<std::string> lines;
    std::string sub;
    bool key = true;   // key lines at the key floor (else at the text floor)
  };
  std::vector<Option> options;
  for (const bool key : {true, false}) {
    if (!key && !(r.key_lines && floors.key_px > floors.text_px)) break;
    options.push_back({all, word, key});
    options.push_back({all, badge, key});
    // The symbol on the first line ("✓ K/V 1"): a tall label keeps its lines and its state.
    if (!badge.empty() && all.size() > 1) {
      std::vector<std::string> marked = all;
      marked[0] = badge + " " + marked[0];
      options.push_back({marked, "", key});
    }
  }
  options.push_back({first, word});
  options.push_back({first, badge});
  if (!badge.empty() && !first.empty()) options.push_back({{}, badge + " " + first[0]});
  options.push_back({{}, badge});
  // Kept off the side borders: half a border's stroke lies inside the rectangle (a thick border ate
  // the whole margin, and "O = 25/6 ≈ 4.167" touched it).
  const float pad = 0.15f * em, pad_x = pad + 0.5f * std::max(1.0f, r.border_em * em), gap = 0.1f * em;
  const float avail_w = b.x - a.x - 2 * pad_x, avail_h = b.y - a.y - 2 * pad;
  const float min_px = std::max(9.0f, 0.45f * em);  // smaller than this nobody reads it
  for (const Option& o : options) {
    if (o.lines.empty() && o.sub.empty()) continue;
    // Requested sizes are k · em · ts, raised to the floors; `fit` shrinks them into the rectangle,
    // and a layout that would go below a floor is passed over.
    const auto least = [&](size_t i) { return i == 0 || !r.key_lines || !o.key ? floors.text_px : floors.key_px; };
    const auto want = [&](size_t i) { return std::max((i == 0 ? 1.15f : 0.8f) * em * ts, least(i)); };
    const float sub_want = std::max(0.85f * em * ts, floors.text_px);
    float w = 0, h = 0;
    for (size_t i = 0; i < o.lines.size(); ++i) {
      const ImVec2 sz = Measure(fonts, want(i), o.lines[i]);
      w = std::max(w, sz.x);
      h += sz.y + gap * ts;
    }
    if (!o.sub.empty()) {
      const ImVec2 sz = Measure(fonts, sub_want, o.sub);
      w = std::max(w, sz.x + 0.4f * em * ts);
      h += sz.y;
    }
    const float fit = std::min({1.0f, avail_w / std::max(w, 1.0f), avail_h / std::max(h, 1.0f)});
    const float scale = ts * fit;
    // Each piece's size: one `fit` for all without floors; with them, each line fitted to the width on
    // its own and the height shared among the pieces still above their floor (a title may shrink to
    // the floor so that the state word under it keeps its own).
    const size_t n = o.lines.size();
    std::vector<float> px(n + (o.sub.empty() ? 0 : 1)), lo(px.size());
    for (size_t i = 0; i < n; ++i) px[i] = want(i) * fit, lo[i] = std::max(min_px, least(i));
    if (!o.sub.empty()) px[n] = sub_want * fit, lo[n] = std::max(min_px, floors.text_px);
    // (A gap under each line but the last; the last's too when a state word follows it.)
    const float gaps = gap * ts * static_cast<float>(o.sub.empty() && n > 0 ? n - 1 : n);
    if (floors.text_px > 0) {
      for (size_t i = 0; i < px.size(); ++i) {
        const bool sub = i == n;
        const float wi = Measure(fonts, sub ? sub_want : want(i), sub ? o.sub : o.lines[i]).x + (sub ? 0.4f * em * ts : 0.0f);
        px[i] = (sub ? sub_want : want(i)) * std::min(1.0f, avail_w / std::max(wi, 1.0f));
      }
      for (int pass = 0; pass < 3; ++pass) {
        float total = gaps, shrinkable = 0;
        for (size_t i = 0; i < px.size(); ++i) (px[i] > lo[i] + 0.01f ? shrinkable : total) += px[i];
        if (total + shrinkable <= avail_h || shrinkable <= 0) break;
        const float g = std::max(0.0f, (avail_h - total) / shrinkable);
        for (size_t i = 0; i < px.size(); ++i)
          if (px[i] > lo[i] + 0.01f) px[i] = std::max(lo[i], px[i] * g);
      }
    }
    float height = gaps;
    bool legible = true;
    for (size_t i = 0; i < px.size(); ++i) height += px[i], legible &= px[i] >= lo[i] - 0.01f;
    if (!legible || (floors.text_px > 0 && height > avail_h + 0.5f)) continue;
    // Where each piece goes: label lines from the top, the state word at the bottom (centred when
    // it stands alone). A layout that would cover another rectangle's label is passed over.
    struct Piece {
      std::string owner, text;
      float px;
      ImVec2 pos, size;
    };
    std::vector<Piece> pieces;
    float y = a.y + pad;
    for (size_t i = 0; i < n; ++i) {
      const ImVec2 sz = Measure(fonts, px[i], o.lines[i]);
      pieces.push_back({"rect:" + r.id, o.lines[i], px[i], {(a.x + b.x - sz.x) / 2, y}, sz});
      y += sz.y + gap * (floors.text_px > 0 ? ts : scale);
    }
    if (!o.sub.empty()) {
      const ImVec2 sz = Measure(fonts, px[n], o.sub);
      const float top = o.lines.empty() ? (a.y + b.y - sz.y) / 2 : b.y - pad - sz.y;
      pieces.push_back({"sublabel:" + r.id, o.sub, px[n], {(a.x + b.x - sz.x) / 2, top}, sz});
    }
    bool clear = true;
    for (const auto& pc : pieces)
      for (const auto& other : placer.placed)
        clear &= !other.Overlaps(ImRect(pc.pos, ImVec2(pc.pos.x + pc.size.x, pc.pos.y + pc.size.y)));
    if (!clear) continue;
    for (const auto& pc : pieces) {
      if (pc.owner[0] == 's')  // a light plate behind the state word keeps it legible on hatched or dark fills
        dl->AddRectFilled({pc.pos.x - 0.2f * em * scale, pc.pos.y}, {pc.pos.x + pc.size.x + 0.2f * em * scale, pc.pos.y + pc.size.y},
                          IM_COL32(255, 255, 255, 220), 0.1f * em);
      Text(dl, fonts, pc.px, pc.pos, ToImColor(pal.text), pc.text);
      Record(painted, placer, pc.owner, pc.text, pc.pos, pc.size, pc.px, fonts);
    }
    return;
  }
}

// A free text (a title, an arrow's label) at `want`, or the nearest free place around it: up or
// down by half lines, then left or right; shrunk a step at a time when nothing is free. Queued in
// `out` (drawn after the arrows); false when no free place was found.
struct Deferred {
  float px;
  ImVec2 pos;
  ImU32 col;
  std::string text;
  const std::vector<view::TextSpan>* spans = nullptr;  // coloured pieces of `text` (an equation)
};

// How PlaceFree may place a text besides its size and its rectangle.
struct PlaceHow {
  const std::vector<view::TextSpan>* spans = nullptr;  // coloured pieces of the text, or none
  bool fallback = true;       // when nowhere is free: draw it where the scene asked (else return false)
  float gap_em = 0;           // free space kept left and right, in multiples of its size
  bool keep_x = false;        // a row of a column: tried only where the scene put it
  const std::vector<ImRect>* avoid = nullptr;  // rectangles it must not overlap (tiles)
  float min_px = 0;           // shrinking (`shrink`) stops before this size
};

// `within` is the rectangle the text belongs to (the accumulator box for "u = …"): it is never placed
// outside it. With `shrink` false the text keeps its size (the caller then tries every text a step
// smaller, so texts that belong together keep one size).
bool PlaceFree(std::vector<Deferred>& out, const Fonts& fonts, float px, ImVec2 want, ImU32 col, const std::string& text,
               const std::string& owner, float em, Placer& placer, Painted& painted, const ImRect& within, bool shrink,
               const PlaceHow& how = {}) {
  const auto* spans = how.spans;
  const bool keep_x = how.keep_x;
  const auto* avoid = how.avoid;
  if (text.empty()) return true;
  // Enlarged by Ctrl ±, a text first tries its enlarged size, then steps back towards (and below)
  // the size the scene was laid out for.
  for (float scale : {1.0f, 0.85f, 0.72f, 0.6f, 0.5f, 0.42f, 0.36f}) {
    if (scale < 1.0f && !shrink) return false;
    if (px * scale < std::max(9.0f, 0.45f * em)) break;  // below that nobody reads it
    if (scale < 1.0f && px * scale < how.min_px) break;
    const float size_px = px * scale;
    const ImVec2 sz = Measure(fonts, size_px, text);
    // Inside its rectangle horizontally whatever the candidate.
    const auto clamp_x = [&](float x) { return std::clamp(x, within.Min.x, std::max(within.Min.x, within.Max.x - sz.x)); };
    std::vector<ImVec2> candidates = {{clamp_x(want.x), want.y}};
    for (int k = 1; k <= 8 && !keep_x; ++k) {
      const float dy = 0.5f * sz.y * static_cast<float>(k);
      candidates.push_back({clamp_x(want.x), want.y + dy});
      candidates.push_back({clamp_x(want.x), want.y - dy});
    }
    for (int k = 1; k <= 6 && !keep_x; ++k) {
      const float dx = 1.0f * em * static_cast<float>(k);
      candidates.push_back({clamp_x(want.x + dx), want.y});
      candidates.push_back({clamp_x(want.x - dx), want.y});
    }
    const auto place_at = [&](const ImVec2& c) {
      const ImRect box(c, ImVec2(c.x + sz.x, c.y + sz.y));
      if (!within.Contains(box) || !placer.Free(box, how.gap_em * size_px)) return false;
      // Tried first (with tiles to avoid): off the tiles.
      if (avoid && std::any_of(avoid->begin(), avoid->end(), [&](const ImRect& r) { return r.Overlaps(box); })) return false;
      // Never across a panel's border (a helper saw "write L_1 (2 elements)" cut by the HBM panel's
      // edge); the fallback below is the only exception.
      if (placer.CrossesWall(box)) return false;
      out.push_back({size_px, c, col, text, spans});
      Record(painted, placer, owner, text, c, sz, size_px, fonts);
      return true;
    };
    if (std::any_of(candidates.begin(), candidates.end(), place_at)) return true;
    // Then both ways at once, nearest first (the offsets' order is fixed: sorted once): a corner
    // beside a tile (an enlarged "write O = u/l" finds room left of the O tile when the row under it
    // is full).
    static const std::vector<std::pair<int, int>> kDiagonal = [] {
      std::vector<std::pair<int, int>> d;  // (columns of 1 em, rows of half a line), both signs
      for (int kx = 1; kx <= 6; ++kx)
        for (int ky = 1; ky <= 8; ++ky)
          for (const int sx : {-1, 1})
            for (const int sy : {-1, 1}) d.emplace_back(sx * kx, sy * ky);
      std::stable_sort(d.begin(), d.end(), [](const auto& a, const auto& b) {
        return a.first * a.first + 0.25 * a.second * a.second < b.first * b.first + 0.25 * b.second * b.second;
      });
      return d;
    }();
    if (!keep_x)
      for (const auto& [kx, ky] : kDiagonal)
        if (place_at({clamp_x(want.x + em * static_cast<float>(kx)), want.y + 0.5f * sz.y * static_cast<float>(ky)})) return true;
  }
  if (!how.fallback) return false;   // the caller tries a wider rectangle
  // Nowhere free: drawn where the scene asked at the smallest legible size, and recorded, so the
  // geometry test names it.
  const float small = std::max({std::max(9.0f, 0.45f * em), px * 0.36f, how.min_px});
  const ImVec2 sz = Measure(fonts, std::min(px, small), text);
  out.push_back({std::min(px, small), want, col, text, spans});
  Record(painted, placer, owner, text, want, sz, std::min(px, small), fonts);
  return false;
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
                   float text_scale, view::LabelFloors label_floors) {
  Painted painted;
  painted.em = em;
  // The floors as font sizes, for a scene laid out for them only (Scene::floors).
  const Floors floors = scene.floors ? Floors{label_floors.text / fonts.em_ratio, label_floors.key / fonts.em_ratio} : Floors{};
  const auto P = [&](float x, float y) { return ImVec2(origin.x + x * em, origin.y + y * em); };
  Placer placer;
  placer.bounds = ImRect(P(0, 0), P(scene.width, scene.height));
  // Fills first, in their own channel and under the flat-fill program (FillPass); hatches, borders,
  // labels and arrows after them, in the order they are painted.
  // Without a fill pass (--imgui-fills, tests without GL) everything is drawn in the scene's order and
  // each fill whole: the reference App.FlatFillsDrawTheSamePixelsAsImGuisProgram compares with.
  const bool pass = fill_pass.begin != nullptr;
  ImDrawListSplitter layers;
  const auto to_channel = [&](int c) {
    if (pass) layers.SetCurrentChannel(dl, c);
  };
  if (pass) {
    layers.Split(dl, 2);
    layers.SetCurrentChannel(dl, 0);
    dl->AddCallback(fill_pass.begin, fill_pass.data);
  }
  // Where each opaque rectangle's fill surely covers: inside it by its corner radius plus the
  // anti-aliased edge. Nothing queued earlier is filled there (issue 16: with software GL every
  // covered pixel costs a texture fetch and a blend; the scene's background and the HBM and SRAM
  // panels under their tiles were half of a frame's fill), so the picture is the same pixel for pixel.
  std::vector<ImRect> covers(scene.rects.size());  // empty where a fill covers nothing surely
  const float margin = 0.15f * em + 2.0f;
  for (size_t i = 0; i < scene.rects.size(); ++i) {
    const auto& r = scene.rects[i];
    if (r.fill.a < 255 || r.w * em < 4 * margin || r.h * em < 4 * margin) continue;
    covers[i] = ImRect(P(r.x, r.y).x + margin, P(r.x, r.y).y + margin, P(r.x + r.w, r.y + r.h).x - margin, P(r.x + r.w, r.y + r.h).y - margin);
  }
  const auto covered_after = [&](size_t first) {  // by the fills queued from rects[first] on
    std::vector<ImRect> out;
    if (!pass && first > 0) return out;
    for (size_t j = first; j < covers.size(); ++j)
      if (covers[j].GetWidth() > 0) out.push_back(covers[j]);
    return out;
  };
  for (const ImRect& piece : UncoveredParts(ImRect(P(0, 0), P(scene.width, scene.height)), covered_after(0)))
    dl->AddRectFilled(piece.Min, piece.Max, ToImColor(scene.background));

  // A rectangle that holds others (an expert box with its token slots) keeps its label above the
  // first of them. Only rectangles large enough to carry text count (a 64 × 64 grid has none).
  const auto big = [&](const view::SceneRect& r) { return r.w >= 0.8f && r.h >= 0.8f; };
  std::vector<float> label_bottom(scene.rects.size());
  for (size_t i = 0; i < scene.rects.size(); ++i) {
    const auto& r = scene.rects[i];
    label_bottom[i] = r.y + r.h;
    if (!big(r)) continue;
    for (const auto& c : scene.rects)
      if (&c != &r && big(c) && c.x >= r.x && c.y > r.y && c.x + c.w <= r.x + r.w && c.y + c.h <= r.y + r.h)
        label_bottom[i] = std::min(label_bottom[i], c.y);
    // … and above the texts laid out inside it (the accumulator's m, l, u rows): Ctrl + never grows
    // a title into them.
    for (const auto& t : scene.texts)
      if (t.x >= r.x && t.x < r.x + r.w && t.y >= r.y + 1.0f && t.y < r.y + r.h) label_bottom[i] = std::min(label_bottom[i], t.y);
  }
  // A fill joins the fills' pass only where that changes no pixel: everything an earlier rectangle
  // draws besides its fill (border, hatch, labels) comes after the pass, so the fill must lie inside
  // each earlier outlined rectangle it touches — off its border and rounded corners, below its
  // labels, not on a hatch — and off every fill already drawn in order. Otherwise it is drawn in
  // order (MOE/e4's red capacity line across the expert boxes' borders).
  std::vector<size_t> outlined;  // rectangles so far with a border and labels
  std::vector<ImRect> in_order;  // fills drawn in order so far (with their anti-aliased edge)
  const auto in_fill_pass = [&](ImVec2 a, ImVec2 b) {
    // Bounded work per frame: past 64 fills in order (never so far: MASK has 34), the rest follow
    // them in order too — always the same picture, only without the cheaper shader.
    if (in_order.size() >= 64) return false;
    const ImRect box(a.x - 1, a.y - 1, b.x + 1, b.y + 1);
    for (const ImRect& o : in_order)
      if (o.Overlaps(box)) return false;
    for (size_t i : outlined) {
      const auto& o = scene.rects[i];
      // Its border is stroked on its edge: half the stroke and the anti-aliased pixel lie outside
      // (BWD/r2: dK_2's fill, 1.6 px below dK_1, touched dK_1's border).
      const float stroke = std::max(1.0f, o.border_em * em), out = stroke / 2 + 1.0f;
      const ImRect outer(P(o.x, o.y).x - out, P(o.x, o.y).y - out, P(o.x + o.w, o.y + o.h).x + out, P(o.x + o.w, o.y + o.h).y + out);
      if (!outer.Overlaps(box)) continue;
      const float inset = stroke + 1.0f + 0.05f * em;  // 0.05 em: the corners' arcs
      const ImRect inner(P(o.x, o.y).x + inset, std::max(P(o.x, o.y).y + inset, P(0, label_bottom[i]).y), P(o.x + o.w, o.y + o.h).x - inset,
                         P(o.x + o.w, o.y + o.h).y - inset);
      if (o.hatched || !inner.Contains(box)) return false;
    }
    return true;
  };
  for (size_t ri = 0; ri < scene.rects.size(); ++ri) {
    const auto& r = scene.rects[ri];
    const ImVec2 a = P(r.x, r.y), b = P(r.x + r.w, r.y + r.h);
    if (in_fill_pass(a, b)) {
      to_channel(0);
    } else {
      to_channel(1);
      in_order.emplace_back(a.x - 1, a.y - 1, b.x + 1, b.y + 1);
    }
    // Tiny tiles (a 64 × 64 grid): two triangles each, no rounding or border — thousands of them
    // must stay cheap to draw, and the gaps between them already separate them.
    if (b.x - a.x < 0.8f * em || b.y - a.y < 0.8f * em) {
      dl->AddRectFilled(a, b, ToImColor(r.fill));
      painted.rects.push_back({r.id, view::ToString(r.state), a.x, a.y, b.x, b.y, r.fill, view::StateBadge(r.state)});
      continue;
    }
    FillAround(dl, a, b, ToImColor(r.fill), 0.15f * em, covered_after(ri + 1));
    to_channel(1);
    outlined.push_back(ri);
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
    FitRectLabels(dl, fonts, pal, r, a, {b.x, P(0, label_bottom[ri]).y}, em, text_scale, floors, placer, painted);
    painted.rects.push_back({r.id, view::ToString(r.state), a.x, a.y, b.x, b.y, r.fill, view::StateBadge(r.state)});
  }

  to_channel(1);

  // What the step points at: a thick outline just outside the rectangle.
  for (const auto& id : highlight)
    if (const auto* r = scene.FindRect(id)) {
      const float pad = 0.18f * em;
      // Black outside, white inside: visible on every fill and palette, and no state's colour.
      const ImVec2 a{P(r->x, r->y).x - pad, P(r->x, r->y).y - pad}, b{P(r->x + r->w, r->y + r->h).x + pad, P(r->x + r->w, r->y + r->h).y + pad};
      dl->AddRect(a, b, IM_COL32(0, 0, 0, 255), 0.25f * em, 0, std::max(4.0f, 0.32f * em));
      dl->AddRect({a.x + 0.2f * em, a.y + 0.2f * em}, {b.x - 0.2f * em, b.y - 0.2f * em}, IM_COL32(255, 255, 255, 255), 0.2f * em, 0,
                  std::max(2.0f, 0.1f * em));
    }

  // Arrow shafts are obstacles for every free label.
  for (const auto& ar : scene.arrows)
    for (size_t i = 1; i < ar.points.size(); ++i)
      placer.segments.push_back({P(ar.points[i - 1].x, ar.points[i - 1].y), P(ar.points[i].x, ar.points[i].y)});
  // Free texts and arrow labels at the Ctrl ± size; when one finds no free place, all of them are
  // placed again a step smaller, down to the size the scene was laid out for.
  // Tiles: labelled rectangles that hold no other; the others are panels (the HBM panel), whose
  // borders labels keep off (placer.walls).
  std::vector<ImRect> tiles;
  for (const auto& r : scene.rects) {
    if (!big(r)) continue;
    bool holds = false;
    for (const auto& c : scene.rects)
      holds |= &c != &r && big(c) && c.x >= r.x && c.y >= r.y && c.x + c.w <= r.x + r.w && c.y + c.h <= r.y + r.h;
    // A highlighted tile's outline reaches 0.34 em outside it (drawn below): labels keep off that too
    // (the "l" of "write O = u/l" ran into the O tile's outline, a helper).
    const float out = !holds && std::find(highlight.begin(), highlight.end(), r.id) != highlight.end() ? 0.35f * em : 0.0f;
    (holds ? placer.walls : tiles).push_back(ImRect(P(r.x, r.y).x - out, P(r.x, r.y).y - out, P(r.x + r.w, r.y + r.h).x + out, P(r.x + r.w, r.y + r.h).y + out));
  }
  const Placer after_rects = placer;
  const size_t rect_labels = painted.labels.size();
  std::vector<Deferred> deferred;
  // A text or arrow label whose anchor lies in a rectangle that carries labels stays inside the
  // smallest such rectangle (a panel's border never strikes through it); others stay inside the scene.
  const auto within_of = [&](float x, float y) {
    ImRect in = placer.bounds;
    float area = 1e30f;
    for (const auto& r : scene.rects)
      if (big(r) && x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h && r.w * r.h < area) {
        area = r.w * r.h;
        // Inside its border's stroke: a label ending on the border had its last glyph struck through
        // (a helper saw "write L_3 (2 elements)" touch the HBM panel's edge).
        const float inset = 0.2f * em;
        in = ImRect(P(r.x, r.y).x + inset, P(r.x, r.y).y + inset, P(r.x + r.w, r.y + r.h).x - inset, P(r.x + r.w, r.y + r.h).y - inset);
      }
    return in;
  };
  std::vector<ImRect> within, arrow_within;
  for (const auto& t : scene.texts) within.push_back(within_of(t.x, t.y));
  for (const auto& ar : scene.arrows) arrow_within.push_back(within_of(ar.label_at.x, ar.label_at.y));
  // Free texts and arrow labels at the Ctrl ± size. An arrow's label that belongs inside a rectangle
  // stays there when enlarged, a step smaller when it must, down to the size the scene was laid out
  // for; only when even that finds no room may it leave (a helper saw "write O = u/l" leave for a free
  // place below the diagram at Ctrl + five times, though it fitted at home a little smaller).
  for (float ts = text_scale;; ts = std::max(1.0f, ts * 0.85f)) {
    placer = after_rects;
    painted.labels.resize(rect_labels);
    deferred.clear();
    // Enlarged texts keep one size: when one finds no place, all are tried a step smaller; at the
    // size the scene was laid out for, a text may shrink on its own.
    const bool last = ts <= 1.0f;
    bool all = true;
    for (size_t ti = 0; ti < scene.texts.size() && (all || last); ++ti) {
      const auto& t = scene.texts[ti];
      const float grow = t.max_grow > 0 ? std::min(ts, std::max(t.max_grow, 1.0f)) : ts;
      const float least = t.key ? std::max(floors.key_px, floors.text_px) : floors.text_px;
      all &= PlaceFree(deferred, fonts, std::max(t.size_em * em * grow, least), P(t.x, t.y), ToImColor(t.color), t.text, "text:" + t.id, em,
                       placer, painted, within[ti], last,
                       {.spans = t.spans.empty() ? nullptr : &t.spans, .gap_em = 0.5f, .keep_x = t.max_grow > 0, .min_px = floors.text_px});
    }
    for (size_t ai = 0; ai < scene.arrows.size(); ++ai) {
      const auto& ar = scene.arrows[ai];
      if (ar.label.empty() || !(all || last)) continue;
      // Inside the rectangle its anchor lies in where it finds room, else anywhere in the scene; off
      // the tiles first (a red "write" label on the red written tile cannot be read); half its size
      // clear of other texts left and right (run on from the legend, it read as part of it).
      const auto place = [&](const ImRect& in, bool shrink, bool fallback, const std::vector<ImRect>* avoid, float min_px) {
        return PlaceFree(deferred, fonts, std::max(0.95f * em * ts, floors.text_px), P(ar.label_at.x, ar.label_at.y), ToImColor(ar.color),
                         ar.label, "arrow:" + ar.id, em, placer, painted, in, shrink,
                         {.fallback = fallback, .gap_em = 0.5f, .avoid = avoid, .min_px = std::max(min_px, floors.text_px)});
      };
      const ImRect& in = arrow_within[ai];
      const bool inner = in.Min.x != placer.bounds.Min.x || in.Min.y != placer.bounds.Min.y || in.Max.x != placer.bounds.Max.x ||
                         in.Max.y != placer.bounds.Max.y;
      if (inner && !last && place(in, true, false, &tiles, 0.95f * em * 0.999f)) continue;
      all &= (inner && place(in, last, false, &tiles, 0)) || place(placer.bounds, last, false, &tiles, 0) ||
             (inner && place(in, last, false, nullptr, 0)) || place(placer.bounds, last, true, nullptr, 0);
    }
    if (all || last) break;
  }

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

  }
  for (const auto& d : deferred) {
    if (!d.spans) {
      Text(dl, fonts, d.px, d.pos, d.col, d.text);
      continue;
    }
    ImVec2 at = d.pos;  // the spans one after another, each in its own colour
    for (const auto& sp : *d.spans) {
      Text(dl, fonts, d.px, at, ToImColor(sp.color), sp.text);
      at.x += Measure(fonts, d.px, sp.text).x;
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
