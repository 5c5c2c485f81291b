// Label placement before painting; see placement.h. (Moved from the painter, issue 35 item 3: the
// arithmetic is the painter's, step for step, so that every label lands on the same pixel.)
#include "view/placement.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace bw::view {

std::vector<const PlacedLabel*> Placement::LabelsOf(int rect) const {
  std::vector<const PlacedLabel*> out;
  for (const auto& l : labels)
    if (l.rect == rect) out.push_back(&l);
  return out;
}

const PlacedLabel* Placement::Find(const std::string& owner) const {
  for (const auto& l : labels)
    if (l.owner == owner) return &l;
  return nullptr;
}

bool SegmentHitsBox(PxPoint a, PxPoint b, const PxBox& r) {
  float t0 = 0, t1 = 1;
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float p[4] = {-dx, dx, -dy, dy};
  const float q[4] = {a.x - r.x0, r.x1 - a.x, a.y - r.y0, r.y1 - a.y};
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

namespace {

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string line;
  while (std::getline(ss, line)) out.push_back(line);
  return out;
}

PxBox Box(PxPoint a, PxPoint b) { return {a.x, a.y, b.x, b.y}; }

struct Placer {
  Placer(const TextMetrics& m, std::vector<PlacedLabel>& l, PxBox b) : metrics(m), labels(l), bounds(b) {}
  const TextMetrics& metrics;
  std::vector<PlacedLabel>& labels;
  PxBox bounds;                                       // the scene: no text outside it
  std::vector<PxBox> placed;                          // label boxes so far
  std::vector<std::pair<PxPoint, PxPoint>> segments;  // arrow shafts
  std::vector<PxBox> walls;                           // panels (rectangles holding others): a label is inside or outside, never across the border

  // `gap` (pixels): the free space kept left and right of the box, so that two texts placed on one
  // line never read as one ("l = 2u = 69/4").
  bool Free(const PxBox& box, float gap = 0) const {
    if (!bounds.Contains(box)) return false;
    const PxBox wide{box.x0 - gap, box.y0, box.x1 + gap, box.y1};
    for (const auto& p : placed)
      if (p.Overlaps(wide)) return false;
    for (const auto& [a, b] : segments)
      if (SegmentHitsBox(a, b, box)) return false;
    return true;
  }
  // Whether the box lies across a panel's border ("write O = u/l" was drawn across the HBM panel's edge).
  bool CrossesWall(const PxBox& box) const {
    return std::any_of(walls.begin(), walls.end(), [&](const PxBox& w) { return w.Overlaps(box) && !w.Contains(box); });
  }
  PxPoint Measure(float px, const std::string& s) const { return metrics.Measure(px, s); }
  void Record(PlacedLabel l, PxPoint pos, PxPoint size) {
    l.box = {pos.x, pos.y, pos.x + size.x, pos.y + size.y};
    l.em = l.px * metrics.EmRatio();
    placed.push_back(l.box);
    labels.push_back(std::move(l));
  }
};

// The scene's LabelFloors as font sizes (px, the line height): 0 where the scene has none.
struct Floors {
  float text_px = 0, key_px = 0;
};

// A rectangle's label lines (the first larger) and its state word with its symbol, fitted inside it.
// Layouts are tried from the fullest to the barest — every line and the word; the symbol for the
// word; the first line only; the symbol and the first line on one line; the symbol alone — and the
// first that reads at a legible size wins. `ts` is the text scale (Ctrl ±).
void FitRectLabels(const SceneRect& r, int index, PxPoint a, PxPoint b, float em, float ts, const Floors& floors, Placer& placer) {
  const std::vector<std::string> all = Lines(r.label);
  const std::string badge = StateBadge(r.state);
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
      const PxPoint sz = placer.Measure(want(i), o.lines[i]);
      w = std::max(w, sz.x);
      h += sz.y + gap * ts;
    }
    if (!o.sub.empty()) {
      const PxPoint sz = placer.Measure(sub_want, o.sub);
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
        const float wi = placer.Measure(sub ? sub_want : want(i), sub ? o.sub : o.lines[i]).x + (sub ? 0.4f * em * ts : 0.0f);
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
      PxPoint pos, size;
    };
    std::vector<Piece> pieces;
    float y = a.y + pad;
    for (size_t i = 0; i < n; ++i) {
      const PxPoint sz = placer.Measure(px[i], o.lines[i]);
      pieces.push_back({"rect:" + r.id, o.lines[i], px[i], {(a.x + b.x - sz.x) / 2, y}, sz});
      y += sz.y + gap * (floors.text_px > 0 ? ts : scale);
    }
    if (!o.sub.empty()) {
      const PxPoint sz = placer.Measure(px[n], o.sub);
      const float top = o.lines.empty() ? (a.y + b.y - sz.y) / 2 : b.y - pad - sz.y;
      pieces.push_back({"sublabel:" + r.id, o.sub, px[n], {(a.x + b.x - sz.x) / 2, top}, sz});
    }
    bool clear = true;
    for (const auto& pc : pieces)
      for (const auto& other : placer.placed) clear &= !other.Overlaps({pc.pos.x, pc.pos.y, pc.pos.x + pc.size.x, pc.pos.y + pc.size.y});
    if (!clear) continue;
    for (const auto& pc : pieces) {
      PlacedLabel l{.owner = pc.owner, .text = pc.text, .px = pc.px, .rect = index};
      // A light plate behind the state word keeps it legible on hatched or dark fills.
      if (pc.owner[0] == 's') l.plate_pad = 0.2f * em * scale;
      placer.Record(std::move(l), pc.pos, pc.size);
    }
    return;
  }
}

// How PlaceFree may place a text besides its size and its rectangle.
struct PlaceHow {
  const std::vector<TextSpan>* spans = nullptr;  // coloured pieces of the text, or none
  bool fallback = true;       // when nowhere is free: place it where the scene asked (else return false)
  float gap_em = 0;           // free space kept left and right, in multiples of its size
  bool keep_x = false;        // a row of a column: tried only where the scene put it
  const std::vector<PxBox>* avoid = nullptr;  // rectangles it must not overlap (tiles)
  float min_px = 0;           // shrinking (`shrink`) stops before this size
};

// A free text (a title, an arrow's label) at `want`, or the nearest free place around it: up or
// down by half lines, then left or right; shrunk a step at a time when nothing is free; false when no
// free place was found. `within` is the rectangle the text belongs to (the accumulator box for
// "u = …"): it is never placed outside it. With `shrink` false the text keeps its size (the caller
// then tries every text a step smaller, so texts that belong together keep one size).
bool PlaceFree(float px, PxPoint want, Color col, const std::string& text, const std::string& owner, float em, Placer& placer,
               const PxBox& within, bool shrink, const PlaceHow& how = {}) {
  const bool keep_x = how.keep_x;
  const auto* avoid = how.avoid;
  if (text.empty()) return true;
  const auto record = [&](float size_px, PxPoint at, PxPoint sz) {
    PlacedLabel l{.owner = owner, .text = text, .px = size_px, .color = col};
    if (how.spans) l.spans = *how.spans;
    placer.Record(std::move(l), at, sz);
  };
  // Enlarged by Ctrl ±, a text first tries its enlarged size, then steps back towards (and below)
  // the size the scene was laid out for.
  for (float scale : {1.0f, 0.85f, 0.72f, 0.6f, 0.5f, 0.42f, 0.36f}) {
    if (scale < 1.0f && !shrink) return false;
    if (px * scale < std::max(9.0f, 0.45f * em)) break;  // below that nobody reads it
    if (scale < 1.0f && px * scale < how.min_px) break;
    const float size_px = px * scale;
    const PxPoint sz = placer.Measure(size_px, text);
    // Inside its rectangle horizontally whatever the candidate.
    const auto clamp_x = [&](float x) { return std::clamp(x, within.x0, std::max(within.x0, within.x1 - sz.x)); };
    std::vector<PxPoint> candidates = {{clamp_x(want.x), want.y}};
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
    const auto place_at = [&](const PxPoint& c) {
      const PxBox box{c.x, c.y, c.x + sz.x, c.y + sz.y};
      if (!within.Contains(box) || !placer.Free(box, how.gap_em * size_px)) return false;
      // Tried first (with tiles to avoid): off the tiles.
      if (avoid && std::any_of(avoid->begin(), avoid->end(), [&](const PxBox& r) { return r.Overlaps(box); })) return false;
      // Never across a panel's border (a helper saw "write L_1 (2 elements)" cut by the HBM panel's
      // edge); the fallback below is the only exception.
      if (placer.CrossesWall(box)) return false;
      record(size_px, c, sz);
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
  // Nowhere free: placed where the scene asked at the smallest legible size, and recorded, so the
  // geometry test names it.
  const float small = std::max({std::max(9.0f, 0.45f * em), px * 0.36f, how.min_px});
  record(std::min(px, small), want, placer.Measure(std::min(px, small), text));
  return false;
}

// Placement::covers and fill_in_pass (needs label_bottom).
void FindOcclusion(const Scene& scene, Placement& out) {
  const float em = out.input.em;
  const auto P = [&](float x, float y) { return out.At(x, y); };
  // Where each opaque rectangle's fill surely covers: inside it by its corner radius plus the
  // anti-aliased edge. Nothing queued earlier is filled there (issue 16: with software GL every
  // covered pixel costs a texture fetch and a blend; the scene's background and the HBM and SRAM
  // panels under their tiles were half of a frame's fill), so the picture is the same pixel for pixel.
  out.covers.assign(scene.rects.size(), PxBox{});
  const float margin = 0.15f * em + 2.0f;
  for (size_t i = 0; i < scene.rects.size(); ++i) {
    const auto& r = scene.rects[i];
    if (r.fill.a < 255 || r.w * em < 4 * margin || r.h * em < 4 * margin) continue;
    out.covers[i] = {P(r.x, r.y).x + margin, P(r.x, r.y).y + margin, P(r.x + r.w, r.y + r.h).x - margin, P(r.x + r.w, r.y + r.h).y - margin};
  }
  // A fill joins the fills' pass only where that changes no pixel: everything an earlier rectangle
  // draws besides its fill (border, hatch, labels) comes after the pass, so the fill must lie inside
  // each earlier outlined rectangle it touches — off its border and rounded corners, below its
  // labels, not on a hatch — and off every fill already drawn in order. Otherwise it is drawn in
  // order (MOE/e4's red capacity line across the expert boxes' borders).
  std::vector<size_t> outlined;  // rectangles so far with a border and labels
  std::vector<PxBox> in_order;   // fills drawn in order so far (with their anti-aliased edge)
  const auto in_fill_pass = [&](PxPoint a, PxPoint b) {
    // Bounded work per frame: past 64 fills in order (never so far: MASK has 34), the rest follow
    // them in order too — always the same picture, only without the cheaper shader.
    if (in_order.size() >= 64) return false;
    const PxBox box{a.x - 1, a.y - 1, b.x + 1, b.y + 1};
    for (const PxBox& o : in_order)
      if (o.Overlaps(box)) return false;
    for (size_t i : outlined) {
      const auto& o = scene.rects[i];
      // Its border is stroked on its edge: half the stroke and the anti-aliased pixel lie outside
      // (BWD/r2: dK_2's fill, 1.6 px below dK_1, touched dK_1's border).
      const float stroke = std::max(1.0f, o.border_em * em), outside = stroke / 2 + 1.0f;
      const PxBox outer{P(o.x, o.y).x - outside, P(o.x, o.y).y - outside, P(o.x + o.w, o.y + o.h).x + outside,
                        P(o.x + o.w, o.y + o.h).y + outside};
      if (!outer.Overlaps(box)) continue;
      const float inset = stroke + 1.0f + 0.05f * em;  // 0.05 em: the corners' arcs
      const PxBox inner{P(o.x, o.y).x + inset, std::max(P(o.x, o.y).y + inset, P(0, out.label_bottom[i]).y), P(o.x + o.w, o.y + o.h).x - inset,
                        P(o.x + o.w, o.y + o.h).y - inset};
      if (o.hatched || !inner.Contains(box)) return false;
    }
    return true;
  };
  out.fill_in_pass.assign(scene.rects.size(), false);
  for (size_t ri = 0; ri < scene.rects.size(); ++ri) {
    const auto& r = scene.rects[ri];
    const PxPoint a = P(r.x, r.y), b = P(r.x + r.w, r.y + r.h);
    out.fill_in_pass[ri] = in_fill_pass(a, b);
    if (!out.fill_in_pass[ri]) in_order.push_back({a.x - 1, a.y - 1, b.x + 1, b.y + 1});
    // Tiny tiles (a 64 × 64 grid) have no border or labels.
    if (!(b.x - a.x < 0.8f * em || b.y - a.y < 0.8f * em)) outlined.push_back(ri);
  }
}

}  // namespace

Placement PlaceLabels(const Scene& scene, const TextMetrics& metrics, const PlaceInput& in) {
  Placement out;
  out.input = in;
  const float em = in.em, text_scale = in.text_scale;
  const auto& highlight = in.highlight;
  // The floors as font sizes, for a scene laid out for them only (Scene::floors).
  const Floors floors = scene.floors ? Floors{in.floors.text / metrics.EmRatio(), in.floors.key / metrics.EmRatio()} : Floors{};
  const auto P = [&](float x, float y) { return out.At(x, y); };
  Placer placer(metrics, out.labels, Box(P(0, 0), P(scene.width, scene.height)));

  // A rectangle that holds others (an expert box with its token slots) keeps its label above the
  // first of them. Only rectangles large enough to carry text count (a 64 × 64 grid has none).
  const auto big = [&](const SceneRect& r) { return r.w >= 0.8f && r.h >= 0.8f; };
  std::vector<float>& label_bottom = out.label_bottom;
  label_bottom.resize(scene.rects.size());
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
  FindOcclusion(scene, out);
  // Each rectangle's labels, in the scene's order (a label is kept off the ones placed before it).
  // Tiny tiles (a 64 × 64 grid) carry none.
  for (size_t ri = 0; ri < scene.rects.size(); ++ri) {
    const auto& r = scene.rects[ri];
    const PxPoint a = P(r.x, r.y), b = P(r.x + r.w, r.y + r.h);
    if (b.x - a.x < 0.8f * em || b.y - a.y < 0.8f * em) continue;
    FitRectLabels(r, static_cast<int>(ri), a, {b.x, P(0, label_bottom[ri]).y}, em, text_scale, floors, placer);
  }

  // Arrow shafts are obstacles for every free label.
  for (const auto& ar : scene.arrows)
    for (size_t i = 1; i < ar.points.size(); ++i)
      placer.segments.push_back({P(ar.points[i - 1].x, ar.points[i - 1].y), P(ar.points[i].x, ar.points[i].y)});
  // Tiles: labelled rectangles that hold no other; the others are panels (the HBM panel), whose
  // borders labels keep off (placer.walls).
  std::vector<PxBox> tiles;
  for (const auto& r : scene.rects) {
    if (!big(r)) continue;
    bool holds = false;
    for (const auto& c : scene.rects)
      holds |= &c != &r && big(c) && c.x >= r.x && c.y >= r.y && c.x + c.w <= r.x + r.w && c.y + c.h <= r.y + r.h;
    // A highlighted tile's outline reaches 0.34 em outside it (the painter's): labels keep off that
    // too (the "l" of "write O = u/l" ran into the O tile's outline, a helper).
    const float o = !holds && std::find(highlight.begin(), highlight.end(), r.id) != highlight.end() ? 0.35f * em : 0.0f;
    (holds ? placer.walls : tiles).push_back({P(r.x, r.y).x - o, P(r.x, r.y).y - o, P(r.x + r.w, r.y + r.h).x + o, P(r.x + r.w, r.y + r.h).y + o});
  }
  const std::vector<PxBox> placed_after_rects = placer.placed;
  const size_t rect_labels = out.labels.size();
  // A text or arrow label whose anchor lies in a rectangle that carries labels stays inside the
  // smallest such rectangle (a panel's border never strikes through it); others stay inside the scene.
  const auto within_of = [&](float x, float y) {
    PxBox inside = placer.bounds;
    float area = 1e30f;
    for (const auto& r : scene.rects)
      if (big(r) && x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h && r.w * r.h < area) {
        area = r.w * r.h;
        // Inside its border's stroke: a label ending on the border had its last glyph struck through
        // (a helper saw "write L_3 (2 elements)" touch the HBM panel's edge).
        const float inset = 0.2f * em;
        inside = {P(r.x, r.y).x + inset, P(r.x, r.y).y + inset, P(r.x + r.w, r.y + r.h).x - inset, P(r.x + r.w, r.y + r.h).y - inset};
      }
    return inside;
  };
  std::vector<PxBox> within, arrow_within;
  for (const auto& t : scene.texts) within.push_back(within_of(t.x, t.y));
  for (const auto& ar : scene.arrows) arrow_within.push_back(within_of(ar.label_at.x, ar.label_at.y));
  // Free texts and arrow labels at the Ctrl ± size. An arrow's label that belongs inside a rectangle
  // stays there when enlarged, a step smaller when it must, down to the size the scene was laid out
  // for; only when even that finds no room may it leave (a helper saw "write O = u/l" leave for a free
  // place below the diagram at Ctrl + five times, though it fitted at home a little smaller).
  for (float ts = text_scale;; ts = std::max(1.0f, ts * 0.85f)) {
    placer.placed = placed_after_rects;
    out.labels.resize(rect_labels);
    // Enlarged texts keep one size: when one finds no place, all are tried a step smaller; at the
    // size the scene was laid out for, a text may shrink on its own.
    const bool last = ts <= 1.0f;
    bool all = true;
    for (size_t ti = 0; ti < scene.texts.size() && (all || last); ++ti) {
      const auto& t = scene.texts[ti];
      const float grow = t.max_grow > 0 ? std::min(ts, std::max(t.max_grow, 1.0f)) : ts;
      const float least = t.key ? std::max(floors.key_px, floors.text_px) : floors.text_px;
      all &= PlaceFree(std::max(t.size_em * em * grow, least), P(t.x, t.y), t.color, t.text, "text:" + t.id, em, placer, within[ti], last,
                       {.spans = t.spans.empty() ? nullptr : &t.spans, .gap_em = 0.5f, .keep_x = t.max_grow > 0, .min_px = floors.text_px});
    }
    for (size_t ai = 0; ai < scene.arrows.size(); ++ai) {
      const auto& ar = scene.arrows[ai];
      if (ar.label.empty() || !(all || last)) continue;
      // Inside the rectangle its anchor lies in where it finds room, else anywhere in the scene; off
      // the tiles first (a red "write" label on the red written tile cannot be read); half its size
      // clear of other texts left and right (run on from the legend, it read as part of it).
      const auto place = [&](const PxBox& inside, bool shrink, bool fallback, const std::vector<PxBox>* avoid, float min_px) {
        return PlaceFree(std::max(0.95f * em * ts, floors.text_px), P(ar.label_at.x, ar.label_at.y), ar.color, ar.label, "arrow:" + ar.id, em,
                         placer, inside, shrink,
                         {.fallback = fallback, .gap_em = 0.5f, .avoid = avoid, .min_px = std::max(min_px, floors.text_px)});
      };
      const PxBox& inside = arrow_within[ai];
      const bool inner = inside.x0 != placer.bounds.x0 || inside.y0 != placer.bounds.y0 || inside.x1 != placer.bounds.x1 ||
                         inside.y1 != placer.bounds.y1;
      if (inner && !last && place(inside, true, false, &tiles, 0.95f * em * 0.999f)) continue;
      all &= (inner && place(inside, last, false, &tiles, 0)) || place(placer.bounds, last, false, &tiles, 0) ||
             (inner && place(inside, last, false, nullptr, 0)) || place(placer.bounds, last, true, nullptr, 0);
    }
    if (all || last) break;
  }
  return out;
}

}  // namespace bw::view
