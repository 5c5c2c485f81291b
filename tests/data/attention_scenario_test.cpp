// Scenario file v2 (kind "attention"): every shipped assets/scenarios/attention_*.json loads and runs
// and its numbers match the reference; bad documents fail with the file, the JSON Pointer and the
// reason; oversized matrices are refused before anything is allocated.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "data/attention_scenario.h"
#include "data/json_file.h"

namespace bw::data {
namespace {

namespace fs = std::filesystem;

AttentionScenario Parse(const std::string& text) { return ParseAttentionScenario(ParseJsonText(text, "t.json"), "t.json"); }

// Expects a LoadError at `path` whose reason contains `reason_part`.
void ExpectError(const std::string& text, const std::string& path, const std::string& reason_part) {
  try {
    Parse(text);
    FAIL() << "no error for " << text;
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), "t.json");
    EXPECT_EQ(e.json_path(), path) << e.what();
    EXPECT_NE(e.reason().find(reason_part), std::string::npos) << e.what();
  }
}

const std::string kHead = R"("schema_version": 2, "kind": "attention", )";

TEST(AttentionScenario, EveryShippedScenarioLoadsAndRuns) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(BLOCKWISE_ROOT) / "assets" / "scenarios")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("attention_", 0) != 0 || entry.path().extension() != ".json") continue;
    ++n;
    const AttentionScenario sc = LoadAttentionScenario(entry.path());
    EXPECT_FALSE(sc.title.en.empty()) << name;
    const auto ref = engine::RunReference(sc.problem);
    engine::AttentionResult got;
    switch (sc.order) {
      case engine::Algorithm::kFlash2: got = engine::RunFlash2(sc.problem, sc.options); break;
      case engine::Algorithm::kFlash1: got = engine::RunFlash1(sc.problem, sc.options); break;
      default: got = engine::RunReference(sc.problem, sc.options); break;
    }
    if (sc.options.merge == engine::MergeVariant::kCorrect)
      EXPECT_TRUE(engine::Compare(got.O, ref.O, 1e-6, 1e-6).ok()) << name;
    else
      EXPECT_FALSE(engine::Compare(got.O, ref.O, 1e-6, 1e-6).ok()) << name << " (a wrong merge must differ)";
  }
  EXPECT_GE(n, 3);
}

TEST(AttentionScenario, ShippedNumbers) {
  const fs::path dir = fs::path(BLOCKWISE_ROOT) / "assets" / "scenarios";
  const auto rect = LoadAttentionScenario(dir / "attention_rectangular.json");
  EXPECT_TRUE(rect.from_logits);
  EXPECT_EQ(rect.problem.mask.alignment, engine::CausalAlignment::kBottomRight);
  EXPECT_EQ(rect.options.precision, engine::Precision::kFloat);
  const auto o = engine::RunFlash1(rect.problem, rect.options).O;
  EXPECT_NEAR(o(0, 0), 2.5, 1e-6);
  EXPECT_NEAR(o(1, 0), 3.0, 1e-6);
  const auto sram = LoadAttentionScenario(dir / "attention_sram.json");
  ASSERT_TRUE(sram.derivation);
  EXPECT_EQ(sram.options.tiles, (engine::TileSizes{2, 2}));  // ⌈24 / 12⌉ = 2, min(2, 3) = 2
  const auto pad = LoadAttentionScenario(dir / "attention_key_padding.json");
  EXPECT_EQ(engine::RunFlash2(pad.problem, pad.options).counters.tiles_skipped, 1);
  const auto causal = LoadAttentionScenario(dir / "attention_causal_small.json");
  EXPECT_TRUE(causal.backward);
  EXPECT_FALSE(causal.dO_given);
  EXPECT_TRUE(causal.dO.isOnes());
}

TEST(AttentionScenario, FullDocument) {
  const auto sc = Parse("{" + kHead + R"("Q": [[1, 2]], "K": [[1, 0], [0, 1], [1, 1]], "V": [[1], [2], [3]],
      "scale": 0.5, "mask": {"kind": "explicit", "keep": [[1, false, true]]}, "tiles": {"B_r": 1, "B_c": 2},
      "order": "flash1", "precision": "float", "backward": true, "dO": [[2]]})");
  EXPECT_EQ(sc.problem.n_q(), 1);
  EXPECT_EQ(sc.problem.n_k(), 3);
  EXPECT_EQ(sc.problem.d(), 2);
  EXPECT_EQ(sc.problem.EffectiveScale(), 0.5);
  EXPECT_EQ(sc.problem.mask.kind, engine::MaskKind::kExplicit);
  EXPECT_EQ(sc.problem.mask.keep(0, 1), 0);
  EXPECT_EQ(sc.order, engine::Algorithm::kFlash1);
  EXPECT_TRUE(sc.dO_given);
  EXPECT_EQ(sc.dO(0, 0), 2.0);
  // Empty Q: N_q = 0 is allowed, d comes from K.
  const auto empty = Parse("{" + kHead + R"("Q": [], "K": [[1, 2]], "V": [[3]], "order": "reference"})");
  EXPECT_EQ(empty.problem.n_q(), 0);
  EXPECT_EQ(empty.problem.d(), 2);
  // Causal as a string takes the default alignment (top-left).
  const auto c = Parse("{" + kHead + R"("logits": [[0, 0]], "V": [[1], [2]], "mask": "causal", "tiles": {"B_r": 1, "B_c": 1}})");
  EXPECT_EQ(c.problem.mask.alignment, engine::CausalAlignment::kTopLeft);
  EXPECT_EQ(c.order, engine::Algorithm::kFlash2);
}

TEST(AttentionScenario, BadDocumentsNameThePathAndTheReason) {
  const std::string qkv = R"("Q": [[1, 2]], "K": [[1, 0], [0, 1]], "V": [[1], [2]], )";
  ExpectError(R"({"schema_version": 1, "kind": "attention"})", "/schema_version", "");
  ExpectError(R"({"schema_version": 2, "kind": "single_query"})", "/kind", "attention");
  ExpectError("{" + kHead + R"("Q": [[1, 2]], "K": [[1, 0, 3]], "V": [[1]], "order": "reference"})", "/K/0", "expected 2");
  ExpectError("{" + kHead + R"("Q": [[1, 2], [3]], "K": [[1, 0]], "V": [[1]], "order": "reference"})", "/Q/1", "row has 1");
  ExpectError("{" + kHead + R"("Q": [[1, 2]], "K": [[1, 0]], "V": [[1], [2]], "order": "reference"})", "/V", "N_k = 1");
  ExpectError("{" + kHead + R"("Q": [[1, "x"]], "K": [[1, 0]], "V": [[1]], "order": "reference"})", "/Q/0/1", "number");
  ExpectError("{" + kHead + qkv + R"("tiles": {"B_r": 0, "B_c": 1}})", "/tiles/B_r", "at least 1");
  ExpectError("{" + kHead + qkv + R"("tiles": {"B_r": 1.5, "B_c": 1}})", "/tiles/B_r", "whole number");
  ExpectError("{" + kHead + qkv + R"("order": "flash2"})", "/tiles", "needs");
  ExpectError("{" + kHead + qkv + R"("tiles": {"B_r": 1, "B_c": 1}, "sram_elements": 64})", "/sram_elements", "not both");
  ExpectError("{" + kHead + qkv + R"("order": "flash3"})", "/order", "flash3");
  ExpectError("{" + kHead + qkv + R"("order": "reference", "precision": "half"})", "/precision", "half");
  ExpectError("{" + kHead + qkv + R"("order": "reference", "mask": {"kind": "key_padding", "keep": [1]}})", "/mask/keep", "N_k = 2");
  ExpectError("{" + kHead + qkv + R"("order": "reference", "mask": {"kind": "key_padding", "keep": [1, 2]}})", "/mask/keep/1", "");
  ExpectError("{" + kHead + qkv + R"("order": "reference", "mask": {"kind": "explicit", "keep": [[1]]}})", "/mask/keep/0", "N_k = 2");
  ExpectError("{" + kHead + qkv + R"("order": "reference", "mask": {"kind": "causal", "alignment": "middle"}})", "/mask/alignment", "top_left");
  ExpectError("{" + kHead + qkv + R"("order": "reference", "mask": "sliding"})", "/mask", "none");
  ExpectError("{" + kHead + qkv + R"("order": "flash1", "tiles": {"B_r": 1, "B_c": 1}, "merge": "no_rescale"})", "/merge", "flash2");
  ExpectError("{" + kHead + qkv + R"("order": "reference", "dO": [[1, 2]]})", "/dO/0", "expected 1");
  ExpectError("{" + kHead + qkv + R"("order": "reference", "backward": "yes"})", "/backward", "true or false");
  ExpectError("{" + kHead + R"("logits": [[1]], "Q": [[1]], "V": [[1]]})", "/logits", "not both");
  ExpectError("{" + kHead + R"("Q": [[1]], "K": [[1]]})", "/V", "missing");
}

TEST(AttentionScenario, SizesAreCheckedBeforeAllocating) {
  // 8193 empty rows: refused by the row limit before any matrix exists.
  nlohmann::json doc = {{"schema_version", 2}, {"kind", "attention"}, {"order", "reference"}};
  doc["Q"] = nlohmann::json::array();
  for (int i = 0; i < kMaxAttentionRows + 1; ++i) doc["Q"].push_back(nlohmann::json::array({1}));
  doc["K"] = nlohmann::json::array({nlohmann::json::array({1})});
  doc["V"] = nlohmann::json::array({nlohmann::json::array({1})});
  try {
    ParseAttentionScenario(doc, "big.json");
    FAIL();
  } catch (const LoadError& e) {
    EXPECT_EQ(e.json_path(), "/Q");
    EXPECT_NE(e.reason().find("limit"), std::string::npos);
  }
  // Logits wider than kMaxLogitKeys (they would need an N_k × N_k identity for K).
  nlohmann::json logits = {{"schema_version", 2}, {"kind", "attention"}, {"order", "reference"}};
  logits["logits"] = nlohmann::json::array({nlohmann::json(std::vector<int>(kMaxLogitKeys + 1, 0))});
  logits["V"] = nlohmann::json::array();
  try {
    ParseAttentionScenario(logits, "logits.json");
    FAIL();
  } catch (const LoadError& e) {
    EXPECT_EQ(e.json_path(), "/logits/0");
    EXPECT_NE(e.reason().find("limit"), std::string::npos) << e.what();
  }
  // Too many numbers in total (rows × cols over kMaxAttentionElements) with few rows parsed.
  nlohmann::json wide = {{"schema_version", 2}, {"kind", "attention"}, {"order", "reference"}};
  wide["Q"] = nlohmann::json::array();
  nlohmann::json row = nlohmann::json::array();
  for (int j = 0; j < 1024; ++j) row.push_back(0);
  for (int i = 0; i < 4097; ++i) wide["Q"].push_back(row);
  wide["K"] = nlohmann::json::array({row});
  wide["V"] = nlohmann::json::array({nlohmann::json::array({1})});
  try {
    ParseAttentionScenario(wide, "wide.json");
    FAIL();
  } catch (const LoadError& e) {
    EXPECT_EQ(e.json_path(), "/Q");
    EXPECT_NE(e.reason().find("numbers"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace bw::data
