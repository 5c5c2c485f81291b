// LessonModel: every bound scenario loads and every position resolves, or the lesson fails as a
// whole with the lesson file and JSON path; attention scenarios resolve tile positions.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "data/json_file.h"
#include "view/attention_model.h"
#include "view/lesson_model.h"

namespace bw::view {
namespace {

namespace fs = std::filesystem;
const std::string kRoot = BLOCKWISE_ROOT;

std::string WriteLesson(const fs::path& dir, const std::string& name, const std::string& scenario_path,
                        const std::string& position) {
  const std::string step =
      R"("title": {"zh": "t", "en": "t"}, "body": {"zh": "b", "en": "b"}, "further": {"zh": "f", "en": "f"},
         "teacher_notes": {"zh": "n", "en": "n"}, "source": {"zh": "s", "en": "s"})";
  std::ofstream(dir / name) << R"({"schema_version": 1, "id": "X", "title": {"zh": "x", "en": "x"}, "scenarios": {"w": ")"
                            << scenario_path << R"("}, "steps": [{"id": "X/1", "scenario": "w", "position": ")" << position
                            << "\", " << step << "}]}";
  return (dir / name).string();
}

TEST(LessonModel, BadScenarioOrPositionNamesTheLessonPath) {
  const fs::path dir = fs::temp_directory_path() / "bw_lesson_model_test";
  fs::create_directories(dir / "scenarios");
  fs::copy_file(kRoot + "/lessons/scenarios/worked_214.json", dir / "scenarios/w.json", fs::copy_options::overwrite_existing);
  fs::copy_file(kRoot + "/tests/data/bad/negative_weight.json", dir / "scenarios/bad.json", fs::copy_options::overwrite_existing);
  const struct {
    std::string scenario, position, path, reason;
  } cases[] = {
      {"scenarios/nope.json", "start", "/scenarios/w", "file not found"},
      {"scenarios/bad.json", "start", "/scenarios/w", "/weights/1: weight is negative"},
      {"scenarios/w.json", "update:9", "/steps/0/position", "no position \"update:9\""},
  };
  for (const auto& c : cases) {
    const std::string file = WriteLesson(dir, "l.json", c.scenario, c.position);
    try {
      LoadLessonModel(file);
      FAIL() << c.scenario << " " << c.position;
    } catch (const data::LoadError& e) {
      EXPECT_EQ(e.file(), file);
      EXPECT_EQ(e.json_path(), c.path) << e.what();
      EXPECT_NE(e.reason().find(c.reason), std::string::npos) << e.what();
    }
  }
  const auto ok = LoadLessonModel(WriteLesson(dir, "ok.json", "scenarios/w.json", "update:2"));
  EXPECT_EQ(ok.EventOf(0), 4);
}

TEST(AttentionModel, PositionsCountersAndScene) {
  namespace js = nlohmann;
  const std::string text = R"({"schema_version": 2, "kind": "attention",
    "logits": [[0, 1, 2, 3], [1, 0, 1, 0], [2, 2, 2, 2], [0, 0, 0, 5]],
    "V": [[1], [2], [3], [4]], "mask": "causal", "tiles": {"B_r": 2, "B_c": 2}, "order": "flash2"})";
  const auto model = ParseScenarioModel(data::ParseJsonText(text, "t.json"), "t.json");
  ASSERT_EQ(model->Kind(), "attention");
  const auto& am = dynamic_cast<const AttentionModel&>(*model);
  EXPECT_EQ(am.T_r(), 2);
  EXPECT_EQ(am.T_c(), 2);
  // Causal, top-left: tile (1, 2) — rows 1–2, keys 3–4 — is fully masked and skipped.
  const int skip = model->FindPosition("tile:1,2");
  ASSERT_GE(skip, 0);
  EXPECT_EQ(model->EventLabel(skip), "skip (1,2)");
  const int merge = model->FindPosition("tile:2,2");
  ASSERT_GE(merge, 0);
  EXPECT_EQ(model->EventLabel(merge), "merge (2,2)");
  EXPECT_EQ(model->FindPosition("tile:3,1"), -1);
  EXPECT_GE(model->FindPosition("write:O:2"), 0);
  EXPECT_EQ(model->FindPosition("write:S"), -1);  // the tiled order never writes S
  EXPECT_EQ(model->FindPosition("end"), model->EventCount() - 1);

  const Scene at_skip = model->BuildScene(skip, "en", ClassroomPalette());
  ASSERT_TRUE(at_skip.FindRect("grid.1,2"));
  EXPECT_EQ(at_skip.FindRect("grid.1,2")->state, TileState::kMasked);
  EXPECT_EQ(at_skip.FindRect("grid.1,1")->state, TileState::kProcessed);
  EXPECT_EQ(at_skip.FindRect("grid.2,2")->state, TileState::kPending);
  // Given logits: no K slot at all; the S tile slot is empty at a skipped tile (nothing loaded).
  EXPECT_EQ(at_skip.FindRect("sram.K"), nullptr);
  ASSERT_TRUE(at_skip.FindRect("sram.S"));
  EXPECT_EQ(at_skip.FindRect("sram.S")->state, TileState::kNone);
  EXPECT_EQ(at_skip.FindRect("grid.1,2")->sublabel.empty(), false);
  const Scene end = model->BuildScene(model->EventCount() - 1, "en", ClassroomPalette());
  EXPECT_EQ(end.FindRect("hbm.O.1")->state, TileState::kWritten);
  EXPECT_EQ(end.FindRect("hbm.O.2")->state, TileState::kWritten);

  const auto q = model->QuantitiesAt(model->EventCount() - 1);
  EXPECT_EQ(q.at("total_tiles_skipped"), "1");
  EXPECT_EQ(q.at("total_tiles_computed"), "3");
  // Row 1 attends only key 1 (causal): O[1,1] = V_1 = 1.
  EXPECT_EQ(q.at("O[1,1]"), "1");
  // Given logits: each computed 2 × 2 tile of S is read once (3 tiles), no Q or K.
  EXPECT_EQ(q.at("reads:S"), "12");
  EXPECT_EQ(q.at("reads:Q"), "0");
  EXPECT_EQ(q.at("reads:K"), "0");

  // Given logits, the reference reads S (an input) and never writes it.
  const std::string ref_logits = R"({"schema_version": 2, "kind": "attention", "logits": [[0, 1], [1, 0]],
    "V": [[1], [2]], "order": "reference"})";
  const auto rl = ParseScenarioModel(data::ParseJsonText(ref_logits, "l.json"), "l.json");
  EXPECT_EQ(rl->FindPosition("write:S"), -1);
  const int rS = rl->FindPosition("read:S");
  ASSERT_GE(rS, 0);
  EXPECT_EQ(rl->BuildScene(rS, "en", ClassroomPalette()).FindRect("hbm.S")->state, TileState::kInSram);

  // From Q and K, the reference order writes and reads S and P in HBM.
  const std::string ref = R"({"schema_version": 2, "kind": "attention", "Q": [[1, 0], [0, 1]], "K": [[1, 0], [0, 1]],
    "V": [[1], [2]], "order": "reference"})";
  const auto rm = ParseScenarioModel(data::ParseJsonText(ref, "r.json"), "r.json");
  const int wS = rm->FindPosition("write:S");
  ASSERT_GE(wS, 0);
  const Scene sc = rm->BuildScene(wS, "en", ClassroomPalette());
  EXPECT_EQ(sc.FindRect("hbm.S")->state, TileState::kWritten);
  ASSERT_EQ(sc.arrows.size(), 1u);
  EXPECT_EQ(sc.arrows[0].id, "write.S");
}

// A step's text can quote another scenario of its lesson: {KEY/NAME} takes NAME from scenario KEY
// at its last event, while plain names stay the step's own scenario at the step's event.
TEST(LessonModel, PlaceholdersFromASecondScenario) {
  const auto m = LoadLessonModel(kRoot + "/lessons/rc-t3.json");
  const int b1 = m.lesson.FindStep("RC-T3/b1");
  const Quantities own = m.ScenarioOf(b1).QuantitiesAt(m.EventOf(b1));
  const auto f = m.Fill("{worked/output} {worked/u_b@1} {worked/average} {l} {{x}}", own);
  EXPECT_TRUE(f.unknown.empty());
  EXPECT_EQ(f.text, "160/7 \u2248 22.86 40 65/3 \u2248 21.67 " + own.at("l") + " {x}");
  EXPECT_NE(own.at("l"), m.scenarios.at("worked")->QuantitiesAt(m.EventOf(b1)).at("l"));   // a different input
  // Unknown scenario keys and names are reported, never filled with something else.
  const auto bad = m.Fill("{nope/output} {worked/nope}", own);
  ASSERT_EQ(bad.unknown.size(), 2u);
  EXPECT_EQ(bad.unknown[0], "nope/output");
  EXPECT_EQ(bad.text, "{nope/output?} {worked/nope?}");
  EXPECT_EQ(PlaceholderNames("a {x} {{y}} {z/w@1}"), (std::vector<std::string>{"x", "z/w@1"}));
}

}  // namespace
}  // namespace bw::view
