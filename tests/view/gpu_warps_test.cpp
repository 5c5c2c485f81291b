// Issue 33's GPU panel as data: the warp timeline from a synthetic recording made here (test data, not a
// measurement), the hover texts, the tile map's axes and the grouped SM lanes. Exact ids, counts,
// positions and texts.
#include "view/gpu_scene.h"
#include "view/gpu_tooltip.h"
#include "view/gpu_warps.h"

#include <gtest/gtest.h>

#include "cuda/gpu_record_json.h"

namespace bw::view {
namespace {

const std::string kRoot = BLOCKWISE_ROOT;

const SceneText* Text(const Scene& sc, const std::string& id) {
  for (const auto& t : sc.texts)
    if (t.id == id) return &t;
  return nullptr;
}

// Two sampled CTAs (7 on SM 12 for Q tile 3, 9 on SM 4 for Q tile 5), each warpgroup one or two phases.
cuda::RunSummary Synthetic() {
  cuda::RunSummary r;
  r.device_name = "NVIDIA H200";
  r.sm_count = 132;
  r.n_q = r.n_k = 512, r.d = r.d_v = 64, r.b_r = r.b_c = 64;
  r.mask = cuda::MaskKind::CausalTopLeft;
  r.kernel = "synthetic";
  using P = cuda::WarpPhase;
  const auto add = [&](std::uint32_t cta, std::uint32_t sm, std::uint8_t wg, P p, std::uint32_t i, std::uint32_t j, std::uint64_t a, std::uint64_t b) {
    cuda::WarpPhaseRecord w;
    w.cta = cta, w.smid = sm, w.warpgroup = wg, w.phase = p, w.q_tile = i, w.kv_tile = j, w.t_start_ns = a, w.t_end_ns = b;
    r.warp_phases.push_back(w);
  };
  add(7, 12, 0, P::kTmaIssue, 3, 0, 0, 100);
  add(7, 12, 1, P::kWgmmaS, 3, 0, 100, 400);
  add(7, 12, 1, P::kSoftmax, 3, 0, 400, 600);
  add(7, 12, 2, P::kTmaWait, 3, 1, 0, 500);
  add(9, 4, 0, P::kTmaIssue, 5, 2, 0, 50);
  add(9, 4, 2, P::kWrite, 5, 2, 700, 800);
  return r;
}

TEST(GpuWarps, OneRowPerWarpgroupABarPerPhaseAnAxisAndALegend) {
  const cuda::RunSummary run = Synthetic();
  std::vector<WarpBar> bars;
  const Scene sc = BuildWarpTimelineScene(run, 3, 47.0f, "en", ClassroomPalette(), &bars);
  // 40 em of plot (47 − 6.5 label − 0.5), 800 ns the latest end: 0.05 em per ns.
  EXPECT_EQ(Text(sc, "warps.title")->text, "Warpgroup timeline \u00b7 measured");
  EXPECT_EQ(Text(sc, "warps.clock")->text, "timed with the SM's own clock (clock64), in ns");
  EXPECT_EQ(Text(sc, "warps.cta.0")->text, "CTA 7 \u00b7 SM 12 \u00b7 Q tile 3");
  EXPECT_EQ(Text(sc, "warps.cta.1")->text, "CTA 9 \u00b7 SM 4 \u00b7 Q tile 5");
  EXPECT_EQ(Text(sc, "warps.row.1.0")->text, "producer");
  EXPECT_EQ(Text(sc, "warps.row.0.2")->text, "consumer 2");
  EXPECT_EQ(Text(sc, "warps.more"), nullptr);
  ASSERT_EQ(bars.size(), run.warp_phases.size());
  const SceneRect* softmax = sc.FindRect("warp.0.1.1");  // CTA 7, consumer 1, its second phase
  ASSERT_NE(softmax, nullptr);
  EXPECT_FLOAT_EQ(softmax->x, 6.5f + 400 * 0.05f);
  EXPECT_FLOAT_EQ(softmax->w, 200 * 0.05f);
  EXPECT_FLOAT_EQ(softmax->y, 2.4f + 1.2f + 1.2f + 0.15f);
  EXPECT_EQ(softmax->fill, WarpPhaseColor(cuda::WarpPhase::kSoftmax));
  EXPECT_EQ(bars[2].id, "warp.0.1.1");
  EXPECT_EQ(bars[2].tile, (GpuTileRef{3, 0}));
  EXPECT_EQ(bars[2].record, 2u);
  const SceneRect* write = sc.FindRect("warp.1.2.0");
  ASSERT_NE(write, nullptr);
  EXPECT_FLOAT_EQ(write->y, 2.4f + 4.8f + 1.2f + 2 * 1.2f + 0.15f);
  // The axis under both CTAs, ticks in µs, its title; the legend's seven phases, wrapped to the width.
  const SceneRect* axis = sc.FindRect("warps.axis");
  ASSERT_NE(axis, nullptr);
  EXPECT_FLOAT_EQ(axis->y, 2.4f + 2 * 4.8f + 0.1f);
  EXPECT_EQ(Text(sc, "warps.tick.0")->text, "0.0 \u00b5s");
  EXPECT_EQ(Text(sc, "warps.tick.4")->text, "0.8 \u00b5s");
  EXPECT_EQ(Text(sc, "warps.axis.title")->text, "time \u2192 (since the CTA's first stamp)");
  for (int p = 0; p < 7; ++p) {
    ASSERT_NE(sc.FindRect("warps.legend." + std::to_string(p)), nullptr) << p;
    EXPECT_EQ(Text(sc, "warps.legend." + std::to_string(p) + ".text")->text, WarpPhaseWord(static_cast<cuda::WarpPhase>(p), "en"));
  }
  EXPECT_EQ(Text(sc, "warps.legend.3.text")->text, "softmax");
  for (const auto& r : sc.rects) EXPECT_LE(r.x + r.w, sc.width + 1e-4f) << r.id;
  EXPECT_GE(sc.height, WarpTimelineHeight(2));
  EXPECT_FLOAT_EQ(WarpTimelineHeight(2), 2.4f + 2 * 4.8f + 2.4f + 1.5f);
  // One CTA at most: the other is named, not drawn.
  const Scene one = BuildWarpTimelineScene(run, 1, 47.0f, "zh", ClassroomPalette());
  EXPECT_EQ(Text(one, "warps.more")->text, "\uff08\u5171\u91c7\u6837 2 \u4e2a CTA\uff0c\u663e\u793a\u524d 1 \u4e2a\uff09");
  EXPECT_EQ(one.FindRect("warp.1.2.0"), nullptr);
  // No phases: nothing to draw (the panel says so in one line instead).
  cuda::RunSummary none = run;
  none.warp_phases.clear();
  const Scene empty = BuildWarpTimelineScene(none, 3, 40.0f, "en", ClassroomPalette());
  EXPECT_TRUE(empty.rects.empty());
  EXPECT_TRUE(empty.texts.empty());
}

TEST(GpuTooltip, SaysTheSmTimesBytesAndWhyATileWasSkipped) {
  cuda::RunSummary r = Synthetic();
  r.n_q = r.n_k = 128;  // 2 × 2 tiles
  r.counters.tiles_skipped = 1;
  const auto tile = [](std::uint32_t i, std::uint32_t j, std::uint32_t sm, std::uint64_t a, std::uint64_t b, std::uint32_t in,
                       std::uint32_t out, std::uint32_t flags) {
    cuda::TileRecord t;
    t.q_tile = i, t.kv_tile = j, t.smid = sm, t.t_start_ns = a, t.t_end_ns = b, t.bytes_loaded = in, t.bytes_written = out, t.flags = flags;
    return t;
  };
  r.tiles = {tile(0, 0, 3, 1'000'000, 1'010'000, 49152, 16640, 0), tile(0, 1, 3, 1'010'000, 1'010'000, 0, 0, cuda::kTileSkipped),
             tile(1, 0, 57, 1'012'346, 1'020'000, 49152, 0, 0)};
  const GpuFrame f = FrameAt(r, RunSpanNs(r));
  EXPECT_EQ(GpuTileTooltip(f, {1, 0}, "en"),
            "Q tile i = 1 \u00b7 K/V tile j = 0\nran on SM 57 (measured)\n"
            "start 12.35 \u00b5s \u00b7 end 20.00 \u00b5s (since the run's start, measured)\n"
            "loaded 49.2 kB \u00b7 written 0.0 kB (measured counters)");
  EXPECT_EQ(GpuTileTooltip(f, {0, 1}, "en"),
            "Q tile i = 0 \u00b7 K/V tile j = 1\nloaded 0.0 kB \u00b7 written 0.0 kB (measured counters)\n"
            "skipped: fully masked \u2014 causal, never loaded");
  EXPECT_EQ(GpuTileTooltip(f, {1, 1}, "en"), "Q tile i = 1 \u00b7 K/V tile j = 1\nnot done yet at this point of the replay");
  EXPECT_EQ(GpuTileTooltip(f, {2, 0}, "en"), "");
  const std::string zh = GpuTileTooltip(f, {0, 0}, "zh");
  EXPECT_EQ(zh.substr(0, zh.find('\n')), "Q \u5757 i = 0 \u00b7 K/V \u5757 j = 0");
  EXPECT_EQ(GpuWarpTooltip(r.warp_phases[2], "en"),
            "consumer 1 \u00b7 softmax \u00b7 K/V tile j = 0\n400 ns \u2192 600 ns (since CTA 7's first stamp, SM 12's clock, measured)");
  EXPECT_EQ(GpuShortTime(12'345), "12.35 \u00b5s");
}

// A tall grid (every head's Q tiles: 4 heads × 64 = 256 rows, 64 K/V tiles) in a small square is narrow:
// its K/V-tile labels keep a clear gap (they fell on each other, "31", "47", "0", "63" as one blot, in
// FA3's scenes on the projector) and fewer of them are drawn, never overlapping ones.
TEST(GpuScene, GridTickLabelsNeverOverlapOnANarrowGrid) {
  const cuda::RunSummary run = cuda::LoadRecordedRun(kRoot + "/assets/gpu/recorded_run_h200_hopper_bf16_n8192_d128_none.json");
  const GpuFrame f = FrameAt(run, RunSpanNs(run));
  ASSERT_EQ(f.rows, 256);
  ASSERT_EQ(f.t_c, 64);
  for (float side : {8.0f, 12.0f, 20.0f, 40.0f}) {
    const Scene grid = BuildGpuGridScene(f, side, side, "en", ClassroomPalette());
    std::vector<const SceneText*> ticks;
    for (const auto& t : grid.texts)
      if (t.id.rfind("grid.j.", 0) == 0) ticks.push_back(&t);
    ASSERT_FALSE(ticks.empty()) << side;
    EXPECT_EQ(ticks.front()->text, "0");
    for (size_t a = 1; a < ticks.size(); ++a) {
      const float prev_right = ticks[a - 1]->x + 0.45f * static_cast<float>(ticks[a - 1]->text.size());
      EXPECT_GE(ticks[a]->x - prev_right, 0.45f * static_cast<float>(ticks[a]->text.size())) << "side " << side << ": "
                                                                                       << ticks[a - 1]->text << " / " << ticks[a]->text;
    }
    if (side >= 40.0f) EXPECT_EQ(ticks.back()->text, "63");  // room for every tick: the last tile is labelled
  }
  // The compact thumbnail (a lesson scene shrunk for the floors): no ticks, one line naming both axes, no counts.
  const Scene thumb = BuildGpuGridScene(f, 8.0f, 8.0f, "en", ClassroomPalette(), /*compact=*/true);
  for (const auto& t : thumb.texts) EXPECT_EQ(t.id.rfind("grid.", 0) == 0 && t.id != "grid.axes", false) << t.id;
  EXPECT_EQ(Text(thumb, "grid.axes")->text, "Q tile i \u2193 \u00b7 K/V tile j \u2192");
}

TEST(GpuScene, TheTileMapHasAxesAndTheLanesGroup132Sms) {
  const cuda::RunSummary run = cuda::LoadRecordedRun(kRoot + "/assets/gpu/recorded_run_h200.json");
  const GpuFrame f = FrameAt(run, RunSpanNs(run));
  const Scene grid = BuildGpuGridScene(f, 30.0f, 30.0f, "en", ClassroomPalette());
  const float cell = (30.0f - kGridLeft) / 128.0f;  // 128 × 128 tiles; the width is the tighter side
  EXPECT_FLOAT_EQ(GpuGridCellEm(f, 30.0f, 30.0f), cell);
  EXPECT_FLOAT_EQ(grid.FindRect("gpu.1,1")->x, kGridLeft);
  EXPECT_FLOAT_EQ(grid.FindRect("gpu.1,1")->y, kGridTop);
  EXPECT_FLOAT_EQ(grid.FindRect("gpu.128,128")->y, kGridTop + 127 * cell);
  EXPECT_EQ(Text(grid, "grid.axis.j")->text, "K/V tile j \u2192");
  EXPECT_EQ(Text(grid, "grid.axis.i")->text, "Q tile i \u2193");
  EXPECT_EQ(Text(grid, "grid.j.4")->text, "127");
  EXPECT_EQ(Text(grid, "grid.i.2")->text, "63");
  EXPECT_FLOAT_EQ(Text(grid, "grid.i.2")->y, kGridTop + 63.5f * cell - 0.45f);
  EXPECT_EQ(grid.rects.size(), f.cells.size());
  // 132 SMs in 13 − 2.8 em: 7 a lane (the least that gives each group 1.25 em), 19 lanes, each labelled.
  EXPECT_EQ(SmsPerLane(132, 10.2f), 17);
  EXPECT_EQ(SmsPerLane(132, 21.2f), 8);
  EXPECT_EQ(SmsPerLane(8, 20.0f), 1);
  GpuBarTiles bars;
  const Scene lanes = BuildSmLanesScene(f, RunSpanNs(run), 40.0f, 24.0f, "en", ClassroomPalette(), 8, &bars);
  EXPECT_EQ(Text(lanes, "lanes.sm.0")->text, "SM 0\u20137");
  EXPECT_EQ(Text(lanes, "lanes.sm.16")->text, "SM 128\u2013131");
  EXPECT_EQ(lanes.FindRect("lanebg.17"), nullptr);
  EXPECT_FLOAT_EQ(lanes.FindRect("lanebg.16")->h, 4 * 21.2f / 132);
  EXPECT_EQ(Text(lanes, "lanes.axis.y")->text, "SM \u2193");
  EXPECT_EQ(Text(lanes, "lanes.axis.x")->text, "time \u2192 (measured)");
  EXPECT_FLOAT_EQ(Text(lanes, "lanes.axis.x")->y, 21.2f + 1.6f);
  EXPECT_EQ(static_cast<std::int64_t>(bars.size()), f.computed);
  const SceneRect* first = lanes.FindRect(bars.front().first);
  ASSERT_NE(first, nullptr);
  const GpuCell& c = f.cells[static_cast<size_t>(bars.front().second.row) * f.t_c + bars.front().second.col];
  EXPECT_EQ(first->id.rfind("lane." + std::to_string(c.smid) + ".", 0), 0u);
  EXPECT_FLOAT_EQ(first->x, 4.6f + static_cast<float>(static_cast<double>(c.t_start_ns - f.t0_ns) * 35.4 / RunSpanNs(run)));
}

}  // namespace
}  // namespace bw::view
