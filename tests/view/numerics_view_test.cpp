// Issue 12 in the view: the numerics report beside the numbers it affects, in zh and en; a NaN never
// labelled "match", underflow never "masked"; distinct values printed distinctly (case 9); and the
// NaN check the corpus test and the fuzz targets share (issue 17 item 8) fires on a planted NaN.
#include <gtest/gtest.h>

#include <filesystem>

#include "view/format.h"
#include "view/numerics_panel.h"
#include "view/scenario_model.h"
#include "view/scene.h"

namespace bw::view {
namespace {

const std::filesystem::path kFiles = std::filesystem::path(BLOCKWISE_ROOT) / "tests" / "corpus" / "files";

std::string AllPanelText(const ScenarioModel& m, int e, const std::string& lang) {
  std::string s;
  for (const auto& sec : m.Panels(e, lang)) {
    s += sec.title + "\n";
    for (const auto& r : sec.rows) s += r.name + ": " + r.value + "\n";
  }
  return s;
}

const PanelSection* FindSection(const std::vector<PanelSection>& secs, const std::string& title_start) {
  for (const auto& s : secs)
    if (s.title.rfind(title_start, 0) == 0) return &s;
  return nullptr;
}

// ---- the shared NaN check, on a planted NaN ------------------------------------------------------

class PlantedNaN final : public ScenarioModel {
 public:
  explicit PlantedNaN(std::string shown, bool in_panel) : shown_(std::move(shown)), in_panel_(in_panel) {}
  std::string Kind() const override { return "planted"; }
  const data::LocalText& Title() const override { return title_; }
  const std::string& File() const override { return file_; }
  int EventCount() const override { return 3; }
  std::string EventLabel(int) const override { return "e"; }
  std::vector<data::AcceptedPosition> AcceptedPositions() const override { return {}; }
  int Find(const data::Position&) const override { return -1; }
  using ScenarioModel::BuildScene;
  Scene BuildScene(int, const std::string&, const Palette&, const SceneFrame&) const override { return {}; }
  std::vector<PanelSection> Panels(int e, const std::string&) const override {
    PanelSection s;
    s.rows.push_back({"O", in_panel_ && e == 2 ? shown_ : "1.5"});
    return {s};
  }
  Quantities QuantitiesAt(int e) const override { return {{"output", !in_panel_ && e == 1 ? shown_ : "1.5"}}; }
  std::vector<TimelineMark> BlockMarks() const override { return {}; }
  std::vector<std::string> Texts() const override { return {}; }
  const engine::NumericsReport* Numerics() const override { return &report; }
  engine::NumericsReport report;

 private:
  std::string shown_;
  bool in_panel_;
  data::LocalText title_;
  std::string file_ = "planted.json";
};

TEST(SharedNaNCheck, FiresOnAPlantedNaNInEveryCaseAndPlace) {
  for (const char* text : {"NaN", "nan", "-nan", "NAN", "(1, NaN)"})
    for (bool in_panel : {false, true}) {
      PlantedNaN m(text, in_panel);
      EXPECT_EQ(UnexplainedNaNs(m).size(), in_panel ? 2u : 1u) << text << (in_panel ? " in a panel" : " in a quantity");
      m.report.Add({engine::NumericsKind::kNaN, "O", 0, 0, -1, -1, 0.0, "double"});
      EXPECT_TRUE(UnexplainedNaNs(m).empty()) << "a NaN the report names is explained";
    }
  EXPECT_FALSE(ShowsNaN("finance, nano, Nanjing, 1.5"));
  // The checks it replaced searched for "nan" while FormatDouble prints "NaN": they could not fire.
  EXPECT_EQ(FormatDouble(std::nan("")), "NaN");
  EXPECT_TRUE(ShowsNaN(FormatDouble(std::nan(""))));
}

// ---- case 1: NaN is not a match ------------------------------------------------------------------

TEST(NumericsView, Case1OverflowIsNamedAndNotAMatch) {
  const auto m = LoadScenarioModel(kFiles / "numerics_case1_qk_overflow.json");
  const int end = m->EventCount() - 1;
  for (const char* lang : {"en", "zh"}) {
    const auto secs = m->Panels(end, lang);
    ASSERT_GE(secs.size(), 2u);
    // Right after "this run" (which holds the output and the comparison).
    EXPECT_EQ(secs[1].title, UiText(Str::num_title, lang) + " (3)");
    EXPECT_EQ(secs[1].rows[0].name, UiText(Str::num_infinite_score, lang));
    EXPECT_TRUE(secs[1].rows[0].warning);
    const std::string text = AllPanelText(*m, end, lang);
    EXPECT_EQ(text.find(UiText(Str::check_vs_reference, lang) + ": " + UiText(Str::match, lang)), std::string::npos) << text;
  }
  EXPECT_EQ(m->Panels(end, "en")[1].rows[0].value, "S = +\u221e \u00b7 row 1, key 1 \u00b7 tile (1,1)");
  EXPECT_EQ(m->Panels(end, "zh")[1].rows[0].value, "S = +\u221e \u00b7 第 1 行，第 1 个键 \u00b7 分块 (1,1)");
  const std::string en = AllPanelText(*m, end, "en");
  EXPECT_NE(en.find("1 with NaN or \u00b1Inf: never a match"), std::string::npos) << en;
  // The wrong merges' table shows the NaN count, not "max error 0".
  const auto panels = m->Panels(end, "en");  // kept alive: FindSection points into it
  const auto* wrong = FindSection(panels, UiText(Str::wrong_merges, "en"));
  ASSERT_NE(wrong, nullptr);
  for (size_t r = 1; r < wrong->rows.size(); ++r) EXPECT_NE(wrong->rows[r].value.find("NaN \u00d71"), std::string::npos);
}

// ---- case 2: underflow is not masking ------------------------------------------------------------

TEST(NumericsView, Case2UnderflowIsNotMasking) {
  const auto m = LoadScenarioModel(kFiles / "numerics_case2_raw_underflow.json");
  const int end = m->EventCount() - 1;
  for (const char* lang : {"en", "zh"}) {
    const std::string text = AllPanelText(*m, end, lang);
    EXPECT_EQ(text.find(UiText(Str::all_masked, lang)), std::string::npos) << text;
    EXPECT_NE(text.find(UiText(Str::true_output, lang) + ": 24.21"), std::string::npos) << text;
    EXPECT_NE(text.find(UiText(Str::num_weights_underflow, lang) + ": l_b = 0"), std::string::npos) << text;
    EXPECT_NE(text.find(UiText(Str::num_hint_weights_underflow, lang)), std::string::npos) << text;
  }
  const auto scene = m->BuildScene(end, "en", ClassroomPalette());
  for (const char* id : {"hbm.kv.1", "hbm.kv.2"}) {
    const SceneRect* r = scene.FindRect(id);
    ASSERT_NE(r, nullptr) << id;
    EXPECT_NE(r->state, TileState::kMasked) << id << ": underflow drawn as masking";
  }
  const auto heat = m->HeatmapAt(end);
  ASSERT_TRUE(heat.has_value());
  EXPECT_NEAR(heat->values[2], 1 / (std::exp(-1.0) + std::exp(-2.0) + 1), 1e-6);  // the true P, not grey
}

// ---- cases 3–5: named where they happen, with the JSON path of the input ---------------------------

TEST(NumericsView, Case3RawOverflowIsNamedWithItsPosition) {
  const auto m = LoadScenarioModel(kFiles / "numerics_case3_raw_710.json");
  const auto secs = m->Panels(m->EventCount() - 1, "en");
  ASSERT_GE(secs.size(), 2u);
  EXPECT_EQ(secs[1].rows[0].name, "exp overflow");
  EXPECT_EQ(secs[1].rows[0].value, "e^s = +\u221e (s = 710) \u00b7 position 1 \u00b7 block 1 \u00b7 /logits/0");
}

TEST(NumericsView, Case4OutOfRangeNamesTheJsonPath) {
  const auto m = LoadScenarioModel(kFiles / "numerics_case4_float_logit_1e39.json");
  const auto secs = m->Panels(0, "en");
  ASSERT_GE(secs.size(), 2u);
  EXPECT_EQ(secs[1].rows[0].value, "Q = 1e+39 \u00b7 row 1, column 1 \u00b7 /logits/0/0 \u00b7 float: becomes +\u221e");
  const auto neg = LoadScenarioModel(kFiles / "numerics_case4_float_logits_minus_1e39.json");
  EXPECT_EQ(AllPanelText(*neg, 0, "en").find(UiText(Str::flagged_rows, "en")), std::string::npos) << "nothing is masked";
}

TEST(NumericsView, Case5MaskedValueDoesNotPoisonTheOutput) {
  const auto m = LoadScenarioModel(kFiles / "numerics_case5_masked_V_1e300_float.json");
  EXPECT_EQ(m->QuantitiesAt(0).at("O[1,1]"), "1.755");
  EXPECT_NE(AllPanelText(*m, 0, "en").find("/V/2/0 \u00b7 float: becomes +\u221e"), std::string::npos);
}

// ---- case 9: distinct values print distinctly ------------------------------------------------------

TEST(NumericsView, Case9DistinctValuesPrintDistinctly) {
  EXPECT_EQ(FormatDistinct({-60000, -60001}), (std::vector<std::string>{"\u221260000", "\u221260001"}));
  EXPECT_EQ(FormatDistinct({2, 1, 4}), (std::vector<std::string>{"2", "1", "4"}));
  EXPECT_EQ(FormatDistinct({0.1, 0.10000000000000002}),
            (std::vector<std::string>{"0.10000000000000001", "0.10000000000000002"}));  // 17 digits tell them apart
  EXPECT_EQ(FormatDistinct({22.857142857, 1}), (std::vector<std::string>{"22.86", "1"}));
  const auto m = LoadScenarioModel(kFiles / "numerics_case9_close_logits_stable.json");
  EXPECT_EQ(m->QuantitiesAt(0).at("logits"), "(\u221260000, \u221260001)");
}

}  // namespace
}  // namespace bw::view
