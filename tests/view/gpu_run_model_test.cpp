// GpuRunModel (view/gpu_run_model.h): a recorded H200 run as a lesson's scenario — its events and
// positions, the measured quantities against the recording, the model's counters, the comparison
// with a second recording, the warpgroups' phase shares, and the loader's errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "data/load_error.h"
#include "view/gpu_run_model.h"
#include "view/gpu_warps.h"

namespace fs = std::filesystem;
using namespace bw::view;

namespace {

const std::string kRoot = BLOCKWISE_ROOT;

fs::path Scenario(const std::string& name, const std::string& body) {
  const fs::path dir = fs::temp_directory_path() / "bw_gpu_run_test";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << body;
  return p;
}

// A recording named relative to the scenarios Scenario() writes.
std::string Rec(const std::string& f) {
  const fs::path dir = fs::temp_directory_path() / "bw_gpu_run_test";
  return "\"" + fs::relative(fs::path(kRoot) / "assets/gpu" / f, dir).generic_string() + "\"";
}

}  // namespace

TEST(GpuRunModel, EventsPositionsAndMeasuredNumbers) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/gpu_fa2_bf16_h200.json");
  ASSERT_EQ(m->Kind(), "gpu_run");
  EXPECT_EQ(m->FindPosition("start"), 0);
  const int tail = m->FindPosition("tail"), end = m->FindPosition("end");
  EXPECT_GT(tail, 0);
  EXPECT_LT(tail, end);
  EXPECT_EQ(end, m->EventCount() - 1);
  EXPECT_EQ(m->EventCount(), GpuRunModel::kFrames + 2);  // start, the frames, the tail
  EXPECT_EQ(m->FindPosition("compare"), -1) << "no comparison in this scenario";
  EXPECT_EQ(m->FindPosition("event:3"), 2);
  const auto s = m->QuantitiesAt(0), e = m->QuantitiesAt(end);
  // One head, N 8192, B_r 128: 64 CTAs on 64 of the 132 SMs.
  EXPECT_EQ(e.at("ctas"), "64");
  EXPECT_EQ(e.at("sms_used"), "64");
  EXPECT_EQ(e.at("sms_idle"), "68");
  EXPECT_EQ(e.at("kernel_us"), "320.0");
  EXPECT_EQ(e.at("tflops"), "107.4");
  EXPECT_EQ(e.at("peak_tflops"), "989");
  // The kernel's counters equal the model's prediction, byte for byte.
  EXPECT_EQ(e.at("bytes_read"), "270,532,608");
  EXPECT_EQ(e.at("bytes_read"), e.at("model_bytes_read"));
  EXPECT_EQ(e.at("bytes_written"), e.at("model_bytes_written"));
  EXPECT_EQ(e.at("bytes_read_diff"), "0");
  EXPECT_EQ(s.at("tiles_done"), "0");
  EXPECT_EQ(s.at("busy_sms"), "0");
  EXPECT_EQ(e.at("tiles_done"), e.at("tiles_computed"));
  EXPECT_EQ(e.at("tiles_computed"), "8,192");
  const auto mid = m->QuantitiesAt(m->FindPosition("event:7"));
  EXPECT_EQ(mid.at("busy_sms"), "64");
  // Idle share: at least the SMs that never ran a tile.
  EXPECT_GE(std::stod(e.at("idle_share_pct")), 100.0 * 68 / 132 - 0.05);
  for (int ev = 0; ev < m->EventCount(); ++ev) {
    const Scene sc = m->BuildScene(ev, "en", ClassroomPalette());
    EXPECT_NE(sc.FindRect("gpu.1,1"), nullptr) << ev;
    EXPECT_NE(sc.FindRect("gpu.64,128"), nullptr) << ev;
    EXPECT_FALSE(m->Panels(ev, "zh").empty());
  }
}

TEST(GpuRunModel, TheCausalRunsTail) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/gpu_fa2_bf16_causal_h200.json");
  const auto q = m->QuantitiesAt(m->FindPosition("tail"));
  EXPECT_EQ(q.at("tiles_skipped"), "8,128");
  EXPECT_EQ(q.at("model_tiles_skipped"), "8,128");
  EXPECT_EQ(q.at("bytes_read"), q.at("model_bytes_read"));
  // Q tile 1 has one tile: the first SM is done long before the end.
  EXPECT_GT(std::stod(q.at("tail_share_pct")), 50.0);
  EXPECT_LT(std::stod(q.at("t_us")), std::stod(q.at("span_us")));
}

TEST(GpuRunModel, AComparisonAddsItsPositionAndNumbers) {
  fs::create_directories(fs::temp_directory_path() / "bw_gpu_run_test");
  const auto p = Scenario("cmp.json", R"({"schema_version": 1, "kind": "gpu_run", "recording": )" +
                                          Rec("recorded_run_h200_bf16_n8192_d128_causal_top_left.json") + R"(, "compare": )" +
                                          Rec("recorded_run_h200_fp32_n8192_d128_causal_top_left.json") + "}");
  const auto m = LoadScenarioModel(p);
  const int c = m->FindPosition("compare");
  ASSERT_EQ(c, m->EventCount() - 1);
  const auto q = m->QuantitiesAt(c);
  EXPECT_EQ(q.at("compare_kernel"), "tiled_fa2_fp32");
  EXPECT_GT(std::stod(q.at("speedup")), 1.0) << "the tensor-core kernel is faster than the fp32 one";
  const Scene sc = m->BuildScene(c, "en", ClassroomPalette());
  bool both = false;
  for (const auto& t : sc.texts) both |= t.id == "cmp.title.2";
  EXPECT_TRUE(both);
  // The same problem (N 8192, d 128, 1 head, causal): the ratio is the speed-up, and the panel says so.
  EXPECT_EQ(q.at("compare_same_problem"), "1");
  const auto rows_of = [&](int e, const std::string& lang) {
    for (const auto& s : m->Panels(e, lang))
      if (s.id == "compare") return s.rows;
    return std::vector<PanelRow>{};
  };
  const auto same = rows_of(c, "en");
  ASSERT_GE(same.size(), 2u);
  EXPECT_EQ(same[same.size() - 2].name, "the same problem: the time ratio is the speed-up");
  EXPECT_FALSE(same[same.size() - 2].notice);
  EXPECT_EQ(same.back().name, "this run faster by");
}

// A comparison of two different problems (the Hopper recording's 4 heads, no mask, against the FA-2
// recording's 1 head, causal) says which, as a notice, and calls its ratio a throughput ratio: the time
// ratio of two different amounts of work is no speed-up.
TEST(GpuRunModel, AComparisonOfADifferentProblemIsFlagged) {
  fs::create_directories(fs::temp_directory_path() / "bw_gpu_run_test");
  const auto p = Scenario("cmp_other.json", R"({"schema_version": 1, "kind": "gpu_run", "recording": )" +
                                                Rec("recorded_run_h200_hopper_bf16_n8192_d128_none.json") + R"(, "compare": )" +
                                                Rec("recorded_run_h200_bf16_n8192_d128_causal_top_left.json") + "}");
  const auto m = LoadScenarioModel(p);
  const int c = m->FindPosition("compare");
  const auto q = m->QuantitiesAt(c);
  EXPECT_EQ(q.at("compare_same_problem"), "0");
  EXPECT_EQ(q.at("compare_problem"), "N 8,192 \u00b7 d 128 \u00b7 heads 1 \u00b7 causal_top_left");
  for (const char* lang : {"en", "zh"}) {
    std::vector<PanelRow> rows;
    for (const auto& s : m->Panels(c, lang))
      if (s.id == "compare") rows = s.rows;
    ASSERT_GE(rows.size(), 2u) << lang;
    const PanelRow& note = rows[rows.size() - 2];
    EXPECT_TRUE(note.notice) << lang;
    if (std::string(lang) == "en") {
      EXPECT_EQ(note.name, "not the same problem (N 8,192 \u00b7 d 128 \u00b7 heads 1 \u00b7 causal (top-left)): the times don't compare, only the throughput");
      EXPECT_EQ(rows.back().name, "throughput ratio (TFLOP/s)");
    }
    for (const auto& r : rows) EXPECT_EQ((r.name + r.value).find("causal_top_left"), std::string::npos) << "an id on screen: " << r.name;
  }
}

TEST(GpuRunModel, ErrorsNameTheScenarioAndTheField) {
  const auto p = Scenario("missing.json", R"({"schema_version": 1, "kind": "gpu_run", "recording": "nope.json"})");
  try {
    LoadScenarioModel(p);
    ADD_FAILURE() << "loaded";
  } catch (const bw::data::LoadError& e) {
    EXPECT_EQ(e.json_path(), "/recording");
    EXPECT_NE(e.reason().find("the recording does not load"), std::string::npos) << e.what();
  }
  const auto a = Scenario("absolute.json", R"({"schema_version": 1, "kind": "gpu_run", "recording": "/x.json"})");
  try {
    LoadScenarioModel(a);
    ADD_FAILURE() << "loaded";
  } catch (const bw::data::LoadError& e) {
    EXPECT_EQ(e.json_path(), "/recording");
    EXPECT_NE(e.reason().find("absolute"), std::string::npos) << e.what();
  }
}

TEST(GpuRunModel, WarpPhaseSharesPerWarpgroup) {
  bw::cuda::RunSummary r;
  using bw::cuda::WarpPhase;
  const auto add = [&](int wg, WarpPhase ph, std::uint64_t a, std::uint64_t b) {
    bw::cuda::WarpPhaseRecord w;
    w.warpgroup = static_cast<std::uint8_t>(wg);
    w.phase = ph;
    w.t_start_ns = a;
    w.t_end_ns = b;
    r.warp_phases.push_back(w);
  };
  add(1, WarpPhase::kSoftmax, 0, 30);
  add(1, WarpPhase::kWgmmaS, 30, 100);
  add(2, WarpPhase::kIdle, 0, 50);
  add(2, WarpPhase::kSoftmax, 50, 100);
  EXPECT_DOUBLE_EQ(WarpPhaseShare(r, 1, WarpPhase::kSoftmax), 0.3);
  EXPECT_DOUBLE_EQ(WarpPhaseShare(r, 2, WarpPhase::kIdle), 0.5);
  EXPECT_DOUBLE_EQ(WarpPhaseShare(r, 0, WarpPhase::kTmaIssue), 0.0);
}

// "scene": "warps" (FA3/h7, h8, h8a): every position draws the recording's warp timeline as the GPU
// panel does (gpu_warps.h), zoomed on three tiles — the three warpgroups' rows, the phases in the
// panel's colours, titled with the device it was measured on — and no tile grid or SM lanes; laid out
// for a projector's frame, its rows and labels grow with the text scale (the painter's 1.6).
TEST(GpuRunModel, AWarpsSceneDrawsTheMeasuredWarpTimeline) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/gpu_hopper_warps_h200.json");
  const auto& run = dynamic_cast<const GpuRunModel&>(*m).run();
  ASSERT_FALSE(run.warp_phases.empty());
  const Palette pal = ClassroomPalette();
  for (const char* lang : {"zh", "en"}) {
    const Scene sc = m->BuildScene(m->FindPosition("end"), lang, pal);
    const auto text = [&](const std::string& id) -> const SceneText* {
      for (const auto& t : sc.texts)
        if (t.id == id) return &t;
      return nullptr;
    };
    ASSERT_NE(text("warps.title"), nullptr);
    EXPECT_NE(text("warps.title")->text.find(run.device_name), std::string::npos) << text("warps.title")->text;
    ASSERT_NE(text("warps.zoom"), nullptr) << "the zoom on three tiles";
    EXPECT_EQ(sc.FindRect("gpu.1,1"), nullptr) << "no tile grid";
    EXPECT_EQ(sc.FindRect("lanes.axis"), nullptr) << "no SM lanes";
    EXPECT_EQ(sc.FindRect("warpbg.0.0"), nullptr) << "the zoom only, not the whole CTA";
    int bars[kWarpgroups] = {};
    for (int w = 0; w < kWarpgroups; ++w) {
      ASSERT_NE(sc.FindRect("warpbg.z." + std::to_string(w)), nullptr);
      ASSERT_NE(text("warps.zrow." + std::to_string(w)), nullptr);
      for (const auto& r : sc.rects)
        if (r.id.rfind("warp.z." + std::to_string(w) + ".", 0) == 0) ++bars[w];
    }
    EXPECT_GT(bars[0], 0);
    EXPECT_GE(bars[1], 6) << "three tiles: S, softmax and PV at least twice";
    EXPECT_GE(bars[2], 6);
    // The phases in the panel's colours: the legend's swatches are WarpPhaseColor.
    EXPECT_EQ(sc.FindRect("warps.legend.3")->fill, WarpPhaseColor(bw::cuda::WarpPhase::kSoftmax));
  }
  // On a projector's frame the layout grows with the text scale: rows 1.6 × the panel's 1.2 em.
  SceneFrame projector{1340, 600, 1.6f, true, true, 24, 36, 1.448f};
  const Scene p = m->BuildScene(m->FindPosition("end"), "en", pal, projector);
  EXPECT_FLOAT_EQ(p.FindRect("warpbg.z.1")->h, 1.6f * WarpLayout::kRow);
  // Without warp phases a warps scene is refused, naming "/scene".
  const fs::path bad = Scenario("warps_no_phases.json", R"({"schema_version": 1, "kind": "gpu_run", "scene": "warps", "recording": )" +
                                                            Rec("recorded_run_h200_bf16_n8192_d128_none.json") + "}");
  try {
    LoadScenarioModel(bad.string());
    ADD_FAILURE() << "loaded";
  } catch (const bw::data::LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("/scene"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no warp phases"), std::string::npos) << e.what();
  }
}

// A teacher's walkthrough of FA3/h2–h6 on a 1080p projector: 132 lanes of 1.6 px each hid the 68 SMs that
// never got a CTA. The lesson's lanes put the SMs that compute on top and the others in one grey band,
// each band named by its count; at the start, where nothing has run, that split answers h2's question
// (how many SMs get work?) and is held back until the reveal.
TEST(GpuRunModel, TheLanesBandTheSmsThatComputeAndTheIdleOnes) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/gpu_fa2_bf16_h200.json");
  const auto text = [](const Scene& sc, const std::string& id) -> const SceneText* {
    for (const auto& t : sc.texts)
      if (t.id == id) return &t;
    return nullptr;
  };
  const Scene mid = m->BuildScene(m->FindPosition("event:7"), "en", ClassroomPalette());
  const SceneRect* used = mid.FindRect("lanes.band.used");
  const SceneRect* idle = mid.FindRect("lanes.band.idle");
  ASSERT_NE(used, nullptr);
  ASSERT_NE(idle, nullptr);
  EXPECT_NEAR(idle->h / (used->h + idle->h), 68.0 / 132.0, 1e-4);
  EXPECT_FALSE(idle->answer);
  ASSERT_NE(text(mid, "lanes.band.idle.n"), nullptr);
  EXPECT_EQ(text(mid, "lanes.band.idle.n")->text, "68 SMs");
  EXPECT_EQ(text(mid, "lanes.band.used.n")->text, "64 SMs");
  EXPECT_EQ(text(mid, "lanes.sm.0"), nullptr) << "no SM indices: the lanes are reordered";
  int bars = 0;
  for (const auto& r : mid.rects)
    if (r.id.rfind("lane.", 0) == 0) {
      ++bars;
      EXPECT_GE(r.y, used->y) << r.id;
      EXPECT_LE(r.y + r.h, used->y + used->h + 1e-4f) << r.id << ": a bar in the idle band";
    }
  EXPECT_EQ(bars, 4096);
  const Scene start = m->BuildScene(0, "zh", ClassroomPalette());
  ASSERT_NE(start.FindRect("lanes.band.idle"), nullptr);
  EXPECT_TRUE(start.FindRect("lanes.band.idle")->answer);
  EXPECT_TRUE(start.FindRect("lanes.band.used")->answer);
  EXPECT_TRUE(start.FindRect("lanes.plan.0") == nullptr || start.FindRect("lanes.plan.0")->answer);
  int plans = 0;
  for (const auto& r : start.rects) plans += r.id.rfind("lanes.plan.", 0) == 0 && r.answer;
  EXPECT_EQ(plans, 64);
  ASSERT_NE(text(start, "lanes.band.idle.note"), nullptr);
  EXPECT_TRUE(text(start, "lanes.band.idle.note")->answer);
  ASSERT_NE(text(start, "lanes.band.idle.n"), nullptr);
  EXPECT_TRUE(text(start, "lanes.band.idle.n")->answer);
  EXPECT_EQ(text(start, "lanes.band.idle.n")->text, "68 个 SM");
  ASSERT_NE(start.FindRect("lanes.band.all"), nullptr);
  EXPECT_FALSE(start.FindRect("lanes.band.all")->answer) << "the empty frame stays while the question is open";
  EXPECT_EQ(text(start, "lanes.idle"), nullptr) << "nothing has run: no count of SMs without a tile";
}
