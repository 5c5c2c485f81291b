// Issue 11: every lesson step's scene contains what its text names, with the numbers the engine
// computed. BWD: dQ, dK, dV in HBM and the recomputed P tile on chip, Algorithm 2's loop order and
// traffic, the materialising path's stored P beside it; RC-T3: three K/V blocks in the seed's states
// (b1: block 1 merged, 2 and 3 waiting; b2: 1–2 done, 3 waiting; b3: all done, O written) and b2's
// further explanation quoting the two-block hand calculation from the worked scenario; MOE/e6: the
// 6·N·D bars and 2.5×; the expert-parallel view; HET: CPU, GPU and a link labelled with the engine's
// bytes per token; GLOSS/g4: a chart, no attention run.
#include <gtest/gtest.h>

#include <algorithm>

#include "view/attention_model.h"
#include "view/format.h"
#include "view/lesson_model.h"
#include "view/scene.h"

namespace bw::view {
namespace {

const std::string kRoot = BLOCKWISE_ROOT;

Scene StepScene(const LessonModel& m, const char* id, const char* lang = "en") {
  const int s = m.lesson.FindStep(id);
  EXPECT_GE(s, 0) << id;
  return m.ScenarioOf(s).BuildScene(m.EventOf(s), lang, ClassroomPalette());
}

bool HasText(const Scene& sc, const std::string& needle) {
  for (const auto& t : sc.texts)
    if (t.text.find(needle) != std::string::npos) return true;
  for (const auto& r : sc.rects)
    if (r.label.find(needle) != std::string::npos || r.sublabel.find(needle) != std::string::npos) return true;
  for (const auto& a : sc.arrows)
    if (a.label.find(needle) != std::string::npos) return true;
  return false;
}

void ExpectInside(const Scene& sc) {
  for (const auto& r : sc.rects) {
    EXPECT_GE(r.x, -1e-3f) << r.id;
    EXPECT_GE(r.y, -1e-3f) << r.id;
    EXPECT_LE(r.x + r.w, sc.width + 1e-3f) << r.id;
    EXPECT_LE(r.y + r.h, sc.height + 1e-3f) << r.id;
  }
}

// [SECTION] BWD ------------------------------------------------------------------------------------

TEST(LessonScenes, BackwardStepsShowGradientsAndTheRecomputedTile) {
  const auto m = LoadLessonModel(kRoot + "/lessons/backward.json");
  const auto& model = dynamic_cast<const AttentionModel&>(*m.scenarios.at("bwd"));
  const auto& runs = model.runs();
  ASSERT_TRUE(runs.bwd_recompute && runs.bwd_reference);
  const std::int64_t t_r = model.T_r(), t_c = model.T_c();
  for (const auto& st : m.lesson.steps) {
    SCOPED_TRACE(st.id);
    for (const char* lang : {"zh", "en"}) {
      const Scene sc = StepScene(m, st.id.c_str(), lang);
      ExpectInside(sc);
      for (std::int64_t i = 1; i <= t_r; ++i) EXPECT_NE(sc.FindRect("hbm.dQ." + std::to_string(i)), nullptr);
      for (std::int64_t j = 1; j <= t_c; ++j) {
        EXPECT_NE(sc.FindRect("hbm.dK." + std::to_string(j)), nullptr);
        EXPECT_NE(sc.FindRect("hbm.dV." + std::to_string(j)), nullptr);
      }
      ASSERT_NE(sc.FindRect("sram.P"), nullptr);
      EXPECT_EQ(sc.FindRect("sram.P")->label.rfind(UiText("bwd_p_recomputed", lang), 0), 0u);
      // The materialising path's stored P beside it, with both traffic counts.
      ASSERT_NE(sc.FindRect("mat.P"), nullptr);
      EXPECT_EQ(sc.FindRect("mat.P")->state, TileState::kWritten);
      EXPECT_TRUE(HasText(sc, FormatInt(runs.bwd_reference->counters.TotalHbmElements()) + " " + UiText("elements", lang)));
      EXPECT_TRUE(HasText(sc, " / " + FormatInt(runs.bwd_recompute->counters.TotalHbmElements()) + " " + UiText("elements", lang)));
    }
  }
  // r2: the gradients of tile (1, 1) — P_11 recomputed on chip, K_1, V_1, Q_1 … on chip, grads arrow.
  const Scene r2 = StepScene(m, "BWD/r2");
  EXPECT_EQ(r2.FindRect("sram.P")->state, TileState::kInSram);
  EXPECT_EQ(r2.FindRect("sram.K")->label, "K_1");
  EXPECT_EQ(r2.FindRect("sram.Q")->label, "Q_1");
  EXPECT_EQ(r2.FindRect("grid.1,1")->state, TileState::kInSram);
  ASSERT_NE(r2.FindArrow("grads"), nullptr);
  EXPECT_EQ(r2.FindRect("hbm.dK.1")->state, TileState::kNotWritten);
  // r1: nothing on chip yet but O and dO being read for D; the P tile slot is empty and dashed.
  const Scene r1 = StepScene(m, "BWD/r1");
  EXPECT_EQ(r1.FindRect("sram.P")->state, TileState::kNone);
  EXPECT_TRUE(r1.FindRect("sram.P")->dashed);
  ASSERT_NE(r1.FindArrow("read.O"), nullptr);
  // r3: dK_1 written once, after every Q block of K/V block 1.
  const Scene r3 = StepScene(m, "BWD/r3");
  EXPECT_EQ(r3.FindRect("hbm.dK.1")->state, TileState::kWritten);
  ASSERT_NE(r3.FindArrow("write.dK"), nullptr);
  for (std::int64_t i = 1; i <= t_r; ++i) EXPECT_EQ(r3.FindRect("grid." + std::to_string(i) + ",1")->state, TileState::kProcessed);
  // r5 (end): every gradient written, every tile done.
  const Scene r5 = StepScene(m, "BWD/r5");
  for (std::int64_t j = 1; j <= t_c; ++j) {
    EXPECT_EQ(r5.FindRect("hbm.dK." + std::to_string(j))->state, TileState::kWritten);
    EXPECT_EQ(r5.FindRect("hbm.dV." + std::to_string(j))->state, TileState::kWritten);
  }
  // The gradient values panel, at a backward event.
  const auto panels = model.Panels(m.EventOf(m.lesson.FindStep("BWD/r2")), "en");
  const auto it = std::find_if(panels.begin(), panels.end(), [](const PanelSection& p) { return p.title.find("dQ, dK, dV") != std::string::npos; });
  ASSERT_NE(it, panels.end());
  ASSERT_FALSE(it->rows.empty());
  const auto first = [](const engine::AttentionMatrix& g) {
    Eigen::VectorXd x = g.row(0).transpose();
    if (x.size() > 3) x.conservativeResize(3);
    return FormatVector(x) + (g.cols() > 3 ? "\u2026" : "");
  };
  EXPECT_EQ(it->rows[0].value, first(runs.bwd_recompute->dQ) + "\t" + first(runs.bwd_recompute->dK) + "\t" + first(runs.bwd_recompute->dV));
}

TEST(LessonScenes, BackwardTraceOfTheShippedScenarioEqualsTheFormulas) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/backward_small.json");
  const auto& model = dynamic_cast<const AttentionModel&>(*m);
  const auto& runs = model.runs();
  ASSERT_TRUE(runs.bwd_recompute_formula && runs.bwd_reference_formula);
  const auto& rec = runs.bwd_recompute->trace;
  EXPECT_TRUE(rec.CountersAt(rec.size() - 1) == runs.bwd_recompute_formula->counters);
  EXPECT_TRUE(runs.bwd_reference->counters == runs.bwd_reference_formula->counters);
  // One timeline: the forward's events, then Algorithm 2's, each position found where it should be.
  const int fwd = static_cast<int>(runs.run.trace.size());
  EXPECT_EQ(model.EventCount(), fwd + static_cast<int>(rec.size()));
  EXPECT_EQ(model.FindPosition("end"), fwd - 1);
  EXPECT_EQ(model.FindPosition("bwd:start"), fwd);
  EXPECT_EQ(model.FindPosition("bwd:end"), model.EventCount() - 1);
  const int t12 = model.FindPosition("bwd:tile:1,2");
  ASSERT_GE(t12, fwd);
  EXPECT_EQ(model.EventLabel(t12), "bwd grads (1,2)");
  EXPECT_EQ(model.FindPosition("bwd:tile:9,9"), -1);
  EXPECT_EQ(model.FindPosition("bwd:nonsense"), -1);
  // Placeholders at a backward event count that pass so far; the forward's stay at its end.
  const auto q = model.QuantitiesAt(model.EventCount() - 1);
  EXPECT_EQ(q.at("bwd_hbm_elements_now"), FormatInt(runs.bwd_recompute->counters.TotalHbmElements()));
  EXPECT_EQ(q.at("bwd_reads_now:P"), "0");
  EXPECT_EQ(q.at("hbm_elements"), FormatInt(runs.run.counters.TotalHbmElements()));
  // Timeline marks: the backward's start and each K/V block j.
  int bwd_marks = 0;
  for (const auto& mk : model.BlockMarks()) bwd_marks += mk.event >= fwd;
  EXPECT_EQ(bwd_marks, 1 + model.T_c());
}

// [SECTION] RC-T3 ----------------------------------------------------------------------------------

TEST(LessonScenes, RcT3DrawsThreeBlocksAsTheSeedDoes) {
  const auto m = LoadLessonModel(kRoot + "/lessons/rc-t3.json");
  struct Want {
    const char* step;
    TileState kv1, kv2, kv3, o;
  };
  const Want want[] = {
      {"RC-T3/b1", TileState::kInSram, TileState::kPending, TileState::kPending, TileState::kNotWritten},     // block 1 merged now
      {"RC-T3/b2", TileState::kProcessed, TileState::kInSram, TileState::kPending, TileState::kNotWritten},
      {"RC-T3/b3", TileState::kProcessed, TileState::kProcessed, TileState::kProcessed, TileState::kWritten},
  };
  for (const auto& w : want) {
    SCOPED_TRACE(w.step);
    for (const char* lang : {"zh", "en"}) {
      const Scene sc = StepScene(m, w.step, lang);
      ASSERT_TRUE(sc.FindRect("hbm.kv.1") && sc.FindRect("hbm.kv.2") && sc.FindRect("hbm.kv.3"));
      EXPECT_EQ(sc.FindRect("hbm.kv.4"), nullptr);
      EXPECT_EQ(sc.FindRect("hbm.kv.1")->state, w.kv1);
      EXPECT_EQ(sc.FindRect("hbm.kv.2")->state, w.kv2);
      EXPECT_EQ(sc.FindRect("hbm.kv.3")->state, w.kv3);
      EXPECT_EQ(sc.FindRect("hbm.o")->state, w.o);
      // The diagram names its input, an independent one, and carries no number of the hand calculation.
      bool named = false;
      for (const auto& t : sc.texts) named |= t.id == "scenario.title" && t.text == m.scenarios.at("three")->Title().In(lang);
      EXPECT_TRUE(named);
      for (const char* n : {"160/7", "65/3", "40/3", "22.86"}) EXPECT_FALSE(HasText(sc, n)) << n;
    }
  }
  // b2's further explanation: the 2,1,4 / 10,20,30 calculation, from the worked scenario.
  const int b2 = m.lesson.FindStep("RC-T3/b2");
  for (const char* lang : {"zh", "en"}) {
    const auto f = m.Text(b2, &data::LessonStep::further, lang);
    EXPECT_TRUE(f.unknown.empty());
    for (const char* n : {"(2, 1, 4)", "(10, 20, 30)", "40", "120", "160/7", "65/3"})
      EXPECT_NE(f.text.find(n), std::string::npos) << n << " in " << f.text;
    const auto body = m.Text(b2, &data::LessonStep::body, lang).text;
    EXPECT_EQ(body.find("160/7"), std::string::npos);
  }
}

}  // namespace
}  // namespace bw::view
