// The warp timeline (issue 33) as data: for each sampled CTA of a recording with warp phases, one row
// per warpgroup (producer, consumer 1, consumer 2) and one bar per recorded phase, coloured by phase
// (a legend below), over a time axis in ns/µs since that CTA's first stamp — measured with the SM's own
// clock (clock64), and the scene says so. FA-3 and FA-4 explainers draw this picture from a model;
// this one is the recording's. Sizes in em; the app's GPU panel paints it beside the SM × time lanes.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cuda/gpu_types.h"
#include "view/gpu_scene.h"
#include "view/scene.h"

namespace bw::view {

inline constexpr int kWarpgroups = 3;  // 0 producer, 1 and 2 consumers

// The phase's colour (Okabe–Ito hues, idle grey) and its legend word.
Color WarpPhaseColor(cuda::WarpPhase p);
std::string WarpPhaseWord(cuda::WarpPhase p, const std::string& lang);

// The sampled CTAs in the order they first appear in run.warp_phases.
std::vector<std::uint32_t> SampledCtas(const cuda::RunSummary& run);

// Layout, in em: a title and the clock it was measured with (two rows), then per CTA shown a header row ("CTA c · SM s · Q tile i") and three
// warpgroup rows, then the time axis (tick labels, then its title on a line of its own), the zoom when
// there is one (below), and the legend, wrapped to the width (1.5 em a row). Height without a zoom =
// 2.4 + shown·(1.2 + 3·1.2) + 2.4 + 1.5·legend rows; WarpTimelineHeight gives it for one legend row.
struct WarpLayout {
  static constexpr float kTitle = 2.4f, kHeader = 1.2f, kRow = 1.2f, kAxis = 2.4f, kLegend = 1.5f, kLabel = 6.5f;
};
float WarpTimelineHeight(int ctas_shown);

// Ids: "warps.title", "warps.clock"; per shown CTA c (0-based, in SampledCtas order): "warps.cta.c", row labels
// "warps.row.c.w", row backgrounds "warpbg.c.w", bars "warp.c.w.k" (k = the phase's order in its row);
// "warps.axis", ticks "warps.tick.0..4" (TimeTick of span·k/4, span = the latest end shown),
// "warps.axis.title" (TimeAxis in gpu_warps.cpp: "warps.axis.mark.k" the tick marks); legend "warps.legend.p" (rect) and "warps.legend.p.text"; "warps.more" when more
// CTAs were sampled than shown. `bars` (optional) gets each bar's id, its tile in the grid (row q_tile,
// column kv_tile) and its index in run.warp_phases. An empty run.warp_phases gives an empty scene.
// The zoom: when the first shown CTA's tiles last less than kMinTileEm each on the whole-run axis (64
// tiles of ~2 µs in ~130 µs: every phase a sliver), kTiles consecutive tiles of its consumer 1 from the
// middle of its loop (the pipeline's steady state), [t0, t1) from the start of tile j0's S = QK^T to the
// start of the next one after j1, drawn across the plot's width for all three warpgroups: the header
// "zoom: CTA c · K/V tiles j = j0…j1 · t0 → t1" ("warps.zoom"), rows "warps.zrow.w" / "warpbg.z.w", bars
// "warp.z.w.k" (clipped to the window; hoverable like the others), its own axis "warps.zaxis" with
// ticks "warps.zaxis.tick.0..2", and the window outlined on the first CTA's rows ("warps.zoomwin.top",
// ".bottom", ".left", ".right").
struct ZoomWindow {
  static constexpr int kTiles = 3;
  static constexpr double kMinTileEm = 1.5;
  bool on = false;
  std::uint64_t t0 = 0, t1 = 0;  // ns since the CTA's first stamp
  std::uint32_t j0 = 0, j1 = 0;
};
// `em_per_ns`: the whole-run axis's scale. Off when legible already, or fewer than 2·kTiles tiles.
ZoomWindow PickZoom(const cuda::RunSummary& run, std::uint32_t cta, double em_per_ns);

struct WarpBar {
  std::string id;
  GpuTileRef tile;
  size_t record = 0;
};
// `zoom_only`: the title, the zoom (always, wherever the first CTA has 2·kTiles tiles) and the legend,
// drawn from kTitle em down, without the whole CTAs' rows, their axis or the window's outline — a
// lesson's picture of the ping-pong (gpu_run scenes with "scene": "warps"); else as above.
Scene BuildWarpTimelineScene(const cuda::RunSummary& run, int max_ctas, float width_em, const std::string& lang,
                             const Palette& palette, std::vector<WarpBar>* bars = nullptr, bool zoom_only = false);

}  // namespace bw::view
