// Every shipped lesson, whole: it loads through view::LoadLessonModel (every bound scenario loads,
// every position resolves); every text field and prediction prompt is present in zh and en and
// fills every placeholder from the engine (no unknown name, no NaN); highlight ids exist in the
// step's scene. Then the seed figures are pinned as the engine produces them: 160/7, 65/3, 130/6,
// l 3/2 → 7/4, u 20 → 40, α 1/2, MoE 1.0B total / 0.4B active, the router's loads.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

#include "data/json_file.h"
#include "data/moe_scenario.h"
#include "lesson_files.h"
#include "view/numerics_panel.h"
#include "view/attention_model.h"
#include "view/cjk.h"
#include "view/lesson_model.h"
#include "view/moe_model.h"

namespace bw::view {
namespace {

using lessons_test::kRoot;
using lessons_test::ShippedLessons;
using lessons_test::ShippedScenarios;
using view::HasCjk;  // the rule the app wraps by (view/cjk.h)

bool HasHan(const std::string& s) {
  for (size_t i = 0; i + 2 < s.size(); ++i) {
    const unsigned char a = s[i], b = s[i + 1];
    if (a >= 0xE4 && a <= 0xE9 && (b & 0xC0) == 0x80) return true;   // U+4000–U+9FFF
  }
  return false;
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

std::string Filled(const LessonModel& m, int step, const std::string& tmpl, std::vector<std::string>* unknown) {
  const auto f = m.Fill(tmpl, m.ScenarioOf(step).QuantitiesAt(m.EventOf(step)));
  unknown->insert(unknown->end(), f.unknown.begin(), f.unknown.end());
  return f.text;
}

TEST(ShippedLessons, TheIssueLessonsAreAllThere) {
  std::set<std::string> ids;
  for (const auto& p : ShippedLessons()) ids.insert(data::LoadLesson(p).id);
  for (const char* id : {"RC-T3", "N23", "N49", "N50", "N51", "MASK", "BWD", "MOE", "HET", "GLOSS"})
    EXPECT_TRUE(ids.count(id)) << "no lesson with id " << id;
}

TEST(ShippedLessons, LoadFillAndHighlight) {
  const auto lessons = ShippedLessons();
  ASSERT_GE(lessons.size(), 10u);
  int steps = 0;
  for (const auto& path : lessons) {
    SCOPED_TRACE(path.filename().string());
    LessonModel m;
    try {
      m = LoadLessonModel(path);
    } catch (const data::LoadError& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    EXPECT_GE(m.lesson.steps.size(), 3u);
    EXPECT_TRUE(HasHan(m.lesson.title.zh));
    EXPECT_FALSE(HasCjk(m.lesson.title.en)) << m.lesson.title.en;
    for (int i = 0; i < static_cast<int>(m.lesson.steps.size()); ++i) {
      const auto& st = m.lesson.steps[i];
      SCOPED_TRACE(st.id);
      ++steps;
      EXPECT_EQ(st.id.rfind(m.lesson.id + "/", 0), 0u) << "step ids start with the lesson id";
      for (const auto& [name, t] : data::StepTexts(st)) {
        for (const char* lang : {"zh", "en"}) {
          const std::string& raw = t->In(lang);
          EXPECT_FALSE(raw.empty()) << name << " " << lang;
          std::vector<std::string> unknown;
          const std::string text = Filled(m, i, raw, &unknown);
          for (const auto& u : unknown) ADD_FAILURE() << name << " " << lang << ": unknown placeholder {" << u << "}";
          // Prose may name NaN (the masks lesson does); a filled-in number never may.
          EXPECT_EQ(Count(text, "NaN"), Count(raw, "NaN")) << name << " " << lang << ": " << text;
          EXPECT_EQ(Count(text, "nan"), Count(raw, "nan")) << name << " " << lang << ": " << text;
          if (std::string(lang) == "zh") EXPECT_TRUE(HasHan(text)) << name << " zh has no Chinese: " << text;
          else EXPECT_FALSE(HasCjk(text)) << name << " en holds CJK text: " << text;
        }
      }
      // Teacher notes carry pointing cues and a simulated question with its answer.
      EXPECT_NE(st.teacher_notes.zh.find("【模拟问答】"), std::string::npos);
      EXPECT_NE(st.teacher_notes.en.find("[Simulated Q&A]"), std::string::npos);
      // Source lines say whether this is a teaching construction or a measurement.
      EXPECT_NE(st.source.zh.find("教学构造"), std::string::npos) << st.source.zh;
      EXPECT_NE(st.source.en.find("Teaching construction"), std::string::npos) << st.source.en;
      EXPECT_FALSE(st.highlight.empty()) << "say what to highlight";
      // Both layouts: the default one and the one for a projector's or a laptop's label floors
      // (SceneFrame::floors), which draws some diagrams differently — a highlight must exist in each.
      for (const char* lang : {"zh", "en"})
        for (const bool floors : {false, true}) {
          SceneFrame frame;
          frame.floors = floors;
          frame.projector = floors;
          const Scene sc = m.ScenarioOf(i).BuildScene(m.EventOf(i), lang, ClassroomPalette(), frame);
          for (const auto& id : st.highlight)
            EXPECT_NE(sc.FindRect(id), nullptr) << "highlight \"" << id << "\" not in the scene (" << lang << (floors ? ", floors)" : ")");
        }
    }
  }
  EXPECT_GE(steps, 40);
}

// docs/authoring.md's worked example: it loads, every placeholder fills, and the numbers the page
// quotes are the engine's (output 40, the plain mean 305/9, the rescale factor at block 2 is 2/3; the
// maximum rises twice).
TEST(AuthoringExample, LoadsAndGivesTheNumbersTheGuideQuotes) {
  const LessonModel m = LoadLessonModel(lessons_test::kRoot + "/lessons/examples/my-first-lesson.json");
  ASSERT_EQ(m.lesson.steps.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const auto& st = m.lesson.steps[static_cast<size_t>(i)];
    for (const auto& [path, t] : data::StepTexts(st))
      for (const char* lang : {"zh", "en"}) {
        std::vector<std::string> unknown;
        Filled(m, i, t->In(lang), &unknown);
        EXPECT_TRUE(unknown.empty()) << st.id << path << " " << lang;
      }
  }
  const Quantities q = m.ScenarioOf(0).QuantitiesAt(m.ScenarioOf(0).EventCount() - 1);
  EXPECT_EQ(q.at("output"), "40");
  EXPECT_EQ(q.at("average"), "305/9 \u2248 33.89");
  EXPECT_EQ(q.at("alpha@2"), "2/3 \u2248 0.6667");
  EXPECT_EQ(q.at("m@1"), "ln 2");
  EXPECT_EQ(q.at("m@2"), "ln 3");
  EXPECT_EQ(q.at("m@3"), "ln 6");
  const int e2 = m.lesson.FindStep("EXAMPLE/e2");
  EXPECT_EQ(m.Fill("{alpha@2|fraction}", {}).text, "{alpha@2|fraction?}");   // not without the step's quantities
  EXPECT_EQ(m.Fill("{alpha@2|fraction}", m.ScenarioOf(e2).QuantitiesAt(m.EventOf(e2))).text, "2/3");
}

TEST(ShippedScenarios, EveryFileLoadsAndEveryEventHasNumbers) {
  const auto files = ShippedScenarios();
  ASSERT_GE(files.size(), 15u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    std::shared_ptr<const ScenarioModel> m;
    try {
      m = LoadScenarioModel(path);
    } catch (const data::LoadError& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    // No NaN on screen unless the numerics report names its cause (view::UnexplainedNaNs); and only
    // raw_overflow*.json, N50's example of raw mode overflowing, may have a report at all.
    for (const auto& line : UnexplainedNaNs(*m, std::max(1, m->EventCount() / 400))) ADD_FAILURE() << line;
    const bool overflow_example = path.filename().string().rfind("raw_overflow.json", 0) == 0;
    const auto* rep = m->Numerics();
    EXPECT_EQ(rep && !rep->empty(), overflow_example);
  }
}

TEST(LessonFormat, OptionalHighlightAndPredictAreValidated) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "bw_lessons_format_test";
  fs::create_directories(dir / "scenarios");
  fs::copy_file(kRoot + "/lessons/scenarios/worked_214.json", dir / "scenarios/w.json", fs::copy_options::overwrite_existing);
  const auto write = [&](const std::string& extra) {
    std::ofstream(dir / "l.json") << R"({"schema_version": 1, "id": "X", "title": {"zh": "x", "en": "x"},
      "scenarios": {"w": "scenarios/w.json"}, "steps": [{"id": "X/1", "scenario": "w", "position": "start",
      "title": {"zh": "t", "en": "t"}, "body": {"zh": "b", "en": "b"}, "further": {"zh": "f", "en": "f"},
      "teacher_notes": {"zh": "n", "en": "n"}, "source": {"zh": "s", "en": "s"})"
                                  << extra << "}]}";
    return (dir / "l.json").string();
  };
  const auto ok = data::LoadLesson(write(R"(, "highlight": ["hbm.sp", "sram.acc"], "predict": {"zh": "猜", "en": "guess"})"));
  EXPECT_EQ(ok.steps[0].highlight, (std::vector<std::string>{"hbm.sp", "sram.acc"}));
  ASSERT_TRUE(ok.steps[0].predict.has_value());
  EXPECT_EQ(ok.steps[0].predict->en, "guess");
  EXPECT_FALSE(data::LoadLesson(write("")).steps[0].predict.has_value());
  const struct {
    const char* extra;
    const char* path;
  } bad[] = {{R"(, "highlight": "hbm.sp")", "/steps/0/highlight"},
             {R"(, "highlight": ["hbm.sp", 3])", "/steps/0/highlight/1"},
             {R"(, "highlight": [""])", "/steps/0/highlight/0"},
             {R"(, "predict": {"zh": "猜"})", "/steps/0/predict/en"},
             {R"(, "predict": {"zh": "", "en": "e"})", "/steps/0/predict/zh"},
             {R"(, "answer": {"zh": "答", "en": "answer"})", "/steps/0/answer"}};
  for (const auto& b : bad) {
    try {
      data::LoadLesson(write(b.extra));
      ADD_FAILURE() << "accepted " << b.extra;
    } catch (const data::LoadError& e) {
      EXPECT_EQ(e.json_path(), b.path) << e.what();
    }
  }
}

// [SECTION] Seed figures ---------------------------------------------------------------------------

Quantities At(const std::string& scenario, const std::string& position) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/" + scenario);
  const int e = m->FindPosition(position);
  EXPECT_GE(e, 0) << scenario << " " << position;
  return m->QuantitiesAt(std::max(e, 0));
}

TEST(SeedFigures, WorkedExample214) {
  const auto q = At("worked_214.json", "write");
  EXPECT_EQ(q.at("u_b@1"), "40");
  EXPECT_EQ(q.at("l_b@1"), "3");
  EXPECT_EQ(q.at("u_b@2"), "120");
  EXPECT_EQ(q.at("l_b@2"), "4");
  EXPECT_EQ(q.at("u"), "160");
  EXPECT_EQ(q.at("l"), "7");
  EXPECT_EQ(q.at("output"), "160/7 \u2248 22.86");
  EXPECT_EQ(q.at("reference"), "160/7 \u2248 22.86");
  EXPECT_EQ(q.at("average"), "65/3 \u2248 21.67");   // the wrong mean of block outputs
}

TEST(SeedFigures, StableRecurrenceLn2Ln4) {
  const auto q1 = At("worked_214_stable.json", "update:1");
  EXPECT_EQ(q1.at("m"), "ln 2");
  EXPECT_EQ(q1.at("l"), "3/2 \u2248 1.5");
  EXPECT_EQ(q1.at("u"), "20");
  const auto q2 = At("worked_214_stable.json", "update:2");
  EXPECT_EQ(q2.at("m"), "ln 4");
  EXPECT_EQ(q2.at("alpha@2"), "1/2 \u2248 0.5");
  EXPECT_EQ(q2.at("l_b@2"), "1");
  EXPECT_EQ(q2.at("u_b@2"), "30");
  EXPECT_EQ(q2.at("l"), "7/4 \u2248 1.75");
  EXPECT_EQ(q2.at("u"), "40");
  EXPECT_EQ(q2.at("output"), "160/7 \u2248 22.86");
}

TEST(SeedFigures, Historical213IsADifferentInputWhereAveragingHappensToWork) {
  const auto q = At("historical_213.json", "write");
  EXPECT_EQ(q.at("weights"), "(2, 1, 3)");
  EXPECT_EQ(q.at("u") + "/" + q.at("l"), "130/6");
  EXPECT_EQ(q.at("l_b@1"), "3");
  EXPECT_EQ(q.at("l_b@2"), "3");
  EXPECT_EQ(q.at("output"), q.at("average"));
}

TEST(SeedFigures, LessonTextShowsThem) {
  const auto m = LoadLessonModel(kRoot + "/lessons/n50-worked-example.json");
  const auto body = [&](const char* id, const char* lang) {
    return m.Text(m.lesson.FindStep(id), &data::LessonStep::body, lang).text;
  };
  for (const char* lang : {"zh", "en"}) {
    EXPECT_NE(body("N50/w2", lang).find("160/7"), std::string::npos);
    EXPECT_NE(body("N50/w3", lang).find("65/3"), std::string::npos);
    EXPECT_NE(body("N50/s1", lang).find("l = 3/2"), std::string::npos);
    EXPECT_NE(body("N50/s1", lang).find("u = 20"), std::string::npos);
    EXPECT_NE(body("N50/s2", lang).find("l = 7/4"), std::string::npos);
    EXPECT_NE(body("N50/s2", lang).find("u = 40"), std::string::npos);
    EXPECT_NE(body("N50/s2", lang).find("1/2"), std::string::npos);
    EXPECT_NE(body("N50/h1", lang).find("u = 130"), std::string::npos);
    EXPECT_NE(body("N50/h1", lang).find("l = 6"), std::string::npos);
  }
  // N51 generalises the rule without pinning the 160/7 numbers to three blocks.
  const auto n51 = LoadLessonModel(kRoot + "/lessons/n51-three-blocks.json");
  for (int i = 0; i < static_cast<int>(n51.lesson.steps.size()); ++i)
    for (const auto& [path, t] : data::StepTexts(n51.lesson.steps[static_cast<size_t>(i)]))
      for (const char* lang : {"zh", "en"}) {
        std::vector<std::string> unknown;
        EXPECT_EQ(Filled(n51, i, t->In(lang), &unknown).find("160/7"), std::string::npos) << path << " " << lang;
      }
}

// A step's texts, listed once (data::StepTexts): what the loader checks, the atlas bakes and these
// tests read, with the JSON path each is at.
TEST(StepTexts, EveryTextOfAStepWithItsPath) {
  data::LessonStep st;
  EXPECT_EQ(data::StepTexts(st).size(), 5u);  // the five fields every step has
  st.predict = data::LocalText{"zh?", "en?"};
  st.answer = data::LocalText{"zh!", "en!"};
  st.check.emplace();
  st.check->mistakes = {{"65/3", {"zh m", "en m"}}};
  st.check->choices = {{"zh a", "en a"}, {"zh b", "en b"}};
  const auto texts = data::StepTexts(st);
  std::vector<std::string> paths;
  for (const auto& t : texts) paths.push_back(t.path);
  EXPECT_EQ(paths, (std::vector<std::string>{"/title", "/body", "/further", "/teacher_notes", "/source", "/predict", "/answer",
                                             "/check/mistakes/0/hint", "/check/choices/0", "/check/choices/1"}));
  EXPECT_EQ(texts[1].text, &st.body);
  EXPECT_EQ(texts[5].text->en, "en?");
  EXPECT_EQ(texts[7].text->en, "en m");
  EXPECT_EQ(texts[9].text->zh, "zh b");
}

TEST(SeedFigures, MoeTotalAndActive) {
  const auto q = At("moe_router.json", "start");
  EXPECT_EQ(q.at("shared_params"), "0.2B");
  EXPECT_EQ(q.at("expert_params"), "0.1B");
  EXPECT_EQ(q.at("experts"), "8");
  EXPECT_EQ(q.at("top_k"), "2");
  EXPECT_EQ(q.at("total_params"), "1.0B");
  EXPECT_EQ(q.at("active_params"), "0.4B");
  EXPECT_EQ(q.at("total_params_exact"), "1,000,000,000");
  EXPECT_EQ(q.at("active_params_exact"), "400,000,000");
  EXPECT_EQ(q.at("idle_params"), "0.6B");
  EXPECT_EQ(q.at("active_fraction"), "2/5 \u2248 0.4");
}

TEST(SeedFigures, RouterLoads) {
  const auto q = At("moe_router.json", "end");
  EXPECT_EQ(q.at("demand"), "(2, 1, 5, 0, 1, 1, 1, 1)");
  EXPECT_EQ(q.at("served"), q.at("demand"));
  EXPECT_EQ(q.at("imbalance"), "10/3 \u2248 3.333");
  const auto t1 = At("moe_router.json", "token:1");
  EXPECT_EQ(t1.at("token_experts"), "E3, E1");
  EXPECT_EQ(t1.at("served_now"), "(1, 0, 1, 0, 0, 0, 0, 0)");
  const auto c = At("moe_capacity.json", "end");
  EXPECT_EQ(c.at("capacity"), "2");
  EXPECT_EQ(c.at("served"), "(2, 1, 2, 0, 1, 1, 1, 1)");
  EXPECT_EQ(c.at("dropped_assignments"), "3");
  EXPECT_EQ(c.at("dropped:3"), "3");
  const auto t3 = At("moe_capacity.json", "token:3");
  EXPECT_EQ(t3.at("token_dropped"), "E3");
}

// [SECTION] MoE scenario and model ------------------------------------------------------------------

TEST(MoeScenario, ErrorsNameTheJsonPath) {
  const struct {
    const char* text;
    const char* path;
    const char* reason;
  } cases[] = {
      {R"({"schema_version": 1, "kind": "moe", "parameters": {"shared": 1, "expert": 1, "experts": 2, "top_k": 3},
           "router": {"logits": [[0, 1]]}})", "/parameters/top_k", "only 2 experts"},
      {R"({"schema_version": 1, "kind": "moe", "parameters": {"shared": 1, "expert": 1, "experts": 2, "top_k": 1},
           "router": {"logits": [[0, 1], [0]]}})", "/router/logits/1", "row has 1 logits"},
      {R"({"schema_version": 1, "kind": "moe", "parameters": {"shared": 1, "expert": -1, "experts": 2, "top_k": 1},
           "router": {"logits": [[0, 1]]}})", "/parameters/expert", ""},
      {R"({"schema_version": 1, "kind": "moe", "parameters": {"shared": 1, "expert": 1, "experts": 2, "top_k": 1},
           "router": {"logits": [[0, 1]], "capacity": 1, "capacity_factor": [1, 1]}})", "/router", "not both"},
      {R"({"schema_version": 1, "kind": "moe", "parameters": {"shared": 1, "expert": 1, "experts": 2, "top_k": 1},
           "router": {"logits": [[0, "x"]]}})", "/router/logits/0/1", ""},
      {R"({"schema_version": 1, "kind": "moe", "parameters": {"shared": 1, "expert": 1, "experts": 2, "top_k": 1},
           "router": {"logits": [[0, 1]]}, "tokens": ["a", "b"]})", "/tokens", "2 labels"},
      {R"({"schema_version": 1, "kind": "moe", "router": {"logits": [[0, 1]]}})", "/parameters", "missing"},
  };
  for (const auto& c : cases) {
    try {
      data::ParseMoeScenario(data::ParseJsonText(c.text, "m.json"), "m.json");
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const data::LoadError& e) {
      EXPECT_EQ(e.file(), "m.json");
      EXPECT_EQ(e.json_path(), c.path) << e.what();
      EXPECT_NE(e.reason().find(c.reason), std::string::npos) << e.what();
    }
  }
}

TEST(MoeModel, PositionsSceneAndPanels) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/moe_capacity.json");
  EXPECT_EQ(m->Kind(), "moe");
  EXPECT_EQ(m->EventCount(), 8);
  EXPECT_EQ(m->FindPosition("start"), 0);
  EXPECT_EQ(m->FindPosition("token:3"), 3);
  EXPECT_EQ(m->FindPosition("end"), 7);
  EXPECT_EQ(m->FindPosition("token:7"), -1);
  EXPECT_EQ(m->FindPosition("token:3x"), -1);
  EXPECT_EQ(m->FindPosition("update:1"), -1);
  const Scene sc = m->BuildScene(3, "en", ClassroomPalette());
  ASSERT_NE(sc.FindRect("expert.3"), nullptr);
  EXPECT_EQ(sc.FindRect("expert.3")->state, TileState::kInSram);
  EXPECT_EQ(sc.FindRect("token.3")->state, TileState::kInSram);
  EXPECT_EQ(sc.FindRect("token.1")->state, TileState::kProcessed);
  EXPECT_EQ(sc.FindRect("token.4")->state, TileState::kPending);
  ASSERT_NE(sc.FindArrow("route.1"), nullptr);
  EXPECT_EQ(sc.FindArrow("route.1")->kind, ArrowKind::kWrite);  // E3 full: dropped, drawn red
  EXPECT_EQ(sc.FindArrow("route.2")->kind, ArrowKind::kRead);   // E1 serves it
  EXPECT_NE(sc.FindRect("load.3.3"), nullptr);                  // the third request at E3 …
  EXPECT_TRUE(sc.FindRect("load.3.3")->hatched);                // … is over capacity
  EXPECT_NE(sc.FindRect("capacity.3"), nullptr);
  for (const auto& r : sc.rects) {
    EXPECT_GE(r.x, 0);
    EXPECT_LE(r.x + r.w, sc.width + 1e-3f) << r.id;
    EXPECT_LE(r.y + r.h, sc.height + 1e-3f) << r.id;
  }
  const auto panels = m->Panels(7, "zh");
  ASSERT_GE(panels.size(), 3u);
  EXPECT_EQ(panels[2].rows.size(), 8u);  // one row per expert
  // E3's dropped assignments are named (the ! notice), not marked wrong (the purple ×, a walk-through).
  EXPECT_TRUE(panels[2].rows[2].notice);
  EXPECT_FALSE(panels[2].rows[2].warning);
  for (const auto& sec : panels)
    for (const auto& r : sec.rows) EXPECT_FALSE(r.warning) << sec.title << ": " << r.name;
  EXPECT_EQ(FormatParams(1'000'000'000), "1.0B");
  EXPECT_EQ(FormatParams(250'000'000), "0.25B");
  EXPECT_EQ(FormatParams(50'000'000), "50.0M");
  EXPECT_EQ(FormatParams(12), "12");
}

TEST(AttentionModel, BackwardPlaceholders) {
  const auto q = At("backward_small.json", "end");
  const auto num = [&](const std::string& k) {
    std::string s = q.at(k);
    s.erase(std::remove(s.begin(), s.end(), ','), s.end());
    return std::stoll(s);
  };
  EXPECT_LT(num("bwd_recompute_hbm_elements"), num("bwd_reference_hbm_elements"));
  EXPECT_GT(num("bwd_recompute_flops"), num("bwd_reference_flops"));   // recomputing S and P costs arithmetic
  EXPECT_EQ(num("bwd_recompute_reads:P"), 0);
  EXPECT_EQ(num("bwd_reference_reads:P"), 2 * 64);  // the stored 8 × 8 P, read for dV and again for dS
  EXPECT_EQ(num("total_writes:P"), 0);
  EXPECT_EQ(q.count("M"), 0u);
  EXPECT_EQ(At("n23_sram.json", "start").at("M"), "32");
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/backward_small.json");
  const auto panels = m->Panels(m->FindPosition("end"), "en");
  ASSERT_GE(panels.size(), 2u);
  EXPECT_NE(panels[1].title.find("Backward"), std::string::npos);   // right under "this run"
  ASSERT_EQ(panels[1].rows.size(), 6u);
  EXPECT_EQ(panels[1].rows[0].value, q.at("bwd_recompute_hbm_elements") + "\t" + q.at("bwd_reference_hbm_elements"));
  // dQ read / written, both passes: the counts BWD/r3 quotes.
  EXPECT_EQ(panels[1].rows[4].value, q.at("bwd_recompute_reads:dQ") + " / " + q.at("bwd_recompute_writes:dQ") + "\t" +
                                         q.at("bwd_reference_reads:dQ") + " / " + q.at("bwd_reference_writes:dQ"));
  // T_r = T_c = 2, B_r × d = 8: dQ_i read on each of the 4 tiles (32); written as a zero fill of all
  // 16 elements, then on each tile (16 + 32 = 48). The materialising pass writes dQ once (16).
  EXPECT_EQ(q.at("bwd_recompute_reads:dQ") + "/" + q.at("bwd_recompute_writes:dQ"), "32/48");
  EXPECT_EQ(q.at("bwd_reference_reads:dQ") + "/" + q.at("bwd_reference_writes:dQ"), "0/16");
  // Scenarios without "backward" have no backward placeholders.
  EXPECT_EQ(At("n49_flash2.json", "end").count("bwd_recompute_hbm_elements"), 0u);
}

}  // namespace
}  // namespace bw::view
