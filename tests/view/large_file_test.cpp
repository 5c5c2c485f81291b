// Issue 31, item 9: work proportional to what is shown. A single-query file at the loader's limits
// (65,536 positions in 65,536 blocks, or in one block) is drawn, listed and baked from a bounded
// number of records: the diagram's row holds seven tiles, the block table the rows around the
// current block, the balance a note instead of 65,536 bars, the glyph list a sample. On 2b49f17 the
// diagram had a tile per block (drawn across the SRAM panel past a dozen), the table 65,536 rows, the
// glyph list every event's scene (4,098 scenes for 2,048 blocks: 162 s to a bad_alloc), and
// `blockwise-cli run` formatted every block's numbers once per block.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "data/attention_scenario.h"
#include "data/scenario.h"
#include "data/json_file.h"
#include "view/lesson_model.h"
#include "view/format.h"
#include "view/lesson_text.h"
#include "view/merge_views.h"
#include "view/scenario_model.h"
#include "view/single_query_model.h"

namespace bw::view {
namespace {

std::shared_ptr<const ScenarioModel> SingleQuery(int n, int blocks) {
  std::string w, v, b;
  for (int i = 0; i < n; ++i) {
    w += (i ? "," : "") + std::to_string(i % 7 + 1);
    v += (i ? "," : "") + std::to_string(i % 11 + 1);
  }
  for (int j = 0; j < blocks; ++j) b += (j ? "," : "") + std::to_string(n / blocks);
  const std::string text = R"({"schema_version": 1, "kind": "single_query", "title": {"zh": "大", "en": "large"}, "weights": [)" + w +
                           R"(], "values": [)" + v + R"(], "block_sizes": [)" + b + R"(], "mode": "stable"})";
  return ParseScenarioModel(data::ParseJsonText(text, "large.json"), "large.json");
}

int Count(const Scene& sc, const std::string& prefix) {
  int k = 0;
  for (const auto& r : sc.rects) k += r.id.rfind(prefix, 0) == 0;
  return k;
}

TEST(LargeFiles, SixtyFiveThousandBlocksAreSummarisedInTheDiagramTableBalanceAndGlyphs) {
  const auto m = SingleQuery(65536, 65536);
  const auto& sq = dynamic_cast<const SingleQueryModel&>(*m);
  const int e = sq.run().FindEvent("update:3000");
  ASSERT_EQ(e, 6000);
  for (const char* lang : {"zh", "en"}) {
    SCOPED_TRACE(lang);
    const Scene sc = m->BuildScene(e, lang, ClassroomPalette());
    // Block 1, the run 2–2,998, blocks 2,999–3,001, the run 3,002–65,535, block 65,536.
    EXPECT_EQ(Count(sc, "hbm.kv."), 7);
    for (const char* id : {"hbm.kv.1", "hbm.kv.2999", "hbm.kv.3000", "hbm.kv.3001", "hbm.kv.65536", "hbm.kv.run.2", "hbm.kv.run.3002"})
      EXPECT_NE(sc.FindRect(id), nullptr) << id;
    EXPECT_NE(sc.FindRect("hbm.kv.run.2")->label.find("2\u20132,998"), std::string::npos);
    EXPECT_EQ(sc.FindRect("hbm.kv.3000")->state, TileState::kProcessed);
    EXPECT_EQ(sc.FindRect("hbm.kv.run.3002")->state, TileState::kPending);
    // Every tile inside the HBM panel.
    const SceneRect* hbm = sc.FindRect("hbm");
    for (const auto& r : sc.rects)
      if (r.id.rfind("hbm.kv.", 0) == 0) EXPECT_LE(r.x + r.w, hbm->x + hbm->w) << r.id;

    // The block table: 64 rows around block 3,000 and a row each side that says how many are not listed.
    const auto panels = m->Panels(e, lang);
    const auto& blocks = panels.at(1);
    ASSERT_EQ(blocks.id, "blocks");
    ASSERT_EQ(blocks.rows.size(), 66u);
    EXPECT_EQ(blocks.rows.front().name, "1\u20132967");
    EXPECT_EQ(blocks.rows[1].name, "2968");
    EXPECT_EQ(blocks.rows.back().name, "3032\u201365536");
    EXPECT_EQ(blocks.rows.front().value.rfind("2,967 ", 0), 0u) << blocks.rows.front().value;

    // The balance: no bar, no block label; a note, and the axis.
    const Scene bal = BuildBalanceScene(sq.run(), e, lang, ClassroomPalette());
    EXPECT_EQ(Count(bal, "balance.w."), 0);
    EXPECT_EQ(Count(bal, "balance.bracket."), 0);
    EXPECT_NE(bal.FindRect("balance.axis"), nullptr);
    std::string note;
    for (const auto& t : bal.texts)
      if (t.id.rfind("balance.note.", 0) == 0) note += t.text;
    EXPECT_NE(note.find("65,536"), std::string::npos) << note;
  }
  // The glyph list: a sample of events, not every one (131,074 here), and the characters numbers use.
  const auto texts = m->Texts();
  EXPECT_LT(texts.size(), 2000u);
  bool glyphs = false;
  for (const auto& t : texts) glyphs |= t == kNumberGlyphs;
  EXPECT_TRUE(glyphs);
}

// A MoE file at its limits, 4,096 tokens routed to 256 experts each: the experts' loads were a
// square per routed token, a million rects per frame (19.8 s to the first frame, 5–8 s per key).
// Past kMaxLoadSquares the load is two bars per expert.
TEST(LargeFiles, AMoeFileAtItsLimitsDrawsBarsNotAMillionSquares) {
  std::string logits;
  for (int t = 0; t < 4096; ++t) {
    logits += t ? ",[" : "[";
    for (int e = 0; e < 256; ++e) logits += (e ? "," : "") + std::to_string((t * 7 + e * 13) % 19 - 9);
    logits += "]";
  }
  const std::string text = R"({"schema_version": 1, "kind": "moe", "parameters": {"shared": 1000, "expert": 1000, "experts": 256, "top_k": 256}, "router": {"logits": [)" +
                           logits + "]}}";
  const auto m = ParseScenarioModel(data::ParseJsonText(text, "moe.json"), "moe.json");
  const Scene sc = m->BuildScene(m->EventCount() - 1, "en", ClassroomPalette());
  EXPECT_LT(sc.rects.size(), 2000u);
  EXPECT_EQ(Count(sc, "load.1.served"), 1);
  EXPECT_NE(sc.FindRect("load.256.served"), nullptr);
  EXPECT_EQ(sc.FindRect("load.1.1"), nullptr) << "no square per token at 4,096 tokens";
}

TEST(LargeFiles, OneBlockOfSixtyFiveThousandPositionsShowsSixteenOfThem) {
  const auto m = SingleQuery(65536, 1);
  const Scene sc = m->BuildScene(1, "en", ClassroomPalette(), {1920, 1080, 1, true, true});   // load:1 on a projector
  const SceneRect* kv = sc.FindRect("hbm.kv.1");
  ASSERT_NE(kv, nullptr);
  EXPECT_NE(kv->label.find("w 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 1, 2, \u2026"), std::string::npos) << kv->label;
  EXPECT_LT(kv->label.size(), 200u);
}

// The CLI's `run` formats each block's numbers once (StateQuantitiesAt + AddBlockQuantities), not
// every block's at every block: the state's quantities do not grow with the file.
TEST(LargeFiles, TheStateQuantitiesDoNotGrowWithTheFile) {
  const auto small = SingleQuery(4, 2), large = SingleQuery(65536, 65536);
  const auto& a = dynamic_cast<const SingleQueryModel&>(*small).run();
  const auto& b = dynamic_cast<const SingleQueryModel&>(*large).run();
  EXPECT_EQ(StateQuantitiesAt(a, 3).size(), StateQuantitiesAt(b, 3).size());
  Quantities q = StateQuantitiesAt(b, b.FindEvent("update:40000"));
  AddBlockQuantities(q, b, 40000);
  EXPECT_EQ(q.at("m_b@40000"), "ln 2");   // position 40,000: weight 39,999 mod 7 + 1 = 2
  EXPECT_EQ(q.at("u_b@40000"), std::to_string(39999 % 11 + 1));
  EXPECT_EQ(q.at("merged"), "40000");
  EXPECT_EQ(b.BlocksMergedAt(b.FindEvent("load:40000")), 39999);
  EXPECT_EQ(b.FindEvent("update:65536"), 131072);
  EXPECT_EQ(b.FindEvent("write"), 131073);
  EXPECT_EQ(b.FindEvent("update:65537"), -1);
  // The full set is the state's plus every block's and the inputs' (QuantitiesAt: O(blocks)).
  EXPECT_EQ(QuantitiesAt(a, 3).size(), StateQuantitiesAt(a, 3).size() + 2 * 9 + 3);
}


TEST(LargeFiles, BlocksTimesValueColumnsOfASingleQueryFileAreBounded) {
  // 16,384 blocks of d_v = 256 took 13 s and 2.2 GB to load on 2b49f17: 4,194,304 block values.
  const auto file = [](int blocks, int d_v) {
    std::string w, v, row = "[", b;
    for (int c = 0; c < d_v; ++c) row += c ? ",1" : "1";
    row += "]";
    for (int i = 0; i < blocks; ++i) {
      w += i ? ",1" : "1";
      v += (i ? "," : "") + row;
      b += i ? ",1" : "1";
    }
    return R"({"schema_version": 1, "kind": "single_query", "title": {"zh": "宽", "en": "wide"}, "weights": [)" + w + R"(], "values": [)" + v +
           R"(], "block_sizes": [)" + b + R"(], "mode": "raw"})";
  };
  try {
    (void)data::ParseSingleQueryScenario(data::ParseJsonText(file(16385, 64), "wide.json"), "wide.json");
    ADD_FAILURE() << "loaded";
  } catch (const data::LoadError& e) {
    EXPECT_EQ(std::string(e.what()), "wide.json: /block_sizes: 16385 blocks x d_v 64 = 1048640 block values (each block's states are kept for "
                                     "the trace); the limit is 1048576 (use larger blocks or fewer value columns)");
  }
  EXPECT_EQ(data::BlockValues(data::ParseSingleQueryScenario(data::ParseJsonText(file(16384, 64), "wide.json"), "wide.json").problem),
            data::kMaxBlockValues);
}

// Issue 31, item 10: a 17 KB lesson naming in-limits attention files took 82 s and 4.5 GB to its
// first window: each key ran its file again, and the limits bounded each file, not the lesson. One
// pass's work, N_q × N_k × (d + d_v) multiply-adds, is now bounded (data::kMaxMultiplyAdds), a lesson's
// attention scenarios share that budget and kMaxScoreElements, and a file named twice is run once.
std::string Matrix(int rows, int cols) {
  std::string row = "[", m = "[";
  for (int c = 0; c < cols; ++c) row += c ? ",1" : "1";
  row += "]";
  for (int r = 0; r < rows; ++r) m += (r ? "," : "") + row;
  return m + "]";
}
std::string Attention(int n_q, int n_k, int d, int d_v) {
  return R"({"schema_version": 2, "kind": "attention", "title": {"zh": "大", "en": "large"}, "Q": )" + Matrix(n_q, d) + R"(, "K": )" +
         Matrix(n_k, d) + R"(, "V": )" + Matrix(n_k, d_v) + R"(, "tiles": {"B_r": 64, "B_c": 64}, "order": "flash2"})";
}

TEST(LargeFiles, OnePassOfAnAttentionFileIsBounded) {
  // 2048 × 8192 scores (at kMaxScoreElements) with d + d_v = 129: 2,164,260,864 multiply-adds.
  try {
    (void)data::ParseAttentionScenario(data::ParseJsonText(Attention(2048, 8192, 65, 64), "wide.json"), "wide.json");
    ADD_FAILURE() << "loaded";
  } catch (const data::LoadError& e) {
    EXPECT_EQ(std::string(e.what()), "wide.json: /V: N_q x N_k x (d + d_v) = 2048 x 8192 x (65 + 64) = 2164260864 multiply-adds per pass; "
                                     "the limit is 2147483648 (the app makes up to four passes when it opens the file)");
  }
  const auto at_limit = data::ParseAttentionScenario(data::ParseJsonText(Attention(2048, 8192, 64, 64), "wide.json"), "wide.json");
  EXPECT_EQ(data::MultiplyAdds(at_limit.problem), data::kMaxMultiplyAdds);
}

class LessonBudget : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("bw_lesson_budget_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_ / "scenarios");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void Write(const std::string& rel, const std::string& text) { std::ofstream(dir_ / rel) << text; }
  std::string Lesson(const std::string& scenarios) {
    const std::string t = R"({"zh": "字", "en": "text"})";
    const std::string step = R"({"id": "L/0", "scenario": "a", "position": "start", "title": )" + t + R"(, "body": )" + t +
                             R"(, "further": )" + t + R"(, "teacher_notes": )" + t + R"(, "source": )" + t + "}";
    Write("lesson.json", R"({"schema_version": 1, "id": "L", "title": {"zh": "课", "en": "Lesson"}, "scenarios": )" + scenarios +
                             R"(, "steps": [)" + step + "]}");
    return (dir_ / "lesson.json").string();
  }
  std::filesystem::path dir_;
};

TEST_F(LessonBudget, TwoFilesWithinTheLimitsEachButNotTogetherAreRefusedBeforeEitherRuns) {
  Write("scenarios/a.json", Attention(3000, 3000, 1, 1));   // 9,000,000 scores each: 18,000,000 together
  Write("scenarios/b.json", Attention(3000, 3000, 1, 1));
  const std::string path = Lesson(R"({"a": "scenarios/a.json", "b": "scenarios/b.json"})");
  try {
    (void)LoadLessonModel(path);
    ADD_FAILURE() << "loaded";
  } catch (const data::LoadError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": /scenarios/b: the lesson's attention scenarios hold 18000000 scores together (N_q x N_k, each file "
                                            "once); the limit is 16777216, as for one file: the app runs them all when the lesson opens");
  }
}

TEST_F(LessonBudget, SingleQueryFilesShareTheBlockValuesLimit) {
  std::string w, v, b;
  for (int i = 0; i < 40000; ++i) {
    w += i ? ",1" : "1", b += i ? ",1" : "1";
    v += i ? ",[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]" : "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
  }
  const std::string sq = R"({"schema_version": 1, "kind": "single_query", "title": {"zh": "长", "en": "long"}, "weights": [)" + w +
                         R"(], "values": [)" + v + R"(], "block_sizes": [)" + b + R"(], "mode": "raw"})";
  for (const char* name : {"a", "b"}) Write(std::string("scenarios/") + name + ".json", sq);   // 640,000 block values each
  const std::string path = Lesson(R"({"a": "scenarios/a.json", "b": "scenarios/b.json"})");
  try {
    (void)LoadLessonModel(path);
    ADD_FAILURE() << "loaded";
  } catch (const data::LoadError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": /scenarios/b: the lesson's single-query scenarios hold 1280000 block values together (blocks x d_v, "
                                            "each file once); the limit is 1048576, as for one file: the app runs them all when the lesson opens");
  }
}

TEST_F(LessonBudget, AFileNamedByManyKeysIsRunOnceAndCountedOnce) {
  Write("scenarios/a.json", Attention(3000, 3000, 1, 1));
  std::string keys = "{";
  for (int k = 0; k < 64; ++k) keys += (k ? ", " : "") + std::string("\"") + (k ? "k" + std::to_string(k) : "a") + "\": \"scenarios/a.json\"";
  const LessonModel m = LoadLessonModel(Lesson(keys + "}"));
  ASSERT_EQ(m.scenarios.size(), 64u);
  for (const auto& [key, model] : m.scenarios) EXPECT_EQ(model.get(), m.scenarios.at("a").get()) << key;
}

}  // namespace
}  // namespace bw::view
