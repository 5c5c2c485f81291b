// The warp timeline; see gpu_warps.h.
#include "view/gpu_warps.h"

#include <algorithm>
#include <limits>

#include "view/gpu_text.h"

namespace bw::view {

Color WarpPhaseColor(cuda::WarpPhase p) {
  switch (p) {
    case cuda::WarpPhase::kTmaIssue: return {230, 159, 0};
    case cuda::WarpPhase::kTmaWait: return {240, 228, 66};
    case cuda::WarpPhase::kWgmmaS: return {0, 114, 178};
    case cuda::WarpPhase::kSoftmax: return {0, 158, 115};
    case cuda::WarpPhase::kWgmmaPV: return {204, 121, 167};
    case cuda::WarpPhase::kWrite: return {213, 94, 0};
    case cuda::WarpPhase::kIdle: return {215, 215, 215};
  }
  return {0, 0, 0};
}

std::string WarpPhaseWord(cuda::WarpPhase p, const std::string& lang) {
  switch (p) {
    case cuda::WarpPhase::kTmaIssue: return GpuText(GpuStr::phase_tma_issue, lang);
    case cuda::WarpPhase::kTmaWait: return GpuText(GpuStr::phase_tma_wait, lang);
    case cuda::WarpPhase::kWgmmaS: return GpuText(GpuStr::phase_wgmma_s, lang);
    case cuda::WarpPhase::kSoftmax: return GpuText(GpuStr::phase_softmax, lang);
    case cuda::WarpPhase::kWgmmaPV: return GpuText(GpuStr::phase_wgmma_pv, lang);
    case cuda::WarpPhase::kWrite: return GpuText(GpuStr::phase_write, lang);
    case cuda::WarpPhase::kIdle: return GpuText(GpuStr::phase_idle, lang);
  }
  return "?";
}

std::vector<std::uint32_t> SampledCtas(const cuda::RunSummary& run) {
  std::vector<std::uint32_t> out;
  for (const auto& w : run.warp_phases)
    if (std::find(out.begin(), out.end(), w.cta) == out.end()) out.push_back(w.cta);
  return out;
}

float WarpTimelineHeight(int shown) {
  return WarpLayout::kTitle + static_cast<float>(shown) * (WarpLayout::kHeader + kWarpgroups * WarpLayout::kRow) + WarpLayout::kAxis +
         WarpLayout::kLegend;
}

namespace {

SceneRect WarpBox(std::string id, float x, float y, float w, float h, Color fill) {
  SceneRect r;
  r.id = std::move(id);
  r.x = x, r.y = y, r.w = w, r.h = h;
  r.fill = r.border = fill;
  r.border_em = 0;
  return r;
}

// A label's width in em at `size_em` (ASCII about half an em, anything wider a full em), for the legend's wrap.
float LabelEm(const std::string& t, float size_em) {
  float w = 0;
  for (size_t k = 0; k < t.size(); ++k) {
    const unsigned char c = static_cast<unsigned char>(t[k]);
    if (c < 0x80) w += 0.55f;
    else if (c >= 0xC0) w += c >= 0xE0 ? 1.0f : 0.55f;  // a lead byte: one character
  }
  return w * size_em;
}

// A time axis under rows that end at `y`: the line, `ticks` + 1 labels from `t0` to `t1` (ns since the
// CTA's first stamp; the first at the axis's start, the last ending at its end), and, when `title`, the
// axis title on a line of its own below the labels (so the two never collide). Ids: PREFIX (the line),
// PREFIX.mark.k (tick marks), TICKS.tick.k (labels), PREFIX.title.
void TimeAxis(Scene& sc, const std::string& prefix, const std::string& tick_ids, float y, float plot_w, std::uint64_t t0, std::uint64_t t1, int ticks, bool title,
              const std::string& lang, const Palette& pal) {
  using L = WarpLayout;
  sc.rects.push_back(WarpBox(prefix, L::kLabel, y + 0.1f, plot_w, 0.08f, pal.text));
  const double span = static_cast<double>(t1 - t0);
  for (int k = 0; k <= ticks; ++k) {
    const double t = static_cast<double>(t0) + span * k / ticks;
    const std::string label = TimeTick(t, t0 == 0 ? static_cast<double>(t1) : span);
    const float x = L::kLabel + plot_w * static_cast<float>(k) / static_cast<float>(ticks);
    // The label's width as drawn: LabelEm counts in the font's em (an ideograph's advance), the sizes are
    // in its line height (Noto Sans CJK: 1.448 em); taken as it was, the last label ended about 3 em short
    // of the axis's end (FA3/h8's zoom on a projector: "67.0 µs" under nothing).
    const float w = 1.05f * LabelEm(label, 0.8f) / 1.448f;
    sc.rects.push_back(WarpBox(prefix + ".mark." + std::to_string(k), std::min(x, L::kLabel + plot_w - 0.08f), y + 0.1f, 0.08f, 0.3f, pal.text));
    sc.texts.push_back({tick_ids + ".tick." + std::to_string(k), k == ticks ? x - w : k == 0 ? x : x - 0.5f * w, y + 0.4f, 0.8f, pal.text, label});
  }
  if (title) sc.texts.push_back({prefix + ".title", L::kLabel, y + 1.4f, 0.8f, pal.text_muted, GpuText(GpuStr::warps_time, lang)});
}

// The legend (wrapped to `width_em`) from `y`; returns where it ends.
float Legend(Scene& sc, float y, float width_em, const std::string& lang, const Palette& pal) {
  using L = WarpLayout;
  float ly = y, x = 0;
  for (int p = 0; p <= static_cast<int>(cuda::WarpPhase::kIdle); ++p) {
    const auto phase = static_cast<cuda::WarpPhase>(p);
    const std::string word = WarpPhaseWord(phase, lang);
    const float item = 1.1f + LabelEm(word, 0.8f) + 0.8f;
    if (x > 0 && x + item > width_em) x = 0, ly += L::kLegend;
    sc.rects.push_back(WarpBox("warps.legend." + std::to_string(p), x, ly + 0.2f, 0.9f, 0.9f, WarpPhaseColor(phase)));
    sc.texts.push_back({"warps.legend." + std::to_string(p) + ".text", x + 1.1f, ly + 0.1f, 0.8f, pal.text, word});
    x += item;
  }
  return ly + L::kLegend;
}

// The bars of one warpgroup row of CTA `cta`, phases clipped to [t0, t1) and drawn from `x0` at `scale`
// em per ns; ids PREFIX.k in time order.
void RowBars(Scene& sc, const cuda::RunSummary& run, std::uint32_t cta, int g, const std::string& prefix, float x0, float y, std::uint64_t t0,
             std::uint64_t t1, double scale, std::vector<WarpBar>* bars) {
  using L = WarpLayout;
  int k = 0;
  for (size_t n = 0; n < run.warp_phases.size(); ++n) {
    const cuda::WarpPhaseRecord& w = run.warp_phases[n];
    if (w.cta != cta || w.warpgroup != g || w.t_end_ns <= t0 || w.t_start_ns >= t1) continue;
    const std::uint64_t a = std::max(w.t_start_ns, t0), b = std::min(w.t_end_ns, t1);
    SceneRect r = WarpBox(prefix + "." + std::to_string(k++), x0 + static_cast<float>(static_cast<double>(a - t0) * scale), y + 0.15f,
                          std::max(0.05f, static_cast<float>(static_cast<double>(b - a) * scale)), L::kRow - 0.3f, WarpPhaseColor(w.phase));
    if (bars) bars->push_back({r.id, GpuTileRef{static_cast<int>(w.q_tile), static_cast<int>(w.kv_tile)}, n});
    sc.rects.push_back(std::move(r));
  }
}

}  // namespace

ZoomWindow PickZoom(const cuda::RunSummary& run, std::uint32_t cta, double em_per_ns) {
  std::vector<const cuda::WarpPhaseRecord*> s;
  for (const auto& w : run.warp_phases)
    if (w.cta == cta && w.warpgroup == 1 && w.phase == cuda::WarpPhase::kWgmmaS) s.push_back(&w);
  ZoomWindow z;
  if (s.size() < static_cast<size_t>(2 * ZoomWindow::kTiles)) return z;
  std::sort(s.begin(), s.end(), [](const auto* a, const auto* b) { return a->t_start_ns < b->t_start_ns; });
  const double tile_ns = static_cast<double>(s.back()->t_start_ns - s.front()->t_start_ns) / static_cast<double>(s.size() - 1);
  if (tile_ns * em_per_ns >= ZoomWindow::kMinTileEm) return z;  // legible as it is
  const size_t m = s.size() / 2 - ZoomWindow::kTiles / 2;    // the middle: the pipeline's steady state
  z.on = true;
  z.t0 = s[m]->t_start_ns;
  z.t1 = s[m + ZoomWindow::kTiles]->t_start_ns;
  z.j0 = s[m]->kv_tile;
  z.j1 = s[m + ZoomWindow::kTiles - 1]->kv_tile;
  return z;
}

Scene BuildWarpTimelineScene(const cuda::RunSummary& run, int max_ctas, float width_em, const std::string& lang, const Palette& pal,
                             std::vector<WarpBar>* bars, bool zoom_only) {
  using L = WarpLayout;
  Scene sc;
  sc.background = pal.background;
  sc.width = width_em;
  const std::vector<std::uint32_t> ctas = SampledCtas(run);
  if (ctas.empty()) return sc;
  const int shown = std::min(static_cast<int>(ctas.size()), std::max(1, max_ctas));
  sc.height = WarpTimelineHeight(shown);
  std::uint64_t span = 0;
  for (const auto& w : run.warp_phases)
    if (std::find(ctas.begin(), ctas.begin() + shown, w.cta) != ctas.begin() + shown) span = std::max(span, w.t_end_ns);
  const float plot_w = std::max(1.0f, width_em - L::kLabel - 0.5f);
  const double scale = span > 0 ? static_cast<double>(plot_w) / static_cast<double>(span) : 0.0;
  sc.texts.push_back({"warps.title", 0.0f, 0.0f, 1.0f, pal.text, GpuText(GpuStr::warps_title, lang)});
  const std::string& clock = GpuText(GpuStr::warps_clock, lang);
  sc.texts.push_back({"warps.clock", 0.0f, 1.15f, 0.8f, pal.text_muted, clock});
  // Zoom only: forced on (a scale of 0 em per ns is never legible), else as the panel has it.
  zoom_only = zoom_only && PickZoom(run, ctas[0], 0.0).on;
  if (shown < static_cast<int>(ctas.size()) && !zoom_only)
    sc.texts.push_back({"warps.more", LabelEm(clock, 0.8f) + 0.8f, 1.15f, 0.8f, pal.text_muted,
                        GpuFormat(GpuStr::warps_more, lang, {std::to_string(ctas.size()), std::to_string(shown)})});
  const std::string rows[kWarpgroups] = {GpuText(GpuStr::warps_producer, lang), GpuText(GpuStr::warps_consumer1, lang),
                                         GpuText(GpuStr::warps_consumer2, lang)};
  const std::uint64_t end = std::numeric_limits<std::uint64_t>::max();
  for (int c = 0; c < shown && !zoom_only; ++c) {
    const float y0 = L::kTitle + static_cast<float>(c) * (L::kHeader + kWarpgroups * L::kRow);
    const cuda::WarpPhaseRecord* first = nullptr;
    for (const auto& w : run.warp_phases)
      if (w.cta == ctas[static_cast<size_t>(c)]) { first = &w; break; }
    const std::string cs = std::to_string(c);
    sc.texts.push_back({"warps.cta." + cs, 0.0f, y0 + 0.1f, 0.85f, pal.text,
                        GpuFormat(GpuStr::warps_cta, lang, {std::to_string(first->cta), std::to_string(first->smid), std::to_string(first->q_tile)})});
    for (int g = 0; g < kWarpgroups; ++g) {
      const float y = y0 + L::kHeader + static_cast<float>(g) * L::kRow;
      const std::string rs = cs + "." + std::to_string(g);
      sc.rects.push_back(WarpBox("warpbg." + rs, L::kLabel, y, plot_w, L::kRow, g % 2 ? Color{246, 246, 246} : Color{255, 255, 255}));
      sc.texts.push_back({"warps.row." + rs, 0.3f, y + 0.15f, 0.8f, pal.text_muted, rows[g]});
      RowBars(sc, run, ctas[static_cast<size_t>(c)], g, "warp." + rs, L::kLabel, y, 0, end, scale, bars);
    }
  }
  float y = L::kTitle;
  if (!zoom_only) {
    y += static_cast<float>(shown) * (L::kHeader + kWarpgroups * L::kRow);
    TimeAxis(sc, "warps.axis", "warps", y, plot_w, 0, span, 4, true, lang, pal);
    y += L::kAxis;
  }
  // Zoom: 64 tiles in ~130 µs leave each phase a fraction of an em; a few tiles of the first CTA's
  // steady state drawn across the whole width show the pipeline (ping-pong, S under the other's softmax).
  const ZoomWindow z = PickZoom(run, ctas[0], zoom_only ? 0.0 : scale);
  if (z.on) {
    const double zscale = static_cast<double>(plot_w) / static_cast<double>(z.t1 - z.t0);
    // The window on the first CTA's rows: four thin edges (a bordered rect this narrow is painted as a
    // plain fill), a little outside the rows so they do not hide the bars.
    const float wx = L::kLabel + static_cast<float>(static_cast<double>(z.t0) * scale), wy = L::kTitle + L::kHeader - 0.1f,
                ww = std::max(0.3f, static_cast<float>(static_cast<double>(z.t1 - z.t0) * scale)), wh = kWarpgroups * L::kRow + 0.2f, t = 0.12f;
    if (!zoom_only) {
      sc.rects.push_back(WarpBox("warps.zoomwin.top", wx - t, wy - t, ww + 2 * t, t, pal.text));
      sc.rects.push_back(WarpBox("warps.zoomwin.bottom", wx - t, wy + wh, ww + 2 * t, t, pal.text));
      sc.rects.push_back(WarpBox("warps.zoomwin.left", wx - t, wy, t, wh, pal.text));
      sc.rects.push_back(WarpBox("warps.zoomwin.right", wx + ww, wy, t, wh, pal.text));
    }
    sc.texts.push_back({"warps.zoom", 0.0f, y + 0.1f, 0.85f, pal.text,
                        GpuFormat(GpuStr::warps_zoom, lang, {std::to_string(ctas[0]), std::to_string(z.j0), std::to_string(z.j1),
                                                             TimeTick(static_cast<double>(z.t0), static_cast<double>(z.t1 - z.t0)),
                                                             TimeTick(static_cast<double>(z.t1), static_cast<double>(z.t1 - z.t0))})});
    for (int g = 0; g < kWarpgroups; ++g) {
      const float ry = y + L::kHeader + static_cast<float>(g) * L::kRow;
      const std::string gs = std::to_string(g);
      sc.rects.push_back(WarpBox("warpbg.z." + gs, L::kLabel, ry, plot_w, L::kRow, g % 2 ? Color{246, 246, 246} : Color{255, 255, 255}));
      sc.texts.push_back({"warps.zrow." + gs, 0.3f, ry + 0.15f, 0.8f, pal.text_muted, rows[g]});
      RowBars(sc, run, ctas[0], g, "warp.z." + gs, L::kLabel, ry, z.t0, z.t1, zscale, bars);
    }
    y += L::kHeader + kWarpgroups * L::kRow;
    TimeAxis(sc, "warps.zaxis", "warps.zaxis", y, plot_w, z.t0, z.t1, 2, false, lang, pal);
    y += L::kAxis - 0.9f;
  }
  sc.height = Legend(sc, y, width_em, lang, pal);
  return sc;
}

}  // namespace bw::view
