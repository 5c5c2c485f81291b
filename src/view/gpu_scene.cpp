// GPU frames, tile grid and SM × time lanes; see gpu_scene.h.
#include "view/gpu_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "view/format.h"
#include "view/gpu_text.h"

namespace bw::view {

namespace {

int CeilDiv(int a, int b) { return b > 0 ? (a + b - 1) / b : 0; }

}  // namespace

float TextEm(const std::string& s, float size) {
  float w = 0;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    w += n == 3 && c >= 0xE2 && !(c == 0xE2 && static_cast<unsigned char>(s[i + 1]) < 0xBA) ? 1.0f : 0.55f;  // U+2E80 up: wide
    i += n;
  }
  return w * size;
}

std::string TimeTick(double t_ns, double span_ns) {
  // One unit for the whole axis, chosen from its span: µs up to 10 ms (a kernel at full speed), ms up
  // to 10 s (a slowed-down live run), else s; digits grouped, one decimal only below 100 units.
  const double unit = span_ns < 1e7 ? 1e3 : span_ns < 1e10 ? 1e6 : 1e9;
  const char* name = span_ns < 1e7 ? "\u00b5s" : span_ns < 1e10 ? "ms" : "s";
  const double v = t_ns / unit;
  if (span_ns / unit >= 100) return FormatInt(static_cast<std::int64_t>(std::llround(v))) + " " + name;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, name);
  return buf;
}

int GpuFrame::SmsUsed() const {
  std::vector<char> used(static_cast<size_t>(std::max(sm_count, 1)), 0);
  int n = 0;
  for (const auto& c : cells)
    if (c.state == GpuCell::kDone) {
      if (c.smid >= used.size()) used.resize(static_cast<size_t>(c.smid) + 1, 0);  // no 2^32 − 1 + 1 wrap
      if (!used[c.smid]) { used[c.smid] = 1; ++n; }
    }
  return n;
}

GpuFrame MakeGpuFrame(const cuda::RunSummary& shape, std::int64_t skipped_total) {
  GpuFrame f;
  f.per_head_t_r = CeilDiv(shape.n_q, shape.b_r);
  f.rows = f.per_head_t_r * std::max(1, shape.heads);
  f.t_c = CeilDiv(shape.n_k, shape.b_c);
  f.cells.assign(static_cast<size_t>(f.rows) * static_cast<size_t>(f.t_c), GpuCell{});
  f.skipped_total = skipped_total;
  f.computed_total = static_cast<std::int64_t>(f.cells.size()) - skipped_total;
  f.sm_count = shape.sm_count;
  f.mask = shape.mask;
  return f;
}

void AddRecords(GpuFrame& f, const std::vector<cuda::TileRecord>& records) {
  for (const auto& r : records) {
    const long long row = static_cast<long long>(r.head) * f.per_head_t_r + r.q_tile;
    if (row < 0 || row >= f.rows || static_cast<int>(r.kv_tile) >= f.t_c) continue;
    GpuCell& c = f.cells[static_cast<size_t>(row) * static_cast<size_t>(f.t_c) + r.kv_tile];
    if (c.state != GpuCell::kPending) continue;  // each step counts once
    const bool skipped = (r.flags & cuda::kTileSkipped) != 0;
    c.state = skipped ? GpuCell::kSkipped : GpuCell::kDone;
    c.smid = r.smid;
    c.t_start_ns = r.t_start_ns;
    c.t_end_ns = r.t_end_ns;
    c.bytes_loaded = r.bytes_loaded;
    c.bytes_written = r.bytes_written;
    (skipped ? f.skipped : f.computed) += 1;
    f.loaded_bytes += r.bytes_loaded;
    f.written_bytes += r.bytes_written;
    if (!skipped) {  // skipped records carry the block's end time, not work: they do not stretch the span
      f.t0_ns = f.any ? std::min(f.t0_ns, r.t_start_ns) : r.t_start_ns;
      f.t_last_ns = f.any ? std::max(f.t_last_ns, r.t_end_ns) : r.t_end_ns;
      f.any = true;
    }
  }
}

std::uint64_t RunSpanNs(const cuda::RunSummary& run) {
  if (run.tiles.empty()) return 0;
  std::uint64_t t0 = run.tiles.front().t_start_ns, t1 = run.tiles.front().t_end_ns;
  for (const auto& t : run.tiles) t0 = std::min(t0, t.t_start_ns), t1 = std::max(t1, t.t_end_ns);
  return t1 - t0;
}

GpuFrame FrameAt(const cuda::RunSummary& run, std::uint64_t t_ns) {
  GpuFrame f = MakeGpuFrame(run, run.counters.tiles_skipped);
  if (run.tiles.empty()) return f;
  std::uint64_t t0 = run.tiles.front().t_start_ns;
  for (const auto& t : run.tiles) t0 = std::min(t0, t.t_start_ns);
  std::vector<cuda::TileRecord> upto;
  upto.reserve(run.tiles.size());
  for (const auto& t : run.tiles)
    if (t.t_end_ns - t0 <= t_ns) upto.push_back(t);
  AddRecords(f, upto);
  if (f.any) f.t0_ns = t0;  // times count from the run's start, whatever has ended so far
  return f;
}

Color StartTimeColor(float frac) {
  // viridis, reversed (light = early), at 5 stops, linearly interpolated
  static const float stops[5][3] = {{253, 231, 37}, {94, 201, 98}, {33, 145, 140}, {59, 82, 139}, {68, 1, 84}};
  const float x = std::clamp(frac, 0.0f, 1.0f) * 4.0f;
  const int i = std::min(3, static_cast<int>(x));
  const float t = x - static_cast<float>(i);
  const auto mix = [&](int k) { return static_cast<std::uint8_t>(std::lround(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * t)); };
  return {mix(0), mix(1), mix(2)};
}

float GpuGridCellEm(const GpuFrame& f, float width_em, float height_em) {
  if (f.rows <= 0 || f.t_c <= 0) return 0;
  return std::max(0.0f, std::min((width_em - kGridLeft) / static_cast<float>(f.t_c), (height_em - kGridTop) / static_cast<float>(f.rows)));
}

namespace {

// The grid's axes: titles and up to five ticks each (tile indices ⌊k·(n−1)/c⌋ at their cells' centres,
// c = 4, 2 or 1 ticks-spans): as many as leave each label a clear gap. A grid of many rows (every head's Q
// tiles) is narrow, and five labels 16 cells apart then fell on each other ("31", "47", "0", "63" as one
// blot); the painter may also draw a shrunk scene's labels at its floor size, larger than their em here,
// so the gap asked for is twice a label's own size.
int TickSpans(int n, float size, float label_em) {
  for (int c : {4, 2, 1})
    if (n - 1 >= c && size * static_cast<float>((n - 1) / c) >= 2.0f * label_em + 0.3f) return c;
  return n > 1 ? 0 : 1;  // 0: the two ends would touch; only 0 is labelled
}

void GridAxes(Scene& sc, const GpuFrame& f, float size, const std::string& lang, const Palette& pal) {
  sc.texts.push_back({"grid.axis.j", kGridLeft, 0.0f, 0.85f, pal.text, GpuText(GpuStr::kv_tile_axis, lang)});
  sc.texts.push_back({"grid.axis.i", 0.0f, 0.0f, 0.85f, pal.text, GpuText(GpuStr::q_tile_axis, lang)});
  const auto digits = [](int n) { return static_cast<float>(std::to_string(n).size()); };
  const int cj = TickSpans(f.t_c, size, 0.42f * digits(f.t_c - 1)), ci = TickSpans(f.rows, size, 0.75f);
  for (int k = 0; k <= std::max(cj, 0); ++k) {
    const int j = cj == 0 ? 0 : k * (f.t_c - 1) / cj;
    const std::string js = std::to_string(j);
    sc.texts.push_back({"grid.j." + std::to_string(k), kGridLeft + size * (static_cast<float>(j) + 0.5f) - 0.25f * static_cast<float>(js.size()),
                        1.1f, 0.75f, pal.text_muted, js});
  }
  for (int k = 0; k <= std::max(ci, 0); ++k) {
    const int i = ci == 0 ? 0 : k * (f.rows - 1) / ci;
    const std::string is = std::to_string(i);
    sc.texts.push_back({"grid.i." + std::to_string(k), kGridLeft - 0.5f - 0.42f * static_cast<float>(is.size()),
                        kGridTop + size * (static_cast<float>(i) + 0.5f) - 0.45f, 0.75f, pal.text_muted, is});
  }
}

}  // namespace

Scene BuildGpuGridScene(const GpuFrame& f, float width_em, float height_em, const std::string& lang, const Palette& pal, bool compact) {
  Scene sc;
  sc.width = width_em;
  sc.height = height_em;
  sc.background = pal.background;
  if (f.rows <= 0 || f.t_c <= 0) return sc;
  const float size = GpuGridCellEm(f, width_em, height_em);
  const float gap = size > 0.6f ? 0.06f : 0.0f;
  const double span = f.any && f.t_last_ns > f.t0_ns ? static_cast<double>(f.t_last_ns - f.t0_ns) : 1.0;
  // Skipped cells: a hatch at any size. Large cells get the painter's hatch; small ones alternate two
  // greys along anti-diagonal bands two cells wide, so the skipped region reads as striped, not as a
  // flat grey that could be mistaken for the white of "not done yet".
  const Color stripe_a = pal.masked, stripe_b{150, 150, 150};
  for (int i = 0; i < f.rows; ++i)
    for (int j = 0; j < f.t_c; ++j) {
      const GpuCell& c = f.cells[static_cast<size_t>(i) * f.t_c + j];
      SceneRect r;
      r.id = "gpu." + std::to_string(i + 1) + "," + std::to_string(j + 1);
      r.x = kGridLeft + size * static_cast<float>(j), r.y = kGridTop + size * static_cast<float>(i);
      r.w = r.h = size - gap;
      r.border = pal.border;
      r.border_em = 0.03f;
      if (c.state == GpuCell::kPending) {
        r.state = TileState::kPending;
        r.fill = kGpuPendingColor;
      } else if (c.state == GpuCell::kSkipped) {
        r.state = TileState::kMasked;
        r.hatched = size >= 0.9f;
        r.fill = r.hatched ? stripe_a : (((i + j) / 2) % 2 ? stripe_b : stripe_a);
      } else {
        r.state = TileState::kProcessed;
        r.fill = StartTimeColor(static_cast<float>(static_cast<double>(c.t_start_ns - f.t0_ns) / span));
        if (size >= 2.0f) r.label = "SM " + std::to_string(c.smid);
      }
      if (size >= 2.2f) r.sublabel = ShortStateWord(r.state, lang);
      sc.rects.push_back(std::move(r));
    }
  if (compact)
    sc.texts.push_back({"grid.axes", 0.0f, 0.2f, 0.85f, pal.text, GpuText(GpuStr::grid_axes_compact, lang)});
  else
    GridAxes(sc, f, size, lang, pal);
  return sc;
}

int SmsPerLane(int sm_count, float plot_h_em) {
  if (sm_count <= 0 || plot_h_em <= 0) return 1;
  const float per_sm = plot_h_em / static_cast<float>(sm_count);
  return std::clamp(static_cast<int>(std::ceil(1.25f / per_sm - 1e-4f)), 1, sm_count);
}

Scene BuildSmLanesScene(const GpuFrame& f, std::uint64_t span_ns, float width_em, float height_em, const std::string& lang,
                        const Palette& pal, int group, GpuBarTiles* bar_tiles, float label_scale, const std::string& axis_title_in) {
  Scene sc;
  sc.width = width_em;
  sc.height = height_em;
  sc.background = pal.background;
  int lanes = f.sm_count;
  for (const auto& c : f.cells)
    if (c.state == GpuCell::kDone) lanes = std::max(lanes, static_cast<int>(c.smid) + 1);
  if (lanes <= 0) return sc;
  if (span_ns == 0) span_ns = f.any ? f.t_last_ns - f.t0_ns : 0;
  group = std::clamp(group, 1, lanes);
  // The painter draws the labels `ls` times their em (a projector's 1.6): the label column, the axis
  // strip's rows and the labels' spacing grow with it (at 1.6 the SM labels ran under the axis and the
  // axis's title onto the count of SMs without a tile).
  const float ls = std::max(1.0f, label_scale);
  const float row = 1.2f * ls, label_w = (group > 1 ? 4.6f : 3.2f) * ls;
  // SMs that ran no tile by the frame's time — not "idle", which the busy count beside it contradicted
  // (FA3/h5: "4 / 132 SMs idle" next to "34 SMs busy now")
  std::vector<bool> ran(static_cast<size_t>(lanes), false);
  for (const auto& c : f.cells)
    if (c.state == GpuCell::kDone) ran[c.smid] = true;
  const std::string idle_text = GpuFormat(GpuStr::sms_no_tile, lang, {FormatInt(std::count(ran.begin(), ran.end(), false)), FormatInt(lanes)});
  const std::string axis_title = axis_title_in.empty() ? GpuText(GpuStr::time_axis, lang) : axis_title_in;
  // The ticks, then the count and the axis's title on one row where both fit (the panel's wide lanes),
  // else on two (TextEm, in the font's em, times `drawn`: a label's drawn width in the scene's em).
  const float drawn = 0.8f * ls / 1.448f;
  // (The panel's lanes, at 1 and with their own title, keep the one row they were laid out with.)
  const bool fitted = ls > 1.0f || !axis_title_in.empty();
  const bool title_row = fitted && (TextEm(idle_text, 1.0f) + TextEm(axis_title, 1.0f)) * drawn + 1.0f > width_em - label_w;
  const float axis_h = 0.4f + (title_row ? 3.0f : 2.0f) * row;
  const float plot_w = std::max(1.0f, width_em - label_w), plot_h = std::max(1.0f, height_em - axis_h);
  const float lane_h = plot_h / static_cast<float>(lanes);
  // Lane background (alternating per group of SMs, so groups can be told apart) and the group's label
  // ("SM 8", or "SM 8–11" with several SMs per lane) every few groups.
  const int groups = (lanes + group - 1) / group;
  const float group_h = lane_h * static_cast<float>(group);
  const int label_every = std::max(1, static_cast<int>(std::ceil(1.2f * ls / group_h)));
  // A label's height as drawn (0.7 em, Noto Sans CJK's line 1.448 em).
  const float sm_label_h = 0.7f * ls * 1.448f;
  float last_label_y = -1e9f;
  for (int g = 0; g < groups; ++g) {
    const int first = g * group, last = std::min(lanes, first + group) - 1;
    SceneRect bg;
    bg.id = "lanebg." + std::to_string(g);
    bg.x = label_w, bg.y = group_h * static_cast<float>(g), bg.w = plot_w, bg.h = lane_h * static_cast<float>(last - first + 1);
    bg.fill = g % 2 ? Color{236, 236, 236} : Color{255, 255, 255};
    bg.border = bg.fill;
    bg.border_em = 0;
    sc.rects.push_back(std::move(bg));
    if (g % label_every != 0) continue;
    float y = group_h * static_cast<float>(g) + (group > 1 ? group_h * 0.5f - 0.5f * ls : -0.1f);
    if (ls > 1.0f) {  // enlarged, kept above the axis (a projector's "SM 110" stood under it, by the ticks)
      y = std::min(y, plot_h - sm_label_h);
      if (y < last_label_y + 0.9f * sm_label_h) continue;  // moved up onto the one above: left out
    }
    last_label_y = y;
    sc.texts.push_back({"lanes.sm." + std::to_string(g), 0.0f, y, 0.7f, pal.text_muted,
                        "SM " + std::to_string(first) + (last > first ? "\u2013" + std::to_string(last) : std::string())});
  }
  std::vector<int> order(static_cast<size_t>(lanes), 0);
  const double scale = span_ns > 0 ? static_cast<double>(plot_w) / static_cast<double>(span_ns) : 0.0;
  for (size_t k = 0; k < f.cells.size(); ++k) {
    const GpuCell& c = f.cells[k];
    if (c.state != GpuCell::kDone) continue;
    SceneRect r;
    r.id = "lane." + std::to_string(c.smid) + "." + std::to_string(order[c.smid]++);
    r.x = label_w + static_cast<float>(static_cast<double>(c.t_start_ns - f.t0_ns) * scale);
    r.w = std::max(0.05f, static_cast<float>(static_cast<double>(c.t_end_ns - c.t_start_ns) * scale));
    r.y = lane_h * static_cast<float>(c.smid) + lane_h * 0.1f;
    r.h = lane_h * 0.8f;
    r.state = TileState::kProcessed;
    r.fill = StartTimeColor(span_ns > 0 ? static_cast<float>(static_cast<double>(c.t_start_ns - f.t0_ns) / static_cast<double>(span_ns)) : 0.0f);
    r.border = r.fill;
    r.border_em = 0;
    if (bar_tiles) bar_tiles->push_back({r.id, GpuTileRef{static_cast<int>(k) / f.t_c, static_cast<int>(k) % f.t_c}});
    sc.rects.push_back(std::move(r));
  }
  // Time axis: 0 and the span in µs, with three ticks between.
  SceneRect axis;
  axis.id = "lanes.axis";
  axis.x = label_w, axis.y = plot_h + 0.1f, axis.w = plot_w, axis.h = 0.08f;
  axis.fill = pal.text;
  axis.border = pal.text;
  axis.border_em = 0;
  sc.rects.push_back(axis);
  // As many tick spans (4, 2 or 1) as leave each label a clear gap at up to 1.6 times its em (a projector's
  // painter draws labels 1.6 times their em): five ticks on a narrow lane plot fell on each other, and the
  // last one, ending at the axis's end, ran out of the scene and was moved off its axis.
  const std::string last_tick = TimeTick(static_cast<double>(span_ns), static_cast<double>(span_ns));
  int spans = 1;
  for (int c : {4, 2})
    if (plot_w / static_cast<float>(c) >= 2.0f * 1.6f * TextEm(last_tick, 0.8f) + 0.6f) { spans = c; break; }  // the last label ends at the axis end
  // Each tick a mark under the axis at its time, the last at the axis's end, its label ending there: the
  // label's width as drawn is TextEm (in the font's em, an ideograph's advance) times the label scale over
  // the line height the sizes are given in (1.448 em); the 1.6 once used for both left the last label,
  // and so the ticks, about 50 px short of a projector's 1920×1080 axis end.
  for (int k = 0; k <= spans; ++k) {
    const float x = label_w + plot_w * static_cast<float>(k) / static_cast<float>(spans);
    const std::string tick = TimeTick(static_cast<double>(span_ns) * k / spans, static_cast<double>(span_ns));
    SceneRect mark;
    mark.id = "lanes.tick.mark." + std::to_string(k);
    mark.x = x - (k == spans ? 0.08f : 0.0f), mark.y = plot_h + 0.1f, mark.w = 0.08f, mark.h = 0.3f;
    mark.fill = mark.border = pal.text;
    mark.border_em = 0;
    sc.rects.push_back(mark);
    const float right = 1.05f * TextEm(tick, 0.8f) * ls / 1.448f;  // the label's drawn width, a little over
    sc.texts.push_back({"lanes.tick." + std::to_string(k), k == spans ? x - right : k == 0 ? x : x - 0.5f * right, plot_h + 0.4f, 0.8f,
                        pal.text, tick});
  }
  sc.texts.push_back({"lanes.idle", label_w, plot_h + 0.4f + row, 0.8f, pal.text_muted, idle_text});
  sc.texts.push_back({"lanes.axis.y", 0.0f, plot_h + 0.4f, 0.8f, pal.text, GpuText(GpuStr::sm_axis, lang)});
  // (Enlarged, it ends under the axis's end, as the last tick does, on the count's row or on its own.)
  // (Never left of the lanes' own column: TextEm overestimates Latin text by about a quarter, and FA3/h6's
  // long en title, started 6.7 em left of the lanes, ran over the bottom of the causal grid beside them.)
  const float title_x = fitted ? std::max(0.0f, label_w + plot_w - 1.05f * TextEm(axis_title, 1.0f) * drawn) : label_w + plot_w * 0.5f;
  sc.texts.push_back({"lanes.axis.x", title_x, plot_h + 0.4f + (title_row ? 2.0f : 1.0f) * row, 0.8f, pal.text, axis_title});
  return sc;
}

void BandSmLanes(Scene& sc, const std::vector<SmUse>& use, std::uint64_t span_ns, bool planned, float label_scale, const std::string& lang,
                 const Palette& pal, int b_r) {
  const SceneRect* axis = sc.FindRect("lanes.axis");
  if (!axis || use.empty()) return;
  const float label_w = axis->x, plot_w = axis->w, plot_h = axis->y - 0.1f;
  // As many rows as BuildSmLanesScene drew (an SM past the device's count widens it; `use` may be shorter).
  int lanes = static_cast<int>(use.size());
  for (const auto& r : sc.rects)
    if (r.id.rfind("lane.", 0) == 0) lanes = std::max(lanes, std::atoi(r.id.c_str() + 5) + 1);
  const float lane_h = plot_h / static_cast<float>(lanes);
  std::vector<int> row(static_cast<size_t>(lanes), 0);
  int used = 0;
  for (int sm = 0; sm < lanes; ++sm)
    if (sm < static_cast<int>(use.size()) && use[static_cast<size_t>(sm)].used) row[static_cast<size_t>(sm)] = used++;
  for (int sm = 0, idle = used; sm < lanes; ++sm)
    if (!(sm < static_cast<int>(use.size()) && use[static_cast<size_t>(sm)].used)) row[static_cast<size_t>(sm)] = idle++;
  // The SM indices and their alternating rows go: with the lanes reordered they would name the wrong SMs.
  std::erase_if(sc.rects, [](const SceneRect& r) { return r.id.rfind("lanebg.", 0) == 0; });
  std::erase_if(sc.texts, [](const SceneText& t) { return t.id.rfind("lanes.sm.", 0) == 0; });
  for (auto& r : sc.rects)
    if (r.id.rfind("lane.", 0) == 0) r.y = lane_h * static_cast<float>(row[static_cast<size_t>(std::atoi(r.id.c_str() + 5))]) + 0.1f * lane_h;
  // The bands go under the bars (first in the list); the idle one grey, apart from the white the
  // bars are drawn on, so that an SM with no work reads as idle and not as "not drawn" (not hatched: the
  // grid hatches masked tiles, and a hatch ran through the band's words).
  std::vector<SceneRect> under;
  const auto band = [&](const std::string& id, float y, float h, Color fill, bool hatched) {
    SceneRect b;
    b.id = id, b.x = label_w, b.y = y, b.w = plot_w, b.h = h;
    b.fill = fill, b.border = Color{150, 150, 150}, b.border_em = 0.04f;
    b.hatched = hatched;
    b.answer = planned;
    under.push_back(std::move(b));
  };
  const float used_h = lane_h * static_cast<float>(used), idle_h = plot_h - used_h;
  if (used > 0) band("lanes.band.used", 0, used_h, Color{255, 255, 255}, false);
  if (lanes > used) band("lanes.band.idle", used_h, idle_h, Color{214, 214, 214}, false);
  if (planned)  // each used SM's whole span, pale: it will be busy from its first tile to its last
    for (int sm = 0; sm < static_cast<int>(use.size()); ++sm) {
      const SmUse& u = use[static_cast<size_t>(sm)];
      if (!u.used || span_ns == 0) continue;
      SceneRect p;
      p.id = "lanes.plan." + std::to_string(sm);
      p.x = label_w + plot_w * static_cast<float>(static_cast<double>(u.first_ns) / static_cast<double>(span_ns));
      p.w = std::max(0.05f, plot_w * static_cast<float>(static_cast<double>(u.last_ns - u.first_ns) / static_cast<double>(span_ns)));
      p.y = lane_h * static_cast<float>(row[static_cast<size_t>(sm)]), p.h = lane_h;  // no gaps: the words over them stay clear
      p.fill = p.border = Color{178, 196, 222};
      p.border_em = 0;
      p.answer = true;
      under.push_back(std::move(p));
    }
  sc.rects.insert(sc.rects.begin(), under.begin(), under.end());
  // Each band's count in the label column, at its middle, and the words inside the band (0.8 em, the
  // text's colour: the idle band is what h3 and h4 point at) where they fit its width as drawn (a note
  // wider than the plot made the painter draw the whole scene smaller, under the floors). Planned, the
  // counts are the answer: before the reveal the frame is empty, the question gives the device's count.
  const float ls = std::max(1.0f, label_scale), label_h = 0.7f * ls * 1.448f, note_h = 0.8f * ls * 1.448f;
  const auto count = [&](int n) { return GpuFormat(GpuStr::sm_band_count, lang, {std::to_string(n)}); };
  const auto name = [&](const std::string& id, float y, float h, int n, GpuStr words) {
    SceneText label{id + ".n", 0.0f, y + 0.5f * std::max(0.0f, h - label_h), 0.7f, pal.text, count(n)};
    label.answer = planned;
    sc.texts.push_back(std::move(label));
    if (h < note_h || (!planned && words == GpuStr::sm_band_used)) return;  // the used band's bars say it
    SceneText note{id + ".note", label_w + 0.6f, y + 0.5f * (h - note_h), 0.8f, pal.text, GpuFormat(words, lang, {std::to_string(b_r)})};
    if (TextEm(note.text, 0.8f) * ls / 1.448f > plot_w - 1.2f) return;  // (TextEm: a Latin estimate a fifth over)
    note.answer = planned;
    sc.texts.push_back(std::move(note));
  };
  if (planned) {
    SceneRect frame;
    frame.id = "lanes.band.all", frame.x = label_w, frame.y = 0, frame.w = plot_w, frame.h = plot_h;
    frame.fill = pal.background, frame.border = Color{150, 150, 150}, frame.border_em = 0.04f;
    sc.rects.insert(sc.rects.begin(), frame);
    std::erase_if(sc.texts, [](const SceneText& t) { return t.id == "lanes.idle"; });  // "132 / 132 … no tile so far": nothing has run
  }
  if (used > 0) name("lanes.band.used", 0, used_h, used, GpuStr::sm_band_used);
  if (lanes > used) name("lanes.band.idle", used_h, idle_h, lanes - used, GpuStr::sm_band_idle);
}

}  // namespace bw::view
