// Scene data for each RC-T3 step: which blocks are processed / pending / in SRAM, which arrows,
// and the lesson placeholders filled from the engine (no unknown placeholder in any shipped text).
#include <gtest/gtest.h>

#include "view/lesson_model.h"
#include "view/single_query_model.h"
#include "view/format.h"
#include "view/lesson_text.h"
#include "view/scenario_model.h"
#include "view/scene.h"

namespace bw::view {
namespace {

const std::string kRoot = BLOCKWISE_ROOT;

struct Expect {
  const char* step;
  TileState kv1, kv2, o;
  const char* sram_kv_label_prefix;  // "K/V 2", or "" for the empty slot
  const char* arrow;
};

TEST(Scene, RcT3StepsShowTheRightTilesAndArrows) {
  const auto lesson = LoadLessonModel(kRoot + "/lessons/rc-t3.json");
  const Expect expect[] = {
      {"RC-T3/b0", TileState::kPending, TileState::kPending, TileState::kNotWritten, "", "read.q"},
      // At its update a block is merged: done (the seed: "at b1 block 1 is done"), while its tile is
      // still the one in the SRAM slot being merged.
      {"RC-T3/b1", TileState::kProcessed, TileState::kPending, TileState::kNotWritten, "K/V 1", "merge.1"},
      {"RC-T3/b2", TileState::kProcessed, TileState::kProcessed, TileState::kNotWritten, "K/V 2", "merge.2"},
      {"RC-T3/b3", TileState::kProcessed, TileState::kProcessed, TileState::kWritten, "", "write.o"},
  };
  for (const auto& e : expect) {
    SCOPED_TRACE(e.step);
    const int step = lesson.lesson.FindStep(e.step);
    const Scene sc = lesson.ScenarioOf(step).BuildScene(lesson.EventOf(step), "en", ClassroomPalette());
    ASSERT_TRUE(sc.FindRect("hbm.kv.1") && sc.FindRect("hbm.kv.2") && sc.FindRect("hbm.o"));
    EXPECT_EQ(sc.FindRect("hbm.kv.1")->state, e.kv1);
    EXPECT_EQ(sc.FindRect("hbm.kv.2")->state, e.kv2);
    EXPECT_EQ(sc.FindRect("hbm.o")->state, e.o);
    EXPECT_EQ(sc.FindRect("hbm.sp")->state, TileState::kNotStored);
    EXPECT_TRUE(sc.FindRect("hbm.sp")->hatched);
    const auto* slot = sc.FindRect("sram.kv");
    ASSERT_TRUE(slot);
    if (*e.sram_kv_label_prefix) {
      EXPECT_EQ(slot->label.rfind(e.sram_kv_label_prefix, 0), 0u) << slot->label;
    } else {
      EXPECT_EQ(slot->sublabel, "empty");
    }
    ASSERT_EQ(sc.arrows.size(), 1u);
    EXPECT_EQ(sc.arrows[0].id, e.arrow);
    // Colour is never the only signal: every tile in a state carries its state in words.
    for (const auto& r : sc.rects) {
      if (r.state != TileState::kNone) {
        EXPECT_FALSE(r.sublabel.empty()) << r.id;
      }
    }
  }
}

TEST(Scene, ColoursAndArrowKinds) {
  const auto lesson = LoadLessonModel(kRoot + "/lessons/rc-t3.json");
  const auto& run = dynamic_cast<const SingleQueryModel&>(*lesson.scenarios.at("worked")).run();
  const Palette pal = ClassroomPalette();
  const Scene load2 = BuildQueryScene(run, run.FindEvent("load:2"), "zh", pal);
  EXPECT_EQ(load2.FindRect("hbm.kv.1")->fill, pal.processed);
  EXPECT_EQ(load2.FindRect("hbm.kv.2")->fill, pal.in_sram);
  const auto* read = load2.FindArrow("read.kv.2");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->kind, ArrowKind::kRead);
  EXPECT_EQ(read->color, pal.read_arrow);
  const Scene write = BuildQueryScene(run, run.FindEvent("write"), "en", pal);
  EXPECT_EQ(write.FindArrow("write.o")->color, pal.write_arrow);
  EXPECT_NE(write.FindRect("hbm.o")->label.find("160/7"), std::string::npos);
  // Accumulator text from the engine at b2's event: u = 160, l = 7.
  const Scene upd2 = BuildQueryScene(run, run.FindEvent("update:2"), "en", pal);
  bool found_u = false, found_l = false;
  for (const auto& t : upd2.texts) {
    found_u |= t.text == "u = 160";
    found_l |= t.text == "l = 7";
  }
  EXPECT_TRUE(found_u && found_l);
}

TEST(Format, FractionsAndLogs) {
  EXPECT_EQ(FormatExact(engine::Rational(160, 7)), "160/7 \u2248 22.86");
  EXPECT_EQ(FormatExact(engine::Rational(40)), "40");
  EXPECT_EQ(FormatLogOf(engine::Rational(2)), "ln 2");
  EXPECT_EQ(FormatLogOf(engine::Rational(0)), "\u2212\u221e");
  EXPECT_EQ(FormatDouble(0.5), "0.5");
  EXPECT_EQ(FormatDouble(-2.5), "\u22122.5");
}

TEST(LessonText, PlaceholdersComeFromTheEngine) {
  const auto lesson = LoadLessonModel(kRoot + "/lessons/rc-t3.json");
  const auto& run = dynamic_cast<const SingleQueryModel&>(*lesson.scenarios.at("worked")).run();
  const auto q = QuantitiesAt(run, run.FindEvent("update:2"));
  EXPECT_EQ(q.at("u_b@1"), "40");
  EXPECT_EQ(q.at("l_b@1"), "3");
  EXPECT_EQ(q.at("u_b@2"), "120");
  EXPECT_EQ(q.at("l_b@2"), "4");
  EXPECT_EQ(q.at("output"), "160/7 \u2248 22.86");
  EXPECT_EQ(q.at("average"), "65/3 \u2248 21.67");
  EXPECT_EQ(FillPlaceholders("o = {output}, {{literal}}", q).text, "o = 160/7 \u2248 22.86, {literal}");
  const auto bad = FillPlaceholders("{nope} and {u}", q);
  ASSERT_EQ(bad.unknown.size(), 1u);
  EXPECT_EQ(bad.unknown[0], "nope");

  const auto stable = data::LoadSingleQueryScenario(kRoot + "/lessons/scenarios/worked_214_stable.json");
  const auto srun = engine::RunSingleQuery(stable.problem);
  const auto s1 = QuantitiesAt(srun, srun.FindEvent("update:1"));
  EXPECT_EQ(s1.at("m"), "ln 2");
  EXPECT_EQ(s1.at("l"), "3/2 \u2248 1.5");
  EXPECT_EQ(s1.at("u"), "20");
  const auto s2 = QuantitiesAt(srun, srun.FindEvent("update:2"));
  EXPECT_EQ(s2.at("alpha@2"), "1/2 \u2248 0.5");
  EXPECT_EQ(s2.at("l"), "7/4 \u2248 1.75");
  EXPECT_EQ(s2.at("u"), "40");
}

TEST(LessonText, EveryShippedStepFillsWithoutUnknownPlaceholders) {
  const auto lesson = LoadLessonModel(kRoot + "/lessons/rc-t3.json");
  for (int i = 0; i < static_cast<int>(lesson.lesson.steps.size()); ++i) {
    const auto& st = lesson.lesson.steps[i];
    const auto q = lesson.ScenarioOf(i).QuantitiesAt(lesson.EventOf(i));
    for (const auto& [path, t] : data::StepTexts(st))  // the step's texts, listed once
      for (const char* lang : {"zh", "en"}) {
        const auto filled = lesson.Fill(t->In(lang), q);
        EXPECT_TRUE(filled.unknown.empty()) << st.id << path << ": " << (filled.unknown.empty() ? "" : filled.unknown[0]);
        EXPECT_EQ(filled.text.find("NaN"), std::string::npos) << st.id << path;
      }
  }
}

}  // namespace
}  // namespace bw::view

namespace bw::view {
namespace {

// A rectangle at the scene's edge would have its border and a step's highlight outline cut off by
// the diagram's box: PadSceneEdges grows the scene there and moves everything in.
TEST(Scene, PadSceneEdgesKeepsRectanglesClearOfTheEdge) {
  Scene sc;
  sc.width = 10, sc.height = 4;
  sc.rects.push_back({"wide", 0, 1, 10, 1});
  sc.texts.push_back({"t", 2, 3});
  sc.arrows.push_back({"a", ArrowKind::kRead, {{1, 1}, {2, 2}}, {}, "", {3, 3}});
  PadSceneEdges(sc);
  EXPECT_FLOAT_EQ(sc.rects[0].x, kSceneEdgeEm);
  EXPECT_FLOAT_EQ(sc.rects[0].y, 1);                       // 1 em from the top already: no pad there
  EXPECT_FLOAT_EQ(sc.width, 10 + 2 * kSceneEdgeEm);
  EXPECT_FLOAT_EQ(sc.height, 4);
  EXPECT_FLOAT_EQ(sc.texts[0].x, 2 + kSceneEdgeEm);
  EXPECT_FLOAT_EQ(sc.arrows[0].points[1].x, 2 + kSceneEdgeEm);
  EXPECT_FLOAT_EQ(sc.arrows[0].label_at.x, 3 + kSceneEdgeEm);
  const Scene before = sc;
  PadSceneEdges(sc);  // already clear: unchanged
  EXPECT_FLOAT_EQ(sc.width, before.width);
  EXPECT_FLOAT_EQ(sc.rects[0].x, before.rects[0].x);
}

// The MoE picture (shared bar and experts across its whole width) keeps that margin at every event.
TEST(Scene, MoeRectanglesStayClearOfTheEdge) {
  const auto m = LoadScenarioModel(std::string(BLOCKWISE_ROOT) + "/lessons/scenarios/moe_router.json");
  for (int e = 0; e < m->EventCount(); ++e) {
    const Scene sc = m->BuildScene(e, "en", ClassroomPalette());
    for (const auto& r : sc.rects) {
      EXPECT_GE(r.x, kSceneEdgeEm - 1e-4f) << r.id << " at event " << e;
      EXPECT_GE(r.y, kSceneEdgeEm - 1e-4f) << r.id << " at event " << e;
      EXPECT_LE(r.x + r.w, sc.width - kSceneEdgeEm + 1e-4f) << r.id << " at event " << e;
      EXPECT_LE(r.y + r.h, sc.height - kSceneEdgeEm + 1e-4f) << r.id << " at event " << e;
    }
  }
}

}  // namespace
}  // namespace bw::view
