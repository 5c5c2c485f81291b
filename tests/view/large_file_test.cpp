// Issue 31, item 9: work proportional to what is shown. A single-query file at the loader's limits
// (65,536 positions in 65,536 blocks, or in one block) is drawn, listed and baked from a bounded
// number of records: the diagram's row holds seven tiles, the block table the rows around the
// current block, the balance a note instead of 65,536 bars, the glyph list a sample. On 2b49f17 the
// diagram had a tile per block (drawn across the SRAM panel past a dozen), the table 65,536 rows, the
// glyph list every event's scene (4,098 scenes for 2,048 blocks: 162 s to a bad_alloc), and
// `blockwise-cli run` formatted every block's numbers once per block.
#include <gtest/gtest.h>

#include <string>

#include "data/json_file.h"
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

}  // namespace
}  // namespace bw::view
