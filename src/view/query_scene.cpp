// The single-query diagram (BuildQueryScene, scene.h): one query row over blocks of keys, its HBM
// panel (Q, the K/V blocks, the S/P it never stores, O) beside its SRAM panel (Q, the block loaded,
// the accumulator m, l, u) and the transfer of the event shown. Layout constants are in em.
#include <algorithm>

#include "view/format.h"
#include "view/lesson_text.h"
#include "view/scene.h"

namespace bw::view {

namespace {

// The block's data, shown when it fits (KeyInputs).
std::string BlockDetail(const engine::SingleQueryRun& run, const std::vector<std::string>& shown, int b, int e) {
  return KeyInputs(run.problem, run.exact.has_value(), shown, b, e);
}

SceneRect Tile(std::string id, float x, float y, float w, float h, TileState s, const Palette& p,
               const std::string& lang, std::string label) {
  return TileRect(std::move(id), x, y, w, h, s, p, std::move(label), StateWord(s, lang));
}


// Read/write arrows run above the tiles: up from the source, across, down into the target.
SceneArrow OverTheTop(std::string id, ArrowKind kind, float x_from, float x_to, float y_tiles, float y_lane,
                      Color c, std::string label) {
  SceneArrow a;
  a.id = std::move(id);
  a.kind = kind;
  a.points = {{x_from, y_tiles}, {x_from, y_lane}, {x_to, y_lane}, {x_to, y_tiles}};
  a.color = c;
  a.label = std::move(label);
  a.label_at = {std::min(x_from, x_to) + 0.6f, y_lane - 1.25f};
  return a;
}

// "w 2, 1" and "v 10, 20": the block's data on two lines (a projector's key size).
std::pair<std::string, std::string> BlockDetailLines(const engine::SingleQueryRun& run, const std::vector<std::string>& shown, int b, int e) {
  const std::string both = BlockDetail(run, shown, b, e);
  const size_t dot = both.find("  \u00b7  ");
  return {both.substr(0, dot), both.substr(dot + std::string("  \u00b7  ").size())};
}

// Where everything goes (em), the same at every event of a run: HBM panel on the left, SRAM panel on
// the right, tiles in two rows. The accumulator's three rows are 1.8 em apart at the default text size
// and grow with Ctrl + (ts); the panels grow down with them. For a projector (LabelFloors) the boxes
// are sized for the lines the painter draws at the floors (`fl`): the HBM blocks hold their title and
// w and v on lines of their own at the key size, the written O its value on one key line (two where it
// is too long), the accumulator its m, l, u at the key size; the legend gives its room to the input's
// name (the arrows carry their own labels).
struct QueryLayout {
  bool projector = false, raw = false;
  float ts = 1;
  FloorLines fl;
  float W = 0, H = 0;
  float hbm_x = 0, hbm_w = 0, sram_x = 0, sram_w = 0;
  float row1 = 0, row2 = 0, tile_h = 0;   // the rows of the default layout and its tiles' height
  float lane = 0;                         // the read arrows' lane over the tiles
  float kv_x0 = 0, kv_x1 = 0, gap = 0;    // the K/V row and the gap between its tiles
  float sp_w = 0, o_x = 0;                // the S/P ghost's width and O's left edge
  bool output_one_line = false;           // the written O's value on one key line (projector)
  float hbm_tile_h1 = 0, hbm_tile_h2 = 0, hbm_row2 = 0;   // HBM: the first row's tiles, the second row's
  float sram_tile_h = 0;
  float acc_top = 0, acc_rows_top = 0, acc_pitch = 0, acc_h = 0;   // the accumulator box and its rows
};

QueryLayout LayOutQueryScene(const engine::SingleQueryRun& run, float text_scale, bool projector, FloorLines lines) {
  QueryLayout L;
  L.projector = projector;
  L.ts = std::clamp(text_scale, 1.0f, 2.0f);
  L.fl = projector ? (lines.text > 0 ? lines : kProjectorFloorLines) : FloorLines{};
  const FloorLines& fl = L.fl;
  // Room around a tile's lines: the painter's pad above and below (0.15 em each), a gap under each
  // line but the last (0.1 em × its text scale, 1.6 on a projector), and 0.1 em to spare.
  constexpr float kTilePad = 0.4f, kLineGap = 0.16f;
  // A projector's box is wider than the scene's 52 × 21 em (1334 × 570 px at 1920×1080): the HBM
  // panel takes 8 em more, so that three blocks' w and v fit at the key size.
  const float kWide = projector ? 8.0f : 0.0f;
  L.W = 52 + kWide;
  L.hbm_x = 0, L.hbm_w = 31 + kWide, L.sram_x = 33 + kWide, L.sram_w = 19;
  L.row2 = 12.5f, L.tile_h = 4.5f;
  // (At the floors the read arrow's lane is under the panel's title and the first row under the
  // arrow's label, one line at the text floor: the label goes between the lane and the tiles.)
  // (The panels' titles are 1.84 em high at a projector's 1.6 text scale: the lane runs 0.35 em under them.)
  L.lane = projector ? 0.5f + std::max(1.84f, fl.text) + 0.35f : 3.3f;
  L.row1 = projector ? L.lane + 0.2f + fl.text + 0.2f : 4.5f;
  L.kv_x0 = 7.0f, L.kv_x1 = 30.0f + kWide, L.gap = 0.5f;
  L.sp_w = projector ? 15.0f : 16, L.o_x = projector ? 17.0f : 23;
  // The written O's value ("= 160/7 ≈ 22.86") on one key line when it fits the tile, else two; from
  // the run's final output, so that the layout is the same at every event.
  const std::string final_output = projector ? StateQuantitiesAt(run, static_cast<int>(run.events.size()) - 1).at("output") : "";
  L.output_one_line = EstimateWidthEm("= " + final_output) * fl.key < L.kv_x1 - L.o_x - 1.0f;
  L.hbm_tile_h1 = projector ? kTilePad + fl.text + 2 * (kLineGap + fl.key) : L.tile_h;
  L.hbm_tile_h2 = projector ? std::max(kTilePad + 2 * fl.text + kLineGap,                                          // S, P; O unwritten
                                       kTilePad + fl.text + (L.output_one_line ? 1.0f : 2.0f) * (kLineGap + fl.key))  // O written
                            : L.tile_h;
  L.hbm_row2 = projector ? L.row1 + L.hbm_tile_h1 + 0.5f : L.row2;
  // SRAM: Q with its symbol, the block with its w and v at the text floor; under them the accumulator,
  // its title (up to 1.9 em: the painter's 1.15 em × 1.6) and its rows at the key size.
  L.sram_tile_h = projector ? std::max(L.tile_h, kTilePad + 2 * fl.text + kLineGap) : L.tile_h;
  // (Between them the merge arrow; its label goes above the tiles, in the read arrows' band.)
  L.acc_top = projector ? L.row1 + L.sram_tile_h + 0.7f : 11.0f;
  L.acc_rows_top = projector ? 0.2f + std::max(1.9f, fl.text) + 0.2f : L.row2 + 0.3f - L.acc_top;
  L.acc_pitch = std::max(fl.key + 0.1f, 1.93f * L.ts);   // (1.93: 1.35 em text on a 1.43 pitch)
  L.raw = run.problem.mode == engine::SoftmaxMode::kRaw;
  L.acc_h = projector ? L.acc_rows_top + (L.raw ? 2.0f : 3.0f) * L.acc_pitch + 0.3f : 3.1f + 5.4f * L.ts;
  L.H = projector ? std::max(L.hbm_row2 + L.hbm_tile_h2 + 0.5f, L.acc_top + L.acc_h + 0.5f)
                  : std::max(21.0f, L.acc_top + L.acc_h + 1.5f);
  return L;
}

// HBM's inputs: Q, read once, and the K/V blocks in their states at `event` (merged: done; loaded and
// not yet merged: in SRAM). Returns each block's centre on the row ([block], 1-based), where its read
// arrow starts.
std::vector<float> AddHbmInputs(Scene& sc, const QueryLayout& L, const engine::SingleQueryRun& run, int merged, int in_sram,
                                const std::vector<std::string>& shown_scores, const std::string& lang, const Palette& pal) {
  sc.rects.push_back(Tile("hbm.q", 1, L.row1, 5, L.hbm_tile_h1, TileState::kNone, pal, lang, "Q"));
  sc.rects.back().fill = pal.not_written;
  sc.rects.back().sublabel = UiText(Str::q_read_once, lang);

  const int n = static_cast<int>(run.problem.scores.size());
  const int T = run.BlockCount();
  std::vector<float> kv_center(T + 1, 0);
  const auto add_block = [&](const engine::QueryBlockStep& b, float x, float w) {
    TileState s = TileState::kPending;
    if (b.all_masked) s = TileState::kMasked;  // masked by the input, not l_b = 0 from underflow
    // At its update the block is merged: done (✓), as the seed draws RC-T3/b1 ("block 1 done"); it is
    // amber only while loaded and not yet merged.
    else if (b.block <= merged) s = TileState::kProcessed;
    else if (b.block == in_sram) s = TileState::kInSram;
    SceneRect r = Tile("hbm.kv." + std::to_string(b.block), x, L.row1, w, L.hbm_tile_h1, s, pal, lang,
                       "K/V " + std::to_string(b.block));
    if (L.projector) {  // w and v on lines of their own (the painter leaves them out where they cannot be read)
      const auto [wl, vl] = BlockDetailLines(run, shown_scores, b.begin, b.end);
      r.label += "\n" + wl + "\n" + vl;
      r.key_lines = true;
    } else if (const std::string detail = BlockDetail(run, shown_scores, b.begin, b.end); static_cast<float>(detail.size()) * 0.5f < w - 0.6f) {
      r.label += "\n" + detail;
    }
    sc.rects.push_back(std::move(r));
    kv_center[b.block] = x + w / 2;
  };
  // Blocks drawn at their share of the row, each at least kMinBlockW wide, while they all fit; beyond
  // that (a file may have 65,536 blocks) seven tiles: the first block, the run before the current
  // one, the current one and its neighbours, the run after, the last block; a run's tile says which
  // blocks it stands for ("… 2–1,021").
  constexpr float kMinBlockW = 1.2f;
  const int fit = static_cast<int>((L.kv_x1 - L.kv_x0 + L.gap) / (kMinBlockW + L.gap));
  if (T <= fit) {
    const float usable = (L.kv_x1 - L.kv_x0) - L.gap * static_cast<float>(T - 1);
    float x = L.kv_x0;
    for (const auto& b : run.blocks) {
      const float w = std::max(kMinBlockW, usable * static_cast<float>(b.end - b.begin) / static_cast<float>(n));
      add_block(b, x, w);
      x += w + L.gap;
    }
  } else {
    const int focus = in_sram > 0 ? in_sram : std::max(1, merged);
    const int window = 3;
    const int lo = std::clamp(focus - 1, 2, T - window), hi = lo + window - 1;
    const int slots = window + 2 + (lo > 2 ? 1 : 0) + (hi < T - 1 ? 1 : 0);
    const float w = ((L.kv_x1 - L.kv_x0) - L.gap * static_cast<float>(slots - 1)) / static_cast<float>(slots);
    float x = L.kv_x0;
    const auto add_run = [&](int from, int to) {
      const TileState s = to <= merged ? TileState::kProcessed : TileState::kPending;
      SceneRect r = Tile("hbm.kv.run." + std::to_string(from), x, L.row1, w, L.hbm_tile_h1, s, pal, lang,
                         "\u2026\n" + FormatInt(from) + "\u2013" + FormatInt(to));
      r.sublabel.clear();
      sc.rects.push_back(std::move(r));
      x += w + L.gap;
    };
    const auto add = [&](int j) {
      add_block(run.blocks[static_cast<size_t>(j) - 1], x, w);
      x += w + L.gap;
    };
    add(1);
    if (lo > 2) add_run(2, lo - 1);
    for (int j = lo; j <= hi; ++j) add(j);
    if (hi < T - 1) add_run(hi + 1, T - 1);
    add(T);
  }
  return kv_center;
}

// HBM's second row: the S/P tables the tiled order never stores, and O, with its value once written.
void AddHbmOutputs(Scene& sc, const QueryLayout& L, const engine::SingleQueryRun& run, int event, bool written,
                   const std::string& lang, const Palette& pal) {
  sc.rects.push_back(Tile("hbm.sp", 1, L.hbm_row2, L.sp_w, L.hbm_tile_h2, TileState::kNotStored, pal, lang, UiText(Str::sp_ghost, lang)));
  sc.rects.push_back(Tile("hbm.o", L.o_x, L.hbm_row2, L.kv_x1 - L.o_x, L.hbm_tile_h2, written ? TileState::kWritten : TileState::kNotWritten, pal,
                          lang, "O"));
  if (written && L.projector) {  // "O" and "= 160/7 ≈ 22.86" (or "= 160/7", "≈ 22.86"): the output at the key size
    const std::string out = StateQuantitiesAt(run, event).at("output");
    const size_t approx = out.find(" \u2248 ");
    sc.rects.back().label +=
        "\n= " + (L.output_one_line || approx == std::string::npos ? out : out.substr(0, approx) + "\n" + out.substr(approx + 1));
    sc.rects.back().key_lines = true;
  } else if (written) {
    sc.rects.back().label += " = " + StateQuantitiesAt(run, event).at("output");
  }
}

// SRAM: the fixed Q block, the current K/V block (or its empty slot), the accumulator with its m, l, u
// (l and u in raw mode) at `event`.
void AddSram(Scene& sc, const QueryLayout& L, const engine::SingleQueryRun& run, int event, int in_sram,
             const std::vector<std::string>& shown_scores, const std::string& lang, const Palette& pal) {
  // (A projector's 5 em tile holds "Q（固定）" only under the floor: "Q" and its ◆; the text says it stays.)
  sc.rects.push_back(Tile("sram.q", L.sram_x + 1, L.row1, 5, L.sram_tile_h, TileState::kInSram, pal, lang,
                          L.projector ? "Q" : UiText(Str::q_fixed, lang)));
  if (in_sram > 0) {
    const auto& b = run.blocks[in_sram - 1];
    SceneRect r = Tile("sram.kv", L.sram_x + 7, L.row1, 11, L.sram_tile_h, b.all_masked ? TileState::kMasked : TileState::kInSram,
                       pal, lang, "K/V " + std::to_string(in_sram));
    const std::string detail = BlockDetail(run, shown_scores, b.begin, b.end);
    if (static_cast<float>(detail.size()) * 0.5f < 10.4f) r.label += "\n" + detail;
    sc.rects.push_back(std::move(r));
  } else {
    SceneRect r = Tile("sram.kv", L.sram_x + 7, L.row1, 11, L.sram_tile_h, TileState::kNone, pal, lang, UiText(Str::kv_slot, lang));
    r.fill = pal.panel_sram;
    r.dashed = true;
    r.sublabel = UiText(Str::slot_empty, lang);
    sc.rects.push_back(std::move(r));
  }
  // (At the floors the box is a little wider: its title "accumulator m, l, u" fits at 24 px em.)
  SceneRect acc = PanelRect("sram.acc", L.sram_x + (L.projector ? 0.5f : 1.0f), L.acc_top, L.projector ? 18.0f : 17.0f, L.acc_h,
                            {255, 255, 255}, pal);
  acc.label = UiText(L.raw ? Str::acc_title_raw : Str::acc_title, lang);
  sc.rects.push_back(acc);
  const Quantities q = StateQuantitiesAt(run, event);
  // The three rows share the box's height below its title; the painter may enlarge them (Ctrl + beyond
  // what the layout took) only as far as their pitch allows. At the floors each row is a key line.
  const float ax = L.sram_x + 1.8f, row_top = L.acc_top + L.acc_rows_top, size = 1.35f * L.ts;
  // Raw mode subtracts no maximum: its accumulator is l and u (an m pinned at 0 only raised the
  // question of what m is, before N50/s1 introduces it).
  const int rows = L.raw ? 2 : 3;
  const float row = L.projector ? L.acc_pitch : (L.acc_top + L.acc_h - 0.4f - row_top) / static_cast<float>(rows);
  const char* all_names[] = {"m", "l", "u"};
  const char* const* names = L.raw ? all_names + 1 : all_names;
  for (int k = 0; k < rows; ++k) {
    SceneText t{std::string("acc.") + names[k], ax, row_top + row * static_cast<float>(k), size, pal.state_term,
                std::string(names[k]) + " = " + q.at(names[k])};
    t.max_grow = (row - 0.15f) / size;
    t.key = L.projector;
    sc.texts.push_back(std::move(t));
  }
}

// The transfer of this event: Q or a K/V block read over the top, the block merged into the
// accumulator, or O written back.
void AddTransferArrow(Scene& sc, const QueryLayout& L, const engine::QueryEvent& ev, const std::vector<float>& kv_center,
                      const std::string& lang, const Palette& pal) {
  const float sram_q_c = L.sram_x + 3.5f, sram_kv_c = L.sram_x + 12.5f;
  switch (ev.kind) {
    case engine::QueryEventKind::kStart:
      sc.arrows.push_back(OverTheTop("read.q", ArrowKind::kRead, 3.5f, sram_q_c, L.row1, L.lane, pal.read_arrow,
                                     UiText(Str::read, lang) + " Q"));
      if (L.projector) sc.arrows.back().label_at.y = L.lane + 0.2f;
      break;
    case engine::QueryEventKind::kLoadBlock:
      sc.arrows.push_back(OverTheTop("read.kv." + std::to_string(ev.block), ArrowKind::kRead, kv_center[ev.block],
                                     sram_kv_c, L.row1, L.lane, pal.read_arrow,
                                     UiText(Str::read, lang) + " K/V " + std::to_string(ev.block)));
      if (L.projector) sc.arrows.back().label_at.y = L.lane + 0.2f;
      break;
    case engine::QueryEventKind::kUpdate: {
      SceneArrow a;
      a.id = "merge." + std::to_string(ev.block);
      a.kind = ArrowKind::kMerge;
      a.points = {{sram_kv_c, L.row1 + L.sram_tile_h}, {sram_kv_c, L.projector ? L.acc_top : L.row2 - 1.5f}};
      a.color = pal.merge_arrow;
      a.label = UiText(L.raw ? Str::merge_raw : Str::merge, lang);
      a.label_at = {L.sram_x + 1.0f, L.projector ? L.lane + 0.2f : L.row1 + L.tile_h + 0.15f};
      sc.arrows.push_back(std::move(a));
      break;
    }
    case engine::QueryEventKind::kWriteOutput: {
      SceneArrow a;
      a.id = "write.o";
      a.kind = ArrowKind::kWrite;
      a.points = {{L.sram_x + 1, L.hbm_row2 + L.hbm_tile_h2 / 2}, {L.kv_x1, L.hbm_row2 + L.hbm_tile_h2 / 2}};
      a.color = pal.write_arrow;
      // (A projector's strip below says o = u/l at the floor; the arrow's label found no room beside it.)
      if (!L.projector) a.label = UiText(Str::write, lang);
      a.label_at = {L.projector ? L.kv_x1 + 0.2f : 22.5f, L.projector ? L.hbm_row2 + L.hbm_tile_h2 / 2 + 0.35f : L.row2 + L.tile_h + 0.4f};
      sc.arrows.push_back(std::move(a));
      break;
    }
  }
}

}  // namespace

Scene BuildQueryScene(const engine::SingleQueryRun& run, int event, const std::string& lang, const Palette& pal,
                      float text_scale, bool projector, FloorLines lines) {
  const QueryLayout L = LayOutQueryScene(run, text_scale, projector, lines);

  event = std::clamp(event, 0, static_cast<int>(run.events.size()) - 1);
  const auto& ev = run.events[event];
  const int merged = run.BlocksMergedAt(event);
  const int in_sram = run.BlockInSramAt(event);

  Scene sc;
  sc.width = L.W;
  sc.height = L.H;
  sc.background = pal.background;

  sc.rects.push_back(PanelRect("hbm", L.hbm_x, 0, L.hbm_w, L.H, pal.panel_hbm, pal));
  sc.rects.push_back(PanelRect("sram", L.sram_x, 0, L.sram_w, L.H, pal.panel_sram, pal));
  sc.texts.push_back({"hbm.title", L.hbm_x + 0.6f, 0.5f, 1.15f, pal.text, UiText(Str::hbm_title, lang)});
  sc.texts.push_back({"sram.title", L.sram_x + 0.6f, 0.5f, 1.15f, pal.text, UiText(Str::sram_title, lang)});

  const std::vector<std::string> shown_scores = run.exact ? std::vector<std::string>() : FormatDistinct(run.problem.scores);
  // HBM: Q, the K/V blocks, the S/P tables the tiled order never stores, O.
  const std::vector<float> kv_center = AddHbmInputs(sc, L, run, merged, in_sram, shown_scores, lang, pal);
  AddHbmOutputs(sc, L, run, event, ev.kind == engine::QueryEventKind::kWriteOutput, lang, pal);
  AddSram(sc, L, run, event, in_sram, shown_scores, lang, pal);

  // Legend along the bottom of the HBM panel.
  if (!projector) {
    sc.texts.push_back({"legend.read", 1, L.H - 2.0f, 0.9f, pal.read_arrow, "\u2192 " + UiText(Str::legend_read, lang)});
    sc.texts.push_back({"legend.write", 16, L.H - 2.0f, 0.9f, pal.write_arrow, "\u2192 " + UiText(Str::legend_write, lang)});
  }
  AddTransferArrow(sc, L, ev, kv_center, lang, pal);
  return sc;
}

}  // namespace bw::view
