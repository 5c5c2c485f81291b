// Issue 11: the merge as an equation strip with the current values, and the balance — linear
// weight bars with block brackets, each block's output carrying its weight, the weighted mean
// (right) and the plain mean of the block outputs (wrong). Numbers from the engine, exactly.
#include <gtest/gtest.h>

#include <cmath>

#include "data/scenario.h"
#include "view/lesson_model.h"
#include "view/merge_views.h"
#include "view/scenario_model.h"
#include "view/single_query_model.h"

namespace bw::view {
namespace {

const std::string kRoot = BLOCKWISE_ROOT;

const SceneText* FindText(const Scene& sc, const std::string& id) {
  for (const auto& t : sc.texts)
    if (t.id == id) return &t;
  return nullptr;
}

Scene At(const ScenarioModel& m, const std::string& position, const char* lang = "en") {
  const int e = m.FindPosition(position);
  EXPECT_GE(e, 0) << position;
  return m.BuildScene(e, lang, ClassroomPalette());
}

TEST(MergeStrip, WorkedExampleRawMode) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/worked_214.json");
  const Palette pal = ClassroomPalette();
  // Raw mode subtracts no maximum: the merge adds numerators and denominators, and the strip names no
  // m, α or β (N50/w1 showed "m = 0, α = β = 1" before N50/s1 introduces them; issue 29).
  const Scene s1 = At(*m, "update:1");
  EXPECT_FALSE(FindText(s1, "strip.m"));
  EXPECT_FALSE(FindText(s1, "strip.ab"));
  EXPECT_EQ(FindText(s1, "strip.l")->text, "l\u2032 = l + l_b = 0 + 3 = 3");
  EXPECT_FALSE(FindText(s1, "acc.m")) << "the raw accumulator is l and u";
  EXPECT_EQ(FindText(s1, "acc.l")->text, "l = 3");
  const Scene s2 = At(*m, "update:2");
  EXPECT_EQ(FindText(s2, "strip.l")->text, "l\u2032 = l + l_b = 3 + 4 = 7");
  EXPECT_EQ(FindText(s2, "strip.u")->text, "u\u2032 = u + u_b = 40 + 120 = 160");
  // Colour-linked: the old state's term is teal like the accumulator's values, the block's amber.
  const auto& spans = FindText(s2, "strip.l")->spans;
  ASSERT_EQ(spans.size(), 5u);
  EXPECT_EQ(spans[1].text, "3");
  EXPECT_EQ(spans[1].color, pal.state_term);
  EXPECT_EQ(spans[3].text, "4");
  EXPECT_EQ(spans[3].color, pal.block_term);
  EXPECT_EQ(FindText(s2, "acc.l")->color, pal.state_term);
  const Scene sw = At(*m, "write");
  EXPECT_EQ(FindText(sw, "strip.o")->text, "o = u/l = 160 / 7 = 160/7");
  // Fractions over fractions are grouped (the walk-through read "75/8 / 9/4" as ambiguous).
  const auto three = LoadScenarioModel(kRoot + "/lessons/scenarios/three_blocks.json");
  EXPECT_EQ(FindText(At(*three, "write"), "strip.o")->text, "o = u/l = (75/8) / (9/4) = 25/6");
  // At the start nothing is merged: m is 0 in raw mode, not −∞.
  EXPECT_EQ(m->QuantitiesAt(0).at("m"), "0");
  EXPECT_FALSE(FindText(At(*m, "start"), "strip.l"));
}

// The logits (ln 2, 0, ln 4) example in stable mode: m = ln 2, l = 3/2, u = 20 after block 1;
// merging block 2 rescales by 1/2: l = 7/4, u = 40.
TEST(MergeStrip, StableModeRescalesByOneHalf) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/worked_214_stable.json");
  const Scene s2 = At(*m, "update:2");
  EXPECT_EQ(FindText(s2, "strip.m")->text,
            "m\u2032 = max(m = ln 2, m_b = ln 4) = ln 4    \u03b1 = e^(m\u2212m\u2032) = 1/2    \u03b2 = e^(m_b\u2212m\u2032) = 1");
  EXPECT_EQ(FindText(s2, "strip.l")->text, "l\u2032 = \u03b1\u00b7l + \u03b2\u00b7l_b = 1/2\u00b73/2 + 1\u00b71 = 7/4");
  EXPECT_EQ(FindText(s2, "strip.u")->text, "u\u2032 = \u03b1\u00b7u + \u03b2\u00b7u_b = 1/2\u00b720 + 1\u00b730 = 40");
}

// Issue 17, item 3: the builder lays out for its frame. Ctrl + at 2× in a box with height to spare: the
// accumulator's numbers and the strip's equations are twice the size, each on a line of its own where
// they would not fit, nothing overlaps, and the scene's height is the same at every event.
TEST(MergeStrip, LaidOutForCtrlPlusInItsBox) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/worked_214_stable.json");
  const Scene plain = At(*m, "update:2");
  const SceneFrame tall{1200, 1000, 2.0f};   // pixels: the width sets the scale, the height has room
  const Scene big = m->BuildScene(m->FindPosition("update:2"), "en", ClassroomPalette(), tall);
  EXPECT_FLOAT_EQ(big.text_scale, 2.0f);
  EXPECT_FLOAT_EQ(big.width, plain.width);   // the same width: the diagram's scale does not change
  EXPECT_LE(big.height, 1000.0f * big.width / 1200.0f + 1e-3f);
  ASSERT_TRUE(FindText(big, "acc.m") && FindText(plain, "acc.m"));
  EXPECT_FLOAT_EQ(FindText(big, "acc.m")->size_em, 2 * FindText(plain, "acc.m")->size_em);
  const SceneRect* acc = big.FindRect("sram.acc");
  ASSERT_TRUE(acc);
  std::vector<const SceneText*> rows = {FindText(big, "acc.m"), FindText(big, "acc.l"), FindText(big, "acc.u")};
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_LE(rows[i]->y + rows[i]->size_em, acc->y + acc->h) << rows[i]->id << " leaves the accumulator";
    if (i > 0) EXPECT_GE(rows[i]->y, rows[i - 1]->y + rows[i - 1]->size_em) << rows[i]->id << " overlaps the row above";
  }
  // The same equations, now over four lines (α, β on their own), none wider than the scene.
  EXPECT_EQ(FindText(big, "strip.m")->text, "m\u2032 = max(m = ln 2, m_b = ln 4) = ln 4");
  ASSERT_TRUE(FindText(big, "strip.ab"));
  EXPECT_EQ(FindText(big, "strip.ab")->text, "\u03b1 = e^(m\u2212m\u2032) = 1/2    \u03b2 = e^(m_b\u2212m\u2032) = 1");
  EXPECT_EQ(FindText(big, "strip.u")->text, FindText(plain, "strip.u")->text);
  std::vector<const SceneText*> lines;
  for (const auto& t : big.texts)
    if (t.id.rfind("strip.", 0) == 0) lines.push_back(&t);
  ASSERT_EQ(lines.size(), 4u);
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_LE(lines[i]->x + EstimateWidthEm(lines[i]->text) * lines[i]->size_em, big.width) << lines[i]->id;
    EXPECT_LE(lines[i]->y + lines[i]->size_em, big.height) << lines[i]->id;
    if (i > 0) EXPECT_GE(lines[i]->y, lines[i - 1]->y + lines[i - 1]->size_em) << lines[i]->id;
  }
  for (int e = 0; e < m->EventCount(); ++e)
    EXPECT_FLOAT_EQ(m->BuildScene(e, "en", ClassroomPalette(), tall).height, big.height) << "event " << e;
  // A box with no height to spare: laid out as at the default size (the painter enlarges what fits).
  const Scene wide = m->BuildScene(m->FindPosition("update:2"), "en", ClassroomPalette(), {2400, 600, 2.0f});
  EXPECT_FLOAT_EQ(wide.text_scale, 1.0f);
  EXPECT_FLOAT_EQ(wide.height, plain.height);
  EXPECT_EQ(FindText(wide, "strip.m")->text, FindText(plain, "strip.m")->text);
}

TEST(SceneText, WidthEstimateCountsCjkAsOneEm) {
  EXPECT_FLOAT_EQ(EstimateWidthEm("ab"), 1.12f);
  EXPECT_FLOAT_EQ(EstimateWidthEm("\u5757"), 1.0f);         // 块
  EXPECT_FLOAT_EQ(EstimateWidthEm("\uff08"), 1.0f);         // （ full-width
  EXPECT_FLOAT_EQ(EstimateWidthEm("\u03b1\u2032"), 1.12f);  // α′: narrow
  EXPECT_FLOAT_EQ(EstimateWidthEm(""), 0.0f);
}

Scene BalanceAt(const ScenarioModel& m, const std::string& position) {
  const auto* sq = dynamic_cast<const SingleQueryModel*>(&m);
  EXPECT_TRUE(sq);
  return BuildBalanceScene(sq->run(), m.FindPosition(position), "en", ClassroomPalette());
}

TEST(Balance, LinearBarsBlockWeightsMeanAndMidpoint) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/worked_214.json");
  const Scene end = BalanceAt(*m, "end");
  EXPECT_FALSE(At(*m, "end").FindRect("balance.axis"));  // beside the diagram, where the heatmap goes
  // Bars linear in the weights 2, 1, 4: heights in the ratio 2 : 1 : 4.
  const auto* b1 = end.FindRect("balance.w.1");
  const auto* b2 = end.FindRect("balance.w.2");
  const auto* b3 = end.FindRect("balance.w.3");
  ASSERT_TRUE(b1 && b2 && b3);
  EXPECT_NEAR(b1->h / b3->h, 0.5, 1e-5);
  EXPECT_NEAR(b2->h / b3->h, 0.25, 1e-5);
  EXPECT_EQ(FindText(end, "balance.block.1")->text, "\u2713 block 1: 3");
  EXPECT_EQ(FindText(end, "balance.block.2")->text, "\u2713 block 2: 4");
  EXPECT_EQ(FindText(end, "balance.outl.1")->text, "40/3 (weight 3)");
  EXPECT_EQ(FindText(end, "balance.outl.2")->text, "30 (weight 4)");
  const auto* mean = end.FindRect("balance.mean");
  const auto* mid = end.FindRect("balance.midpoint");
  ASSERT_TRUE(mean && mid);
  EXPECT_TRUE(mean->answer && mid->answer);
  EXPECT_NE(FindText(end, "balance.mean.label")->text.find("160/7"), std::string::npos);
  EXPECT_NE(FindText(end, "balance.midpoint.label")->text.find("65/3"), std::string::npos);
  EXPECT_EQ(FindText(end, "balance.midpoint.label")->text.rfind("\u00d7 ", 0), 0u) << "65/3 is marked wrong";
  // Positions on the number line 10…30: the weighted mean 160/7 lies right of the midpoint 65/3.
  const auto* axis = end.FindRect("balance.axis");
  const auto x_of = [&](double v) { return axis->x + static_cast<float>((v - 10) / 20) * axis->w; };
  EXPECT_NEAR(mean->x + mean->w / 2, x_of(160.0 / 7), 1e-4);
  EXPECT_NEAR(mid->x + mid->w / 2, x_of(65.0 / 3), 1e-4);
  // Before block 2 is merged only block 1's output is on the line, and no mean or midpoint.
  const Scene u1 = BalanceAt(*m, "update:1");
  EXPECT_TRUE(u1.FindRect("balance.out.1"));
  EXPECT_FALSE(u1.FindRect("balance.out.2"));
  EXPECT_FALSE(u1.FindRect("balance.mean"));
}

// With the historical 2,1,3 both blocks weigh 3: the weighted mean and the midpoint meet at 130/6.
TEST(Balance, HistoricalExampleMeetsAtTheMidpoint) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/historical_213.json");
  const Scene end = BalanceAt(*m, "end");
  const auto* mean = end.FindRect("balance.mean");
  const auto* mid = end.FindRect("balance.midpoint");
  ASSERT_TRUE(mean && mid);
  EXPECT_FLOAT_EQ(mean->x, mid->x);
  // Equal here by coincidence (blocks of equal weight): marked "=" and said so, never "× wrong"
  // beside the "✓" of the same number (issue 29); the side panel's row likewise.
  EXPECT_EQ(FindText(end, "balance.midpoint.label")->text, "= 65/3 \u2248 21.67") << "mean " << FindText(end, "balance.mean.label")->text;
  EXPECT_EQ(FindText(end, "balance.legend.midpoint")->text, "= " + UiText(Str::balance_coincidence, "en"));
  EXPECT_EQ(FindText(end, "balance.mean.label")->text, "\u2713 65/3 \u2248 21.67");  // 130/6
  EXPECT_EQ(FindText(end, "balance.block.1")->text, "\u2713 block 1: 3");
  EXPECT_EQ(FindText(end, "balance.block.2")->text, "\u2713 block 2: 3");
}

// The wrong plain mean comes with the output written, not with the last merge: N50/w2 (update:2)
// showed the purple 65/3 before w3 (write) asks what went wrong (issue 29). The side panel agrees.
TEST(Balance, ThePlainMeanComesWithTheWrite) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/worked_214.json");
  const Scene merged = BalanceAt(*m, "update:2");
  EXPECT_TRUE(merged.FindRect("balance.mean")) << "the weighted mean is there once every block is in";
  EXPECT_FALSE(merged.FindRect("balance.midpoint"));
  EXPECT_FALSE(FindText(merged, "balance.midpoint.label"));
  const Scene written = BalanceAt(*m, "write");
  ASSERT_TRUE(FindText(written, "balance.midpoint.label"));
  EXPECT_EQ(FindText(written, "balance.midpoint.label")->text, "\u00d7 65/3 \u2248 21.67");
  const auto row = [&](const std::string& position) {
    for (const auto& sec : m->Panels(m->FindPosition(position), "en"))
      for (const auto& r : sec.rows)
        if (r.name == UiText(Str::wrong_average, "en")) return r.value;
    return std::string("(no row)");
  };
  // (Not "not reached yet": the algorithm never computes it; it is the comparison N50/w3 makes.)
  EXPECT_EQ(row("update:2"), UiText(Str::after_write, "en"));
  EXPECT_EQ(row("write"), "65/3 \u2248 21.67");
}

// A projector's balance (issue 29: its means measured at 9–11 px digits at 1920×1080) is laid out for
// the painter's floors: the two means alone on rows of their own as key texts, exact fractions
// without the decimal; no per-bar numbers, no axis ends, no legend (the side panel names the means).
TEST(Balance, AProjectorsBalanceIsLaidOutForItsFloors) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/worked_214.json");
  const auto& run = dynamic_cast<const SingleQueryModel&>(*m).run();
  const int write = run.FindEvent("write");
  const Scene room = BuildBalanceScene(run, write, "en", ClassroomPalette(), kBalanceWidth, true);
  EXPECT_TRUE(room.floors);
  EXPECT_FLOAT_EQ(room.height, kBalanceHeightProjector);
  const auto* mean = FindText(room, "balance.mean.label");
  const auto* mid = FindText(room, "balance.midpoint.label");
  ASSERT_TRUE(mean && mid);
  EXPECT_EQ(mean->text, "\u2713 160/7");
  EXPECT_EQ(mid->text, "\u00d7 65/3");
  EXPECT_TRUE(mean->key && mid->key);
  EXPECT_GT(mid->y, mean->y + mean->size_em) << "the plain mean on a row of its own, below the right one";
  for (const auto& t : room.texts) {
    EXPECT_EQ(t.id.rfind("balance.wl.", 0), std::string::npos) << t.id;
    EXPECT_EQ(t.id.rfind("balance.legend", 0), std::string::npos) << t.id;
    EXPECT_NE(t.id, "balance.lo");
  }
  EXPECT_EQ(FindText(room, "balance.block.1")->text, "\u2713" "1: 3");
  EXPECT_EQ(FindText(room, "balance.outl.1")->text, "40/3");
  // A laptop's keeps everything, and no floors.
  const Scene desk = BuildBalanceScene(run, write, "en", ClassroomPalette());
  EXPECT_FALSE(desk.floors);
  EXPECT_EQ(FindText(desk, "balance.mean.label")->text, "\u2713 160/7 \u2248 22.86");
  EXPECT_TRUE(FindText(desk, "balance.legend.mean"));
}

// The single-query diagram laid out for the floors (the app's, on a projector and on a laptop): each
// block's w and v on lines of their own (key lines), the written O's value on two, no legend; the
// scene says it is laid out for them. Without (the CLI, a frame not known): as before.
TEST(Scene, AProjectorsDiagramPutsEachBlocksInputsOnLinesOfTheirOwn) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/worked_214.json");
  const SceneFrame frame{1334, 570, 1.6f, true, true};
  const Scene sc = m->BuildScene(m->FindPosition("write"), "en", ProjectorPalette(), frame);
  EXPECT_TRUE(sc.floors);
  const auto* kv1 = sc.FindRect("hbm.kv.1");
  const auto* kv2 = sc.FindRect("hbm.kv.2");
  const auto* o = sc.FindRect("hbm.o");
  ASSERT_TRUE(kv1 && kv2 && o);
  EXPECT_EQ(kv1->label, "K/V 1\nw 2, 1\nv 10, 20");
  EXPECT_EQ(kv2->label, "K/V 2\nw 4\nv 30");
  EXPECT_TRUE(kv1->key_lines);
  // The written O's value on one key line: "= 160/7 ≈ 22.86" fits its tile.
  EXPECT_EQ(o->label, "O\n= 160/7 \u2248 22.86");
  EXPECT_TRUE(o->key_lines);
  // The tiles hold their lines at the floors (1.58 em a line at the text floor, 2.37 at the key size):
  // a block's title and its w and v, the accumulator's title and m, l, u.
  EXPECT_GE(kv1->h, kProjectorFloorLines.text + 2 * kProjectorFloorLines.key + 0.3f);
  EXPECT_GE(o->h, kProjectorFloorLines.text + kProjectorFloorLines.key + 0.3f);
  const auto* acc = sc.FindRect("sram.acc");
  ASSERT_TRUE(acc);
  int key_rows = 0;
  for (const auto& t : sc.texts)
    if (t.id.rfind("acc.", 0) == 0) {
      EXPECT_TRUE(t.key) << t.id;
      EXPECT_LE(t.y + kProjectorFloorLines.key, acc->y + acc->h + 1e-3f) << t.id;
      ++key_rows;
    }
  EXPECT_EQ(key_rows, 2);  // raw mode: l and u
  EXPECT_FALSE(FindText(sc, "legend.read"));
  ASSERT_TRUE(FindText(sc, "scenario.title"));
  // Nothing the painter would have to shrink: the caption's lines lie inside the HBM panel.
  const auto* hbm = sc.FindRect("hbm");
  for (const auto& t : sc.texts)
    if (t.id.rfind("scenario.title", 0) == 0)  // (a line: its font size; the caption's lines are one text)
      EXPECT_LE(t.y + t.size_em * 1.6f * static_cast<float>(1 + std::count(t.text.begin(), t.text.end(), '\n')), hbm->y + hbm->h + 1e-3f) << t.text;
  const Scene desk = m->BuildScene(m->FindPosition("write"), "en", ClassroomPalette(), SceneFrame{1334, 570, 1.6f, false, false});
  EXPECT_FALSE(desk.floors);
  EXPECT_EQ(desk.FindRect("hbm.o")->label, "O = 160/7 \u2248 22.86");
}

TEST(SceneText, WrapEstimatedBreaksAfterSpacesAndBeforeWideGlyphs) {
  EXPECT_EQ(WrapEstimated("aaaa bbbb cccc", 4.0f), (std::vector<std::string>{"aaaa", "bbbb", "cccc"}));
  // After a line is cut the next still breaks at its spaces (it cut "Inference Server" into
  // "Inferenc" and "e Server"), and a word longer than the line runs on whole.
  EXPECT_EQ(WrapEstimated("NVIDIA Triton Inference Server", 8.6f),
            (std::vector<std::string>{"NVIDIA Triton", "Inference", "Server"}));
  EXPECT_EQ(WrapEstimated("FlashAttention in Triton", 4.0f), (std::vector<std::string>{"FlashAttention", "in", "Triton"}));
  // Chinese: never a closing bracket or comma at a line's start, nor an opening bracket at its end.
  EXPECT_EQ(WrapEstimated("Triton\uff08OpenAI\uff09", 7.5f), (std::vector<std::string>{"Triton", "\uff08OpenAI\uff09"}));
  EXPECT_EQ(WrapEstimated("\u4e00\u4e00\uff0c\u4e00", 2.5f), (std::vector<std::string>{"\u4e00", "\u4e00\uff0c", "\u4e00"}));
  EXPECT_EQ(WrapEstimated("\u4e00\u4e00\u4e00\u4e00", 2.5f), (std::vector<std::string>{"\u4e00\u4e00", "\u4e00\u4e00"}));
  EXPECT_EQ(WrapEstimated("short", 40.0f), (std::vector<std::string>{"short"}));
  // A word past twice the width is cut (a 1 MB title of one word ran across the next panel), and
  // with max_lines only what can reach them is read; one more line says there is more.
  EXPECT_EQ(WrapEstimated(std::string(20, 'A'), 2.3f), (std::vector<std::string>{"AAAAAAAA", "AAAAAAAA", "AAAA"}));
  const auto capped = WrapEstimated(std::string(1000000, 'A'), 2.3f, 1);
  ASSERT_EQ(capped.size(), 2u);
  EXPECT_EQ(capped[0], "AAAAAAAA");
  // A tuple is kept whole where a break before it leaves the line at least 40 % full (RC-T3's caption
  // was cut "w = (1," / "2, 4, 1, 8, 2)"); a tuple longer than a line still breaks inside.
  EXPECT_EQ(WrapEstimated("three blocks: w = (1, 2, 4, 1, 8, 2), stable", 14.0f),
            (std::vector<std::string>{"three blocks: w =", "(1, 2, 4, 1, 8, 2), stable"}));
  EXPECT_GT(WrapEstimated("w (1, 2, 4, 1, 8, 2, 9, 9, 9)", 6.0f).size(), 1u);
  EXPECT_TRUE(WrapEstimated("", 10.0f).empty());
}

// The tiled attention diagram laid out for the floors (MASK, N23: its labels measured at 13–16 px em
// on a projector): the grid cells name themselves "2,1" (the title says (i, j)), the HBM columns
// closer so that the grid is 16 em wide, no column heads (each tile names itself), no grid note and no
// event line (the timeline has it); the accumulator's rows are m and l (α in the side panel's table).
TEST(Scene, TheTiledAttentionDiagramAtTheFloors) {
  const auto m = LoadScenarioModel(kRoot + "/lessons/scenarios/mask_causal.json");
  const int e = m->FindPosition("tile:2,2");
  ASSERT_GE(e, 0);
  const Scene room = m->BuildScene(e, "en", ProjectorPalette(), SceneFrame{1334, 570, 1.6f, true, true});
  const Scene desk = m->BuildScene(e, "en", ClassroomPalette());
  EXPECT_TRUE(room.floors);
  EXPECT_FALSE(desk.floors);
  ASSERT_TRUE(room.FindRect("grid.2,1") && desk.FindRect("grid.2,1"));
  EXPECT_EQ(room.FindRect("grid.2,1")->label, "2,1");
  EXPECT_EQ(desk.FindRect("grid.2,1")->label, "(2,1)");
  EXPECT_GT(room.FindRect("grid.2,1")->w, desk.FindRect("grid.2,1")->w);
  EXPECT_FALSE(FindText(room, "hbm.col.Q"));
  EXPECT_TRUE(FindText(desk, "hbm.col.Q"));
  EXPECT_FALSE(FindText(room, "event"));
  EXPECT_FALSE(FindText(room, "grid.note"));
  const auto* row = FindText(room, "acc.row.0");
  ASSERT_TRUE(row && FindText(desk, "acc.row.0"));
  EXPECT_EQ(row->text.find("\u03b1"), std::string::npos) << row->text;
  EXPECT_NE(FindText(desk, "acc.row.0")->text.find("\u03b1"), std::string::npos);
}

}  // namespace
}  // namespace bw::view
