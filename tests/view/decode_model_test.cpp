// Issue 34: the "decode" scenario kind — split-KV decoding as the app scrubs it. The seed's numbers
// (weights 2, 1, 4, values 10, 20, 30; logits ln 2, 0, ln 4 in stable mode) in two splits, [2, 1] and
// [4]: split 1 alone has m = ln 2, l = 1 + 1/2 = 3/2, u = 10 + 20/2 = 20, O_1 = 40/3, lse_1 = ln 3;
// split 2 has m = ln 4, l = 1, u = 30, O_2 = 30, lse_2 = ln 4. The combine takes split 1 (m = ln 2,
// l = 3/2, u = 20), then split 2 with α = 2/4 = 1/2: l = 3/4 + 1 = 7/4, u = 10 + 30 = 40, O = 160/7.
// The wrong combines: (40/3 + 30)/2 = 65/3; (20 + 30)/(3/2 + 1) = 20; (2·40/3 + 4·30)/(2 + 4) = 220/9.
// The GPU panel: 8 thread blocks on 132 SMs keep 8 busy; ChooseSplitCount(8, 132, 512) = 14 (the
// smallest count within 85 % of the best wave efficiency 128/132: 112/132 ≥ 0.85 · 128/132), so 112
// thread blocks, 112 SMs busy (84.8 %).
#include <gtest/gtest.h>

#include "view/decode_model.h"
#include "view/format.h"

namespace bw::view {
namespace {

const std::string kRoot = BLOCKWISE_ROOT;

std::shared_ptr<const ScenarioModel> Load(const char* name) { return LoadScenarioModel(kRoot + "/lessons/scenarios/" + name); }

engine::Rational Q(long n, long d = 1) { return engine::Rational(n) / d; }

engine::Rational ExactAt(const ScenarioModel& m, const std::string& position, const std::string& name) {
  const auto n = m.NumberAt(m.FindPosition(position), name);
  EXPECT_TRUE(n && n->exact) << position << " " << name;
  return n && n->exact ? *n->exact : Q(-999);
}

const PanelRow* Row(const std::vector<PanelSection>& sections, const std::string& id, const std::string& name) {
  for (const auto& s : sections)
    if (s.id == id)
      for (const auto& r : s.rows)
        if (r.name == name) return &r;
  return nullptr;
}

TEST(DecodeModel, TheTraceRunsSplitsSideBySideThenTheCombine) {
  const auto m = Load("decode_214.json");
  ASSERT_EQ(m->Kind(), "decode");
  std::vector<std::string> labels;
  for (int e = 0; e < m->EventCount(); ++e) labels.push_back(m->EventLabel(e));
  EXPECT_EQ(labels, (std::vector<std::string>{"start", "splits load:1", "splits update:1", "splits load:2", "splits update:2",
                                              "partial", "combine:1", "combine:2", "write"}));
  EXPECT_EQ(m->FindPosition("partial"), 5);
  EXPECT_EQ(m->FindPosition("combine:2"), 7);
  EXPECT_EQ(m->FindPosition("update:2"), 4);
  EXPECT_EQ(m->FindPosition("end"), 8);
  EXPECT_EQ(m->FindPosition("event:9"), 8);
  EXPECT_EQ(m->FindPosition("combine:3"), -1);   // two splits
  EXPECT_EQ(m->FindPosition("update:3"), -1);    // the longest split has two tiles
  EXPECT_EQ(m->FindPosition("tile:1,1"), -1);    // not a form this kind accepts
  EXPECT_EQ(m->EventTitle(1, "en"), "every split loads its tile 1");
  EXPECT_EQ(m->EventTitle(6, "zh"), "合并分段 1");
}

TEST(DecodeModel, EveryNumberIsTheExactMerge) {
  const auto m = Load("decode_214.json");
  EXPECT_EQ(ExactAt(*m, "write", "output"), Q(160, 7));
  EXPECT_EQ(ExactAt(*m, "write", "reference"), Q(160, 7));
  EXPECT_EQ(ExactAt(*m, "write", "wrong_mean"), Q(65, 3));
  EXPECT_EQ(ExactAt(*m, "write", "wrong_no_rescale"), Q(20));
  EXPECT_EQ(ExactAt(*m, "write", "wrong_max_only"), Q(220, 9));
  EXPECT_EQ(ExactAt(*m, "combine:1", "l"), Q(3, 2));
  EXPECT_EQ(ExactAt(*m, "combine:1", "u"), Q(20));
  EXPECT_EQ(ExactAt(*m, "combine:1", "output_so_far"), Q(40, 3));
  EXPECT_EQ(ExactAt(*m, "start", "alpha@2"), Q(1, 2));
  EXPECT_EQ(ExactAt(*m, "start", "l@2"), Q(7, 4));
  EXPECT_EQ(ExactAt(*m, "start", "u@2"), Q(40));
  EXPECT_EQ(ExactAt(*m, "start", "o_s@1"), Q(40, 3));
  EXPECT_EQ(ExactAt(*m, "start", "o_s@2"), Q(30));
  EXPECT_EQ(ExactAt(*m, "start", "share@1"), Q(3, 7));   // e^{lse_1 − lse} = 3 / 7
  const auto l_before = m->NumberAt(m->FindPosition("partial"), "l");   // nothing combined yet: the empty state
  ASSERT_TRUE(l_before.has_value());
  EXPECT_EQ(l_before->value, 0);
  const auto q = m->QuantitiesAt(m->FindPosition("combine:1"));
  EXPECT_EQ(q.at("m"), "ln 2");
  EXPECT_EQ(q.at("lse_s@1"), "ln 3");
  EXPECT_EQ(q.at("lse_s@2"), "ln 4");
  EXPECT_EQ(q.at("lse"), "ln 7");
  EXPECT_EQ(q.at("split_tiles"), "(2, 1)");
  EXPECT_EQ(q.at("weights"), "(2, 1, 4)");
}

TEST(DecodeModel, TheGpuPanelComesFromTheLaunchRule) {
  const auto m = Load("decode_214.json");
  const auto q = m->QuantitiesAt(0);
  EXPECT_EQ(q.at("sm_count"), "132");
  EXPECT_EQ(q.at("busy_unsplit"), "8");
  EXPECT_EQ(q.at("busy_unsplit_percent"), "6.1 %");
  // flash-attn's launcher gives the rule 2 × SMs = 264 slots. Tried are the s whose ⌈512/s⌉ differs
  // from ⌈512/(s−1)⌉: the best is s = 32 (256/264 = 0.970; s = 33 gives 16 tiles a split as 32 does and is
  // not tried); the first within 85 % of it (≥ 0.824) is s = 29 (232/264 = 0.879; s = 28 gives 19 tiles
  // as 27 does). 232 blocks, two per SM at most, leave no SM idle.
  EXPECT_EQ(q.at("blocks_per_sm"), "2");
  EXPECT_EQ(q.at("split_count"), "29");
  EXPECT_EQ(q.at("split_thread_blocks"), "232");
  EXPECT_EQ(q.at("busy_split"), "132");
  EXPECT_EQ(q.at("busy_split_percent"), "100.0 %");
  // Traffic in elements (d = d_v = 1): no split q 1 + K 3 + V 3 + O 1 = 8; split: q 2 + K 3 + V 3 +
  // O_s 2 + lse 2 written, 2 + 2 read back, O 1 = 17.
  EXPECT_EQ(q.at("hbm_unsplit"), "8");
  EXPECT_EQ(q.at("hbm_split"), "17");
  EXPECT_EQ(q.at("hbm_extra"), "9");
}

TEST(DecodeModel, ThePanelsRevealInTraceOrder) {
  const auto m = Load("decode_214.json");
  const auto at_partial = m->Panels(m->FindPosition("partial"), "en");
  const PanelRow* wrong = Row(at_partial, "compare", "wrong: mean of the split outputs");
  ASSERT_NE(wrong, nullptr);
  EXPECT_EQ(wrong->value, UiText(Str::dec_after_combine, "en"));
  EXPECT_FALSE(wrong->warning);
  const auto at_write = m->Panels(m->FindPosition("write"), "en");
  wrong = Row(at_write, "compare", "wrong: mean of the split outputs");
  ASSERT_NE(wrong, nullptr);
  EXPECT_EQ(wrong->value, FormatExact(Q(65, 3)));
  EXPECT_TRUE(wrong->warning && wrong->answer);
  const PanelRow* out = Row(at_write, "compare", "combined output");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->value, FormatExact(Q(160, 7)));
  EXPECT_FALSE(out->warning);
  // The splits table: split 1 has merged one of its two tiles at update:1, split 2 its only one.
  const auto at_update = m->Panels(m->FindPosition("update:1"), "en");
  for (const auto& s : at_update)
    if (s.id == "splits") {
      ASSERT_EQ(s.rows.size(), 2u);
      EXPECT_EQ(s.columns.size(), 4u);   // no lse_s before the splits write it
      EXPECT_EQ(s.rows[0].value, "ln 2\t1\t10");
      EXPECT_EQ(s.rows[1].value, "ln 4\t1\t30");
    }
}

TEST(DecodeModel, TheSceneShowsEachSplitsThreadBlock) {
  const auto m = Load("decode_214.json");
  const Scene at1 = m->BuildScene(m->FindPosition("update:1"), "en", ClassroomPalette());
  for (const char* id : {"hbm", "hbm.q", "hbm.kv.1", "hbm.kv.2", "hbm.kv.3", "hbm.partial.1", "hbm.partial.2", "hbm.o", "sram",
                         "split.1", "split.2", "combine"})
    EXPECT_NE(at1.FindRect(id), nullptr) << id;
  EXPECT_EQ(at1.FindRect("hbm.kv.1")->state, TileState::kInSram);
  EXPECT_EQ(at1.FindRect("hbm.kv.2")->state, TileState::kPending);
  EXPECT_EQ(at1.FindRect("hbm.kv.3")->state, TileState::kInSram);
  EXPECT_NE(at1.FindRect("hbm.kv.1")->label.find("w 2"), std::string::npos);
  const Scene at2 = m->BuildScene(m->FindPosition("update:2"), "en", ClassroomPalette());
  EXPECT_EQ(at2.FindRect("split.2")->sublabel, UiText(Str::dec_idle, "en"));   // its one tile is done
  EXPECT_NE(at2.FindRect("split.1")->label.find("O = 40/3"), std::string::npos);
  const Scene done = m->BuildScene(m->FindPosition("write"), "en", ClassroomPalette());
  EXPECT_EQ(done.FindRect("hbm.o")->state, TileState::kWritten);
  EXPECT_NE(done.FindRect("hbm.o")->label.find("160/7"), std::string::npos);
  EXPECT_NE(done.FindRect("hbm.partial.1")->label.find("40/3, ln 3"), std::string::npos);
}

TEST(DecodeModel, APagedCacheReadsItsBlockTable) {
  const auto m = Load("decode_paged.json");
  const auto q = m->QuantitiesAt(m->EventCount() - 1);
  EXPECT_EQ(q.at("block_table"), "(3, 0, 4, 1)");
  EXPECT_EQ(q.at("table_reads"), "4");  // each split reads its two pages' entries
  const auto out = m->NumberAt(m->EventCount() - 1, "output"), ref = m->NumberAt(m->EventCount() - 1, "reference");
  ASSERT_TRUE(out && out->exact && ref && ref->exact);
  EXPECT_EQ(*out->exact, *ref->exact);   // the order in HBM changes nothing
}

}  // namespace
}  // namespace bw::view

namespace bw::view {
namespace {
TEST(DecodeModel, TheLseColumnComesWithTheWrite) {
  const auto m = Load("decode_214.json");
  for (const auto& s : m->Panels(m->FindPosition("partial"), "en"))
    if (s.id == "splits") {
      ASSERT_EQ(s.columns.size(), 5u);
      EXPECT_EQ(s.columns[4], "lse_s");
      EXPECT_EQ(s.rows[0].value, "ln 2\t" + FormatExact(Q(3, 2)) + "\t" + FormatExact(Q(40, 3)) + "\tln 3");
    }
}
}  // namespace
}  // namespace bw::view

namespace bw::view {
namespace {
// On-chip state does not outlive its thread block (DEC/d2): once the combine has begun, the splits'
// blocks have exited and the chip holds the combine alone; their O_s and lse_s are in HBM.
TEST(DecodeModel, TheSplitsBlocksAreGoneOnceTheCombineBegins) {
  const auto m = Load("decode_214.json");
  const Scene at_partial = m->BuildScene(m->FindPosition("partial"), "en", ClassroomPalette());
  EXPECT_NE(at_partial.FindRect("split.1"), nullptr) << "they write O_s and lse_s at partial";
  for (const char* pos : {"combine:1", "combine:2", "write"}) {
    const Scene sc = m->BuildScene(m->FindPosition(pos), "en", ClassroomPalette());
    EXPECT_EQ(sc.FindRect("split.1"), nullptr) << pos;
    EXPECT_EQ(sc.FindRect("split.2"), nullptr) << pos;
    const SceneRect *sram = sc.FindRect("sram"), *comb = sc.FindRect("combine");
    ASSERT_TRUE(sram && comb) << pos;
    EXPECT_GE(comb->y, sram->y) << pos << ": the combine's block is on chip";
    EXPECT_LE(comb->y + comb->h, sram->y + sram->h + 1e-4f) << pos;
    EXPECT_NE(sc.FindRect("hbm.partial.1")->label.find("40/3, ln 3"), std::string::npos) << pos;
  }
}

// DEC/d6's paged cache (four tiles in a row) is laid out for a projector's floors: a tile's w and v on
// two lines where one line each makes the row too wide for the box (it fell back to the plain layout).
TEST(DecodeModel, APagedCacheIsLaidOutForTheFloors) {
  const auto m = Load("decode_paged.json");
  const LabelFloors proj = ProjectorFloors(1080);
  const SceneFrame frame{.width_px = 1323, .height_px = 564, .text_scale = 1.6f, .projector = true, .floors = true,
                         .floor_text_px = proj.text, .floor_key_px = proj.key};
  for (const char* lang : {"en", "zh"}) {
    const Scene sc = m->BuildScene(m->FindPosition("write"), lang, ClassroomPalette(), frame);
    EXPECT_TRUE(sc.floors) << lang;
    const SceneRect* tile = sc.FindRect("hbm.kv.1");
    ASSERT_NE(tile, nullptr);
    EXPECT_NE(tile->label.find("\nw 1, 3\nv 10, 20"), std::string::npos) << tile->label;
    EXPECT_TRUE(tile->key_lines);
  }
}
}  // namespace
}  // namespace bw::view
