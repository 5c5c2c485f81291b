// The warp timeline; see gpu_warps.h.
#include "view/gpu_warps.h"

#include <algorithm>

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

// The axis, its ticks and title, and the legend (wrapped to `width_em`), below the rows that end at
// `y`; returns where the legend ends.
float AxisAndLegend(Scene& sc, float y, float width_em, float plot_w, std::uint64_t span, const std::string& lang, const Palette& pal) {
  using L = WarpLayout;
  sc.rects.push_back(WarpBox("warps.axis", L::kLabel, y + 0.1f, plot_w, 0.08f, pal.text));
  for (int k = 0; k <= 4; ++k)
    sc.texts.push_back({"warps.tick." + std::to_string(k), L::kLabel + plot_w * static_cast<float>(k) / 4.0f - (k == 4 ? 3.0f : 0.0f),
                        y + 0.35f, 0.8f, pal.text, TimeTick(static_cast<double>(span) * k / 4.0, static_cast<double>(span))});
  sc.texts.push_back({"warps.axis.title", L::kLabel, y + 1.25f, 0.8f, pal.text_muted, GpuText(GpuStr::warps_time, lang)});
  float ly = y + L::kAxis, x = 0;
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

}  // namespace

Scene BuildWarpTimelineScene(const cuda::RunSummary& run, int max_ctas, float width_em, const std::string& lang, const Palette& pal,
                             std::vector<WarpBar>* bars) {
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
  if (shown < static_cast<int>(ctas.size()))
    sc.texts.push_back({"warps.more", LabelEm(clock, 0.8f) + 0.8f, 1.15f, 0.8f, pal.text_muted,
                        GpuFormat(GpuStr::warps_more, lang, {std::to_string(ctas.size()), std::to_string(shown)})});
  const std::string rows[kWarpgroups] = {GpuText(GpuStr::warps_producer, lang), GpuText(GpuStr::warps_consumer1, lang),
                                         GpuText(GpuStr::warps_consumer2, lang)};
  for (int c = 0; c < shown; ++c) {
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
      int k = 0;
      for (size_t n = 0; n < run.warp_phases.size(); ++n) {
        const cuda::WarpPhaseRecord& w = run.warp_phases[n];
        if (w.cta != ctas[static_cast<size_t>(c)] || w.warpgroup != g) continue;
        SceneRect r = WarpBox("warp." + rs + "." + std::to_string(k++), L::kLabel + static_cast<float>(static_cast<double>(w.t_start_ns) * scale),
                          y + 0.15f, std::max(0.05f, static_cast<float>(static_cast<double>(w.t_end_ns - w.t_start_ns) * scale)),
                          L::kRow - 0.3f, WarpPhaseColor(w.phase));
        if (bars) bars->push_back({r.id, GpuTileRef{static_cast<int>(w.q_tile), static_cast<int>(w.kv_tile)}, n});
        sc.rects.push_back(std::move(r));
      }
    }
  }
  sc.height = AxisAndLegend(sc, L::kTitle + static_cast<float>(shown) * (L::kHeader + kWarpgroups * L::kRow), width_em, plot_w, span, lang, pal);
  return sc;
}

}  // namespace bw::view
