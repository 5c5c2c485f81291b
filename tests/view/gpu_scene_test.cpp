// The GPU panel's geometry on the shipped recordings (issue 15): frames, the SM × time lanes, the
// tile grid's states, and the roofline placement against the H200's peaks.
#include "view/gpu_scene.h"
#include "view/gpu_roofline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "cuda/gpu_record_json.h"

namespace bw::view {
namespace {

const std::string kRoot = BLOCKWISE_ROOT;

std::vector<std::string> Recordings() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(kRoot + "/assets/gpu"))
    if (e.path().extension() == ".json") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::uint64_t T0(const cuda::RunSummary& r) {
  std::uint64_t t0 = r.tiles.front().t_start_ns;
  for (const auto& t : r.tiles) t0 = std::min(t0, t.t_start_ns);
  return t0;
}

TEST(GpuScene, FramesCountComputedTilesApartFromSkippedOnes) {
  ASSERT_FALSE(Recordings().empty());
  for (const auto& path : Recordings()) {
    SCOPED_TRACE(path);
    const cuda::RunSummary run = cuda::LoadRecordedRun(path);
    const std::uint64_t span = RunSpanNs(run);
    const GpuFrame end = FrameAt(run, span);
    EXPECT_EQ(end.computed, run.counters.tiles_total - run.counters.tiles_skipped);
    EXPECT_EQ(end.computed_total, end.computed);
    EXPECT_EQ(end.skipped, run.counters.tiles_skipped);
    EXPECT_EQ(end.skipped_total, run.counters.tiles_skipped);
    EXPECT_EQ(end.Fraction(), 1.0);
    EXPECT_EQ(end.loaded_bytes, run.counters.q.read_bytes + run.counters.k.read_bytes + run.counters.v.read_bytes);
    EXPECT_EQ(end.written_bytes, run.counters.o.write_bytes + run.counters.l.write_bytes);
    // Half-way: some computed tiles, and the fraction is computed / computed tiles (skipped ones apart).
    const GpuFrame mid = FrameAt(run, span / 2);
    EXPECT_GT(mid.computed, 0);
    EXPECT_LT(mid.computed, end.computed);
    EXPECT_EQ(mid.Fraction(), static_cast<double>(mid.computed) / static_cast<double>(end.computed));
    std::int64_t by_hand = 0;
    const std::uint64_t t0 = T0(run);
    for (const auto& t : run.tiles) by_hand += (t.flags & cuda::kTileSkipped) == 0 && t.t_end_ns - t0 <= span / 2;
    EXPECT_EQ(mid.computed, by_hand);
    // Before anything ends: nothing done.
    EXPECT_EQ(FrameAt(run, 0).computed, 0);
  }
}

TEST(GpuScene, SmLanesPlaceEveryComputedTileOnItsSmAtItsTime) {
  const Palette pal = ClassroomPalette();
  for (const auto& path : Recordings()) {
    SCOPED_TRACE(path);
    const cuda::RunSummary run = cuda::LoadRecordedRun(path);
    const std::uint64_t span = RunSpanNs(run);
    const GpuFrame f = FrameAt(run, span);
    const float w = 60.0f, h = 20.0f;
    const Scene sc = BuildSmLanesScene(f, span, w, h, "en", pal);
    ASSERT_EQ(f.sm_count, run.sm_count);
    // The layout the scene promises: 3.2 em of SM labels, 2.8 em of time axis, one lane per SM.
    const float label_w = 3.2f, plot_w = w - label_w, lane_h = (h - 2.8f) / static_cast<float>(run.sm_count);
    const std::uint64_t t0 = T0(run);
    std::set<unsigned> sms;
    int bars = 0;
    for (const auto& r : sc.rects) {
      if (r.id.rfind("lane.", 0) != 0) continue;
      ++bars;
      const unsigned sm = static_cast<unsigned>(std::stoul(r.id.substr(5)));
      sms.insert(sm);
      ASSERT_LT(sm, static_cast<unsigned>(run.sm_count));
      EXPECT_FLOAT_EQ(r.y, lane_h * static_cast<float>(sm) + lane_h * 0.1f);
      EXPECT_GE(r.x, label_w - 1e-4f);
      EXPECT_LE(r.x + r.w, label_w + plot_w + 0.06f);
    }
    EXPECT_EQ(bars, f.computed);
    // Each bar starts where its tile started: find them by (SM, order in lane) = time order of the cells.
    for (const auto& t : run.tiles) {
      if (t.flags & cuda::kTileSkipped) continue;
      const float x = label_w + static_cast<float>(static_cast<double>(t.t_start_ns - t0) * plot_w / static_cast<double>(span));
      bool found = false;
      for (const auto& r : sc.rects)
        if (r.id.rfind("lane." + std::to_string(t.smid) + ".", 0) == 0 && std::abs(r.x - x) < 1e-3f) { found = true; break; }
      ASSERT_TRUE(found) << "tile (" << t.q_tile << "," << t.kv_tile << ") on SM " << t.smid;
      break;  // one exhaustive lookup is O(n²); the first computed tile suffices here, the y check covers all
    }
    const SceneText* idle = nullptr;
    for (const auto& t : sc.texts) if (t.id == "lanes.idle") idle = &t;
    ASSERT_NE(idle, nullptr);
    EXPECT_EQ(idle->text, "SMs without a tile so far: " + std::to_string(run.sm_count - static_cast<int>(sms.size())) + " / " + std::to_string(run.sm_count));
    EXPECT_EQ(static_cast<int>(sms.size()), f.SmsUsed());
  }
}

TEST(GpuScene, GridShowsSkippedTilesStripedAndPendingApart) {
  const cuda::RunSummary run = cuda::LoadRecordedRun(kRoot + "/assets/gpu/recorded_run_h200.json");
  const GpuFrame f = FrameAt(run, RunSpanNs(run) / 2);
  const Scene sc = BuildGpuGridScene(f, 30.0f, 30.0f, "en", ClassroomPalette());
  ASSERT_EQ(sc.rects.size(), f.cells.size());
  std::set<std::tuple<int, int, int>> skipped_fills;
  for (size_t k = 0; k < f.cells.size(); ++k) {
    const auto& c = f.cells[k];
    const auto& r = sc.rects[k];
    if (c.state == GpuCell::kPending) {
      EXPECT_EQ(r.state, TileState::kPending);
      EXPECT_EQ(r.fill, kGpuPendingColor);
    } else if (c.state == GpuCell::kSkipped) {
      EXPECT_EQ(r.state, TileState::kMasked);
      skipped_fills.insert({r.fill.r, r.fill.g, r.fill.b});
    } else {
      EXPECT_EQ(r.state, TileState::kProcessed);
      EXPECT_NE(r.fill, kGpuPendingColor);
    }
  }
  EXPECT_EQ(skipped_fills.size(), 2u) << "small skipped cells alternate two greys: a stripe pattern";
  EXPECT_EQ(StartTimeColor(0.0f), (Color{253, 231, 37}));
  EXPECT_EQ(StartTimeColor(1.0f), (Color{68, 1, 84}));
}

TEST(GpuRoofline, ShippedRecordingsArePlacedAgainstTheH200Peaks) {
  cuda::DevicePeaks h200;
  ASSERT_TRUE(cuda::PeaksFor("NVIDIA H200", &h200));
  EXPECT_EQ(h200.hbm_bytes_per_s, 4.8e12);
  EXPECT_EQ(h200.tensor_flops, 989e12);
  EXPECT_EQ(h200.fp32_flops, 67e12);
  for (const auto& path : Recordings()) {
    SCOPED_TRACE(path);
    const cuda::RunSummary run = cuda::LoadRecordedRun(path);
    ASSERT_EQ(run.device_name, "NVIDIA H200");
    const RooflinePlacement p = PlaceOnRoofline(run, h200);
    const double flops = 2.0 * run.n_q * run.n_k * (run.d + run.d_v) * run.heads * (run.mask == cuda::MaskKind::None ? 1.0 : 0.5);
    const double bytes = static_cast<double>(run.counters.hbm_read_bytes() + run.counters.hbm_write_bytes());
    EXPECT_DOUBLE_EQ(p.intensity, flops / bytes);
    EXPECT_NEAR(p.attained_flops / 1e12, run.tflops, 1e-9 * run.tflops);  // the recording's own TFLOP/s
    const bool tc = run.algorithm != cuda::Algorithm::TiledFp32;
    const double peak = tc ? 989e12 : 67e12;
    EXPECT_DOUBLE_EQ(p.ridge, peak / 4.8e12);
    EXPECT_DOUBLE_EQ(p.roof_flops, std::min(peak, p.intensity * 4.8e12));
    EXPECT_LE(p.fraction_of_roof, 1.0) << "a measured kernel above its roof means a wrong count or peak";
    EXPECT_GT(p.fraction_of_roof, 0.0);
    const Scene sc = BuildRooflineScene(run, h200, 40.0f, 15.0f, "en", ClassroomPalette());
    const SceneRect* pt = sc.FindRect("roof.point");
    ASSERT_NE(pt, nullptr);
    const ScenePoint want = RooflineToScene(p.intensity, p.attained_flops, 40.0f, 15.0f);
    EXPECT_FLOAT_EQ(pt->x + pt->w / 2, want.x);
    EXPECT_FLOAT_EQ(pt->y + pt->h / 2, want.y);
    // Below its own roof on screen: the roof at that intensity is higher up (smaller y).
    EXPECT_LT(RooflineToScene(p.intensity, p.roof_flops, 40.0f, 15.0f).y, want.y + 1e-4f);
    // The roof's label in the UI's language (zh mode showed "bf16/fp16 tensor core 989 TFLOP/s").
    const auto label = [&](const char* lang) {
      for (const auto& t : BuildRooflineScene(run, h200, 40.0f, 15.0f, lang, ClassroomPalette()).texts)
        if (t.id == "roof.tensor.label") return t.text;
      return std::string("(none)");
    };
    EXPECT_EQ(label("zh"), "bf16/fp16 \u5f20\u91cf\u6838\u5fc3 989 TFLOP/s");
    EXPECT_EQ(label("en"), "bf16/fp16 tensor core 989 TFLOP/s");
  }
  // The issue-6 recording, placed by hand: fp32, N = 8192, d = 64, causal, B_r = B_c = 64, one head.
  const cuda::RunSummary r = cuda::LoadRecordedRun(kRoot + "/assets/gpu/recorded_run_h200.json");
  const double flops = 4.0 * 8192.0 * 8192.0 * 64 / 2, computed = 128.0 * 129.0 / 2;
  const double bytes = 8192.0 * 64 * 4 + 2 * computed * 64 * 64 * 4 + 8192.0 * 64 * 4 + 8192.0 * 4;
  const RooflinePlacement p = PlaceOnRoofline(r, h200);
  EXPECT_DOUBLE_EQ(p.intensity, flops / bytes);
  EXPECT_FALSE(p.memory_bound);  // ≈ 31 FLOP/B against an fp32 ridge of 67/4.8 ≈ 14
  EXPECT_NEAR(p.fraction_of_peak, 8.232196599316147e12 / 67e12, 1e-12);
}

TEST(GpuRoofline, ASlowedDownRunIsNotPlaced) {
  // Seen live on the H200 (issue 15): a run held 20 ms per tile lasts seconds, so its "TFLOP/s" is the
  // pacing's. It gets no point, and says why, instead of a dot three decades below the roof.
  cuda::DevicePeaks h200;
  ASSERT_TRUE(cuda::PeaksFor("NVIDIA H200", &h200));
  cuda::RunSummary run = cuda::LoadRecordedRun(kRoot + "/assets/gpu/recorded_run_h200.json");
  ASSERT_NE(BuildRooflineScene(run, h200, 40.0f, 15.0f, "en", ClassroomPalette()).FindRect("roof.point"), nullptr);
  run.pace_ns = 20'000'000;
  const Scene sc = BuildRooflineScene(run, h200, 40.0f, 15.0f, "en", ClassroomPalette());
  EXPECT_EQ(sc.FindRect("roof.point"), nullptr);
  const auto paced = std::find_if(sc.texts.begin(), sc.texts.end(), [](const SceneText& t) { return t.id == "roof.paced"; });
  ASSERT_NE(paced, sc.texts.end());
  EXPECT_EQ(paced->text, "Slow motion: this time measures the pacing, not the kernel,");
  EXPECT_NE(sc.FindRect("roof.tensor"), nullptr);  // the roofs are still drawn
  EXPECT_NE(sc.FindRect("roof.fp32"), nullptr);
}

TEST(GpuScene, TimeAxisTicksUseOneUnitWithGroupedDigits) {
  // µs for a kernel at full speed (the recordings: about 1 ms), ms for a slowed-down live run.
  EXPECT_EQ(TimeTick(0, 997'937), "0 \u00b5s");
  EXPECT_EQ(TimeTick(997'937, 997'937), "998 \u00b5s");
  EXPECT_EQ(TimeTick(1'880'000, 1'880'000), "1,880 \u00b5s");
  EXPECT_EQ(TimeTick(2'566'919'000.0 / 4, 2'566'919'000.0), "642 ms");
  EXPECT_EQ(TimeTick(2'566'919'000.0, 2'566'919'000.0), "2,567 ms");
  EXPECT_EQ(TimeTick(40'000, 80'000), "40.0 \u00b5s");  // under 100 units: one decimal
  EXPECT_EQ(TimeTick(30e9, 60e9), "30.0 s");
  // The lanes scene writes its ticks with it.
  const cuda::RunSummary run = cuda::LoadRecordedRun(kRoot + "/assets/gpu/recorded_run_h200.json");
  const std::uint64_t span = RunSpanNs(run);
  const Scene sc = BuildSmLanesScene(FrameAt(run, span), span, 40.0f, 13.0f, "en", ClassroomPalette());
  const auto tick = std::find_if(sc.texts.begin(), sc.texts.end(), [](const SceneText& t) { return t.id == "lanes.tick.4"; });
  ASSERT_NE(tick, sc.texts.end());
  EXPECT_EQ(tick->text, TimeTick(static_cast<double>(span), static_cast<double>(span)));
}

TEST(GpuRoofline, UnknownDevicesHaveNoPeaks) {
  cuda::DevicePeaks p;
  EXPECT_FALSE(cuda::PeaksFor("NVIDIA GeForce GTX 1080", &p));
}

}  // namespace
}  // namespace bw::view
