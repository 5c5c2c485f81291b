// AttentionModel::BuildScene: the HBM/SRAM diagram of a full-attention run at one event.
#include <algorithm>

#include "view/attention_model.h"
#include "view/format.h"

namespace bw::view {

using engine::EventKind;
using engine::Tensor;

namespace {

// Which pass of the materialising reference an event belongs to (1, 2, 3; 0 = none).
int ReferencePass(const engine::AttentionEvent& ev) {
  switch (ev.tensor) {
    case Tensor::kQ: case Tensor::kK: return 1;
    case Tensor::kS: return ev.kind == EventKind::kRead ? 2 : 1;
    case Tensor::kP: return ev.kind == EventKind::kRead ? 3 : 2;
    case Tensor::kV: case Tensor::kO: case Tensor::kL: return 3;
    default: return 0;
  }
}

}  // namespace

namespace {

// One forward diagram being built: what its parts read (the layout, the run's tile states at the
// event) and the scene so far. Each Add… draws one part, in the order the scene lists them: the
// panels, the HBM columns, the tile grid (tiled) or the full S and P (the reference), the SRAM
// slots, the accumulator, then the event's transfer.
struct ForwardDiagram {
  const data::AttentionScenario& scenario;
  const AttentionRuns& runs;
  const std::string& lang;
  const Palette& pal;
  const bool tiled;
  // Laid out for the label floors (SceneFrame::floors; the tiled order only): the HBM columns closer
  // together so that the tile grid is 16 em wide — each cell holds its (i, j) and its state's symbol
  // at the floor — and what the floors leave no room for goes: the column heads (each tile names
  // itself), the grid's note and the event line (the timeline says it).
  const bool floors;
  // The materialising reference at the floors keeps its geometry; its column heads, its event line
  // and its one-line titles go (each tile names itself; titles wrap onto lines of their own).
  const bool any_floors;
  // (At the floors, tiled, the diagram is one em taller: the columns' tiles and the SRAM slots hold
  // their name over their state's symbol at a laptop's 14 px em — at 22 em, N23's Q_1 … and the SRAM
  // tiles showed their symbol alone on a 1280×720 laptop in English, whose diagram box is wider than
  // high; the accumulator's rows get room above the SRAM account's two lines.)
  static constexpr float kW = 56;
  const float kH = floors ? 23.0f : 22.0f;
  const float kHbmW = floors ? 22.0f : 25.5f, kMidX = floors ? 23.0f : 26.5f, kMidW = floors ? 16.0f : 12.5f;
  static constexpr float kSramX = 40, kSramW = 16;
  // (At the floors the tiles start lower and the lower lane runs higher: an arrow's label, 1.7 em
  // high, goes between its lane and the tiles.)
  const float kTop = any_floors ? 4.6f : 3.4f, kLaneLow = floors ? 21.1f : any_floors ? 20.1f : 20.6f;
  const float kBottom = floors ? 20.6f : 19.6f;
  static constexpr float kColW = 3.4f, kLane = 2.5f;
  // The SRAM slots (Q_i, K_j, V_j, S_ij): at the floors tall enough for two lines at a laptop's floor.
  const float kSlotH = floors ? 4.0f : 3.6f;
  const float kColGap = floors ? 0.6f : 1.2f;
  const bool has_event;
  const engine::AttentionEvent ev;
  const std::int64_t t_r, t_c;
  const TileStates st;
  // Given logits (AttentionProblem::logits_given) replace Q and K: S itself is the input in HBM.
  const bool logits = scenario.problem.logits_given;

  // HBM columns: Q (T_r blocks), K, V (T_c), O and L (T_r); FA-1 keeps m, l in HBM instead of L.
  struct Column {
    const char* name;
    std::vector<TileState> states;
    bool row_side;
  };
  std::vector<Column> cols{};
  std::vector<float> col_x{};   // each column's left edge
  float v_x = 0, s_x = 0;     // the SRAM slots of V and of the S tile
  SceneRect acc{};            // the accumulator's box
  Scene sc{};

  SceneRect Tile(std::string id, float x, float y, float w, float h, TileState s, std::string label) const {
    return TileRect(std::move(id), x, y, w, h, s, pal, std::move(label), "", kGridCell);
  }
  static std::string Indexed(const char* n, std::int32_t k) { return std::string(n) + (k >= 0 ? "_" + std::to_string(k + 1) : ""); }

  void AddPanels();
  void AddSramOverM();
  void AddHbmColumns();
  void AddTileGrid();
  void AddFullSP();
  void AddSramSlots();
  void AddAccumulator(int e);
  void AddEventArrow(int e, const std::string& title, int event_count);
};

void ForwardDiagram::AddPanels() {
  sc.width = kW;
  sc.height = kH;
  sc.background = pal.background;
  sc.floors = any_floors;
  const auto panel = [&](std::string id, float x, float w, Color fill) { sc.rects.push_back(PanelRect(std::move(id), x, 0, w, kH, fill, pal)); };
  panel("hbm", 0, tiled ? kHbmW : kHbmW + kMidW + 1, pal.panel_hbm);
  panel("sram", kSramX, kSramW, pal.panel_sram);
  sc.texts.push_back({"hbm.title", 0.6f, 0.5f, 1.15f, pal.text, UiText(Str::hbm_title, lang)});
  // (The reference at the floors: the short title, as the long one is wider than the panel.)
  sc.texts.push_back({"sram.title", kSramX + 0.6f, 0.5f, 1.15f, pal.text, UiText(any_floors && !tiled ? Str::sram_title_short : Str::sram_title, lang)});
}

// The SRAM account against M, on the diagram itself (SramBudgetOf): the blocks Algorithm 1's rule
// sizes (Q_i, K_j, V_j, O_i) against M, then the peak with the S_ij tile and m, l that the rule leaves
// out. Flagged red "over M!" only where the blocks themselves exceed M: the peak above M is the
// rule's own tile choice (N23/c2 read "288 B over M!" beside text that says the tiles fit M).
void ForwardDiagram::AddSramOverM() {
  if (!tiled) return;
  const auto budget = SramBudgetOf(scenario, runs.run);
  if (!budget) return;
  const bool over = budget->BlocksOverM();
  const std::string blocks = (logits ? std::string("V_j O_i: ") : std::string("Q_i K_j V_j O_i: ")) + FormatInt(budget->blocks) +
                             (over ? " > M = " : " \u2264 M = ") + FormatInt(budget->M) + (over ? " " + UiText(Str::sram_over_m, lang) : "");
  const std::string peak = UiText(Str::sram_peak, lang) + " " + FormatInt(budget->peak) + (logits ? " (+ m, l)" : " (+ S_ij, m, l)");
  const Color blocks_color = over ? pal.write_arrow : pal.text;
  if (!floors) {
    sc.texts.push_back({"sram.over_m", kSramX + 0.6f, 1.75f, 0.85f, blocks_color, blocks + "  \u00b7  " + peak});
  } else {  // at the floors: two lines at the foot of the accumulator's box, where its rows leave room
    sc.texts.push_back({"sram.over_m", kSramX + 1.1f, kBottom - 4.0f, 1.0f, blocks_color, blocks});
    sc.texts.push_back({"sram.over_m.2", kSramX + 1.1f, kBottom - 2.1f, 1.0f, pal.text, peak});
  }
}

void ForwardDiagram::AddHbmColumns() {
  cols = {{"V", st.Of(Tensor::kV), false}, {"O", st.Of(Tensor::kO), true}};
  if (!logits) cols.insert(cols.begin(), {{"Q", st.Of(Tensor::kQ), true}, {"K", st.Of(Tensor::kK), false}});
  if (runs.run.algorithm == engine::Algorithm::kFlash1) cols.push_back({"m,l", st.Of(Tensor::km), true});
  else if (tiled) cols.push_back({"L", st.Of(Tensor::kL), true});
  for (size_t c = 0; c < cols.size(); ++c) {
    const float x = 0.8f + static_cast<float>(c) * (kColW + kColGap);
    col_x.push_back(x);
    if (!any_floors) sc.texts.push_back({std::string("hbm.col.") + cols[c].name, x + 0.2f, kTop - 1.25f + 0.0f, 1.0f, pal.text, cols[c].name});
    const auto& s = cols[c].states;
    const float h = (kBottom - kTop) / static_cast<float>(s.size());
    for (size_t b = 0; b < s.size(); ++b) {
      std::string id = std::string("hbm.") + cols[c].name + "." + std::to_string(b + 1);
      std::string label = std::string(cols[c].name) + (s.size() > 1 ? "_" + std::to_string(b + 1) : "");
      SceneRect r = Tile(id, x, kTop + h * static_cast<float>(b), kColW, std::max(0.12f, h - (h > 0.5f ? 0.12f : 0.0f)),
                         s[b], label);
      if (r.h >= 1.8f) r.sublabel = "";
      sc.rects.push_back(std::move(r));
    }
  }
}

// Middle (tiled): the T_r × T_c tile grid.
void ForwardDiagram::AddTileGrid() {
  // The grid's ground: an unpainted box (the background's fill, no border) around the title, the note
  // and the cells, so that a step can name the whole grid in its "conceal" ("grid"): N23/c1 asks
  // whether all of Q, K and V fit on chip at once, and a grid of tiles (i, j) answers "no, it is
  // tiled" before the class has said so. Concealed, it reads "? (predict first)" in the grid's place.
  // (At the floors the read arrow's lane crosses the top of the middle: the grid's title goes under
  // the lane, above the cells, so that the concealed grid's "? (predict first)" is not struck through.)
  const float title_y = floors ? kLane + 0.35f : 0.5f;
  SceneRect ground;
  ground.id = "grid";
  ground.x = kHbmW + 0.3f;
  ground.y = floors ? kLane + 0.2f : 0.1f;
  ground.w = kSramX - 0.1f - ground.x;
  ground.h = kBottom + 0.3f - ground.y;
  ground.fill = pal.background;
  ground.border = {pal.background.r, pal.background.g, pal.background.b, 0};
  ground.border_em = 0;
  sc.rects.push_back(ground);
  sc.texts.push_back({"grid.title", kMidX, title_y, 1.0f, pal.text,
                      UiText(logits ? Str::grid_title_logits : Str::tile_grid, lang) + " " + std::to_string(t_r) + " \u00d7 " + std::to_string(t_c)});
  if (!floors)
    sc.texts.push_back({"grid.note", kMidX, 1.7f, 0.8f, pal.text_muted, UiText(logits ? Str::grid_note_logits : Str::grid_note, lang)});
  const float size = std::min(kMidW / static_cast<float>(t_c), (kBottom - kTop) / static_cast<float>(t_r));
  for (std::int64_t i = 0; i < t_r; ++i)
    for (std::int64_t j = 0; j < t_c; ++j) {
      const float gap = size > 0.6f ? 0.08f : 0.0f;
      const std::string ij = std::to_string(i + 1) + "," + std::to_string(j + 1);
      SceneRect r = Tile("grid." + ij, kMidX + size * static_cast<float>(j), kTop + size * static_cast<float>(i),
                         size - gap, size - gap, st.grid[static_cast<size_t>(i * t_c + j)], floors ? ij : "(" + ij + ")");
      r.dashed = false;
      // Colour is not the only signal: big enough cells also say their state in words.
      if (size >= 2.2f) r.sublabel = ShortStateWord(r.state, lang);
      sc.rects.push_back(std::move(r));
    }
}

// Middle (the materialising reference): the full S and P matrices in HBM.
void ForwardDiagram::AddFullSP() {
  const float x = col_x.back() + kColW + 1.6f, w = kHbmW + kMidW + 1 - x - 0.8f, h = (kBottom - kTop) / 2 - 0.5f;
  SceneRect s = Tile("hbm.S", x, kTop, w, h, st.s_full, (logits ? UiText(Str::logits_given, lang) : "S = \u03c4\u00b7QK^T") +
                                                            (any_floors ? "\n(" : "  (") + std::to_string(scenario.problem.n_q()) +
                                                            " \u00d7 " + std::to_string(scenario.problem.n_k()) + ")");
  SceneRect p = Tile("hbm.P", x, kTop + h + 1, w, h, st.p_full, "P = softmax(S)");
  for (SceneRect* r : {&s, &p}) {
    if (r->state == TileState::kPending && !(logits && r == &s)) {   // given logits: S is an input, waiting to be read
      r->state = TileState::kNotWritten;
      r->fill = Style(r->state, pal).fill;
      r->dashed = true;
    }
  }
  sc.rects.push_back(s);
  sc.rects.push_back(p);
}

// SRAM: Q_i, K_j, V_j and the S_ij / P̃_ij tile.
void ForwardDiagram::AddSramSlots() {
  const std::int32_t ci = ev.i, cj = ev.j;
  const auto slot = [&](const std::string& id, float x, const std::string& label, bool filled) {
    SceneRect r = Tile(id, x, kTop, 3.4f, kSlotH, filled ? TileState::kInSram : TileState::kNone, label);
    if (!filled) {
      r.fill = pal.panel_sram;
      r.dashed = true;
    } else if (any_floors && !tiled) {
      // The reference's slots at the floors: too narrow for the name beside the state's symbol, they
      // keep the name; the solid border (an empty slot's is dashed) and the colour say "on chip".
      r.state = TileState::kNone;
    }
    sc.rects.push_back(std::move(r));
  };
  const bool in_block = tiled && ci >= 0;
  // The materialising reference works in three passes, each with only its own operands on chip
  // (FlashAttention Algorithm 0): 1 reads Q, K and writes S; 2 reads S and writes P; 3 reads P, V
  // and writes O.
  const int pass = tiled || !has_event ? 0 : ReferencePass(ev);
  if (!logits) slot("sram.Q", kSramX + 0.6f, Indexed("Q", ci), tiled ? in_block : pass == 1);
  // A skipped tile loads nothing: its K_j and V_j never reach SRAM.
  const bool kv_loaded = tiled && cj >= 0 && ev.kind != EventKind::kSkipTile;
  // An empty slot is named by its tensor alone: "K_2" on the empty slot of a skipped tile read as if
  // K_2 were on chip (a helper, MASK/k2).
  const std::int32_t kv_index = !tiled || kv_loaded ? cj : -1;
  if (!logits) slot("sram.K", kSramX + 4.4f, Indexed("K", kv_index), tiled ? kv_loaded : pass == 1);
  // Given logits there is no Q or K slot: V and the S tile move to the left.
  v_x = kSramX + (logits ? 0.6f : 8.2f), s_x = kSramX + (logits ? 4.4f : 12.0f);
  slot("sram.V", v_x, Indexed("V", kv_index), tiled ? kv_loaded : pass == 3);
  slot("sram.S", s_x, tiled ? "S_ij" : pass == 1 ? "S" : pass == 2 ? "S\u2192P" : "P", tiled ? kv_loaded : pass > 0);
}

// SRAM, below the slots: the accumulator of Q_i's rows, with their m, l and α at event e (tiled).
void ForwardDiagram::AddAccumulator(int e) {
  const std::int32_t ci = ev.i;
  acc.id = "sram.acc";
  const float acc_y = floors ? 10.4f : 8.6f;
  acc.x = kSramX + 0.6f, acc.y = acc_y, acc.w = kSramW - 1.2f, acc.h = kBottom - acc_y;
  acc.fill = {255, 255, 255};
  acc.border = pal.border;
  acc.border_em = pal.line_em;
  // The rows show m, l and α (not u): the box says so and names α as the side panel's column does (a
  // helper found α defined nowhere and u promised but never shown).
  // (At the floors the box's title is its block and the three names: the sentence did not fit.)
  acc.label = floors  ? Indexed("Q", ci) + ":  m, l"
              : tiled ? UiText(Str::acc_box, lang) + " " + Indexed("Q", ci)
                      : UiText(Str::no_acc_reference, lang);
  if (any_floors && !tiled) {   // its sentence on lines as wide as the box
    std::string wrapped;
    for (const auto& line : WrapEstimated(acc.label, (acc.w - 1.0f) / 1.15f)) wrapped += (wrapped.empty() ? "" : "\n") + line;
    acc.label = wrapped;
  }
  sc.rects.push_back(acc);
  if (!tiled || !has_event) return;
  const engine::BlockState bs = runs.run.trace.StateAt(scenario.problem, static_cast<size_t>(e));
  if (!bs.valid) return;
  const Eigen::Index rows = std::min<Eigen::Index>(bs.m.size(), 6);
  std::vector<std::string> lines;
  for (Eigen::Index r = 0; r < rows; ++r)
    // (At the floors a row of three numbers is wider than the box: α stays in the side panel's table.)
    lines.push_back("r" + std::to_string(bs.row_begin + r + 1) + ":  m " + FormatDouble(bs.m[r]) + "   l " +
                    FormatDouble(bs.l[r]) + (floors ? "" : "   \u03b1 " + FormatDouble(bs.alpha[r])));
  // The rows fill the height of the box: a block of two rows (MASK, B_r = 2) was 0.9 em in a box
  // with room for three times that, unreadable from the back of the room. One size for all rows,
  // 0.9 to 1.4 em; a row too wide for the box is shrunk by the painter, which measures it.
  const Eigen::Index shown = rows + (bs.m.size() > rows ? 1 : 0);
  const float rows_top = acc.y + (floors ? 2.2f : 1.6f);   // below the box's title (at the floor, 1.7 em high)
  // (At the floors the SRAM account's two lines sit at the box's foot, from kBottom − 4 em: the rows end
  // above them — N23/c2's "r2:" touched "Q_i K_j V_j O_i: 24 ≤ M = 32" on a laptop.)
  const bool account = floors && SramBudgetOf(scenario, runs.run).has_value();
  const float room_h = account ? kBottom - 4.1f - rows_top : acc.h - 2.2f;
  const float size = std::clamp(0.9f * room_h / (1.45f * static_cast<float>(std::max<Eigen::Index>(shown, 1))), 0.9f, 1.4f);
  const float pitch = 1.45f * size / 0.9f;
  for (Eigen::Index r = 0; r < rows; ++r)
    sc.texts.push_back({"acc.row." + std::to_string(r), acc.x + 0.5f, rows_top + pitch * static_cast<float>(r), size, pal.text,
                        lines[static_cast<size_t>(r)]});
  if (bs.m.size() > rows)
    sc.texts.push_back({"acc.more", acc.x + 0.5f, rows_top + pitch * static_cast<float>(rows), 0.8f * size / 0.9f,
                        pal.text_muted, "\u2026 " + std::to_string(bs.m.size() - rows) + " " + UiText(Str::more_rows, lang)});
}

// The transfer or computation of event e (`title`: its name on the timeline), and under the
// diagram the event line.
void ForwardDiagram::AddEventArrow(int e, const std::string& title, int event_count) {
  const auto col_of = [&](Tensor t) -> int {
    for (size_t c = 0; c < cols.size(); ++c)
      if (std::string(cols[c].name) == engine::ToString(t) ||
          (std::string(cols[c].name) == "m,l" && (t == Tensor::km || t == Tensor::kl)))
        return static_cast<int>(c);
    return -1;
  };
  const auto block_y = [&](int c, std::int32_t b) {
    const auto& s = cols[static_cast<size_t>(c)].states;
    const float h = (kBottom - kTop) / static_cast<float>(s.size());
    return b < 0 ? (kTop + kBottom) / 2 : kTop + h * (static_cast<float>(b) + 0.5f);
  };
  const auto slot_x = [&](Tensor t) {
    switch (t) {
      case Tensor::kQ: return kSramX + 2.3f;
      case Tensor::kK: return kSramX + 6.1f;
      case Tensor::kV: return v_x + 1.7f;
      case Tensor::kS:
      case Tensor::kP: return s_x + 1.7f;
      default: return kSramX + 8.0f;
    }
  };
  SceneArrow a;
  if (ev.kind == EventKind::kRead || ev.kind == EventKind::kWrite) {
    const bool read = ev.kind == EventKind::kRead;
    const Tensor t = ev.tensor;
    float fx, fy;  // the HBM end of the arrow: right edge of the tile, or of the S/P box
    const int c = col_of(t);
    if (c >= 0) {
      fx = col_x[static_cast<size_t>(c)] + kColW;
      fy = block_y(c, RowSide(t) ? ev.i : ev.j);
    } else if (const SceneRect* cell = t == Tensor::kS && ev.i >= 0 && ev.j >= 0
                                           ? sc.FindRect("grid." + std::to_string(ev.i + 1) + "," + std::to_string(ev.j + 1))
                                           : nullptr) {   // a tile of given logits: from its grid cell
      fx = cell->x + cell->w;
      fy = cell->y + cell->h / 2;
    } else {
      const SceneRect* box = sc.FindRect(t == Tensor::kS ? "hbm.S" : "hbm.P");
      fx = box ? box->x + box->w : kHbmW;
      fy = box ? box->y + box->h / 2 : 10;
    }
    const float gx = fx + 0.55f;
    a.kind = read ? ArrowKind::kRead : ArrowKind::kWrite;
    a.color = read ? pal.read_arrow : pal.write_arrow;
    a.label = title + "  (" + FormatInt(ev.elements) + " " + UiText(Str::elements, lang) + ")";
    if (read) {
      const float tx = slot_x(t);
      a.points = {{fx, fy}, {gx, fy}, {gx, kLane}, {tx, kLane}, {tx, kTop}};
      a.label_at = {std::min(gx, tx) + 0.5f, any_floors ? kLane + 0.2f : kLane - 1.2f};
    } else {
      const float sx = acc.x + 1.5f;
      a.points = {{sx, acc.y + acc.h}, {sx, kLaneLow}, {gx, kLaneLow}, {gx, fy}, {fx, fy}};
      // Under the lane, beside its arrow: above it the label sat on the HBM panel's bottom border.
      a.label_at = {gx + 0.6f, kLaneLow + 0.25f};
    }
    a.id = std::string(read ? "read." : "write.") + engine::ToString(t);
  } else if (ev.kind == EventKind::kUpdateMLU || ev.kind == EventKind::kComputeGrads) {
    a.kind = ArrowKind::kMerge;
    a.color = pal.merge_arrow;
    a.id = "merge";
    a.points = {{s_x + 1.7f, kTop + kSlotH}, {s_x + 1.7f, acc.y}};
    a.label = UiText(Str::merge, lang);
    a.label_at = {kSramX + 0.6f, kTop + kSlotH + 0.15f};
  } else if (ev.kind == EventKind::kComputeS) {
    a.kind = ArrowKind::kMerge;
    a.color = pal.merge_arrow;
    a.id = "compute.S";
    a.points = {{s_x - 0.4f, kTop + 1.8f}, {s_x, kTop + 1.8f}};
    // τ: the softmax scale (FlashAttention §3.1). Given logits are only masked on chip.
    a.label = logits ? title : "S_ij = \u03c4\u00b7Q_i K_j^T";
    a.label_at = {kSramX + 0.6f, kTop + kSlotH + 0.15f};
  }
  if (!a.points.empty()) sc.arrows.push_back(std::move(a));
  if (!any_floors)
    sc.texts.push_back({"event", 0.8f, kH - 1.3f, 0.95f, pal.text,
                        UiText(Str::event, lang) + " " + std::to_string(e + 1) + "/" + std::to_string(event_count) + ": " + title});
}

}  // namespace

Scene AttentionModel::BuildScene(int e, const std::string& lang, const Palette& pal, const SceneFrame& frame) const {
  e = std::clamp(e, 0, EventCount() - 1);
  if (IsBackward(e)) return BuildBackwardScene(e - FwdCount(), lang, pal, frame.floors);
  const bool tiled = Tiled();
  const bool has_event = !runs_.run.trace.empty();
  ForwardDiagram d{.scenario = scenario_,
                   .runs = runs_,
                   .lang = lang,
                   .pal = pal,
                   .tiled = tiled,
                   .floors = frame.floors && tiled,
                   .any_floors = frame.floors,
                   .has_event = has_event,
                   .ev = has_event ? runs_.run.trace[static_cast<size_t>(e)] : engine::AttentionEvent{},
                   .t_r = tiled ? runs_.t_r : 1,
                   .t_c = tiled ? runs_.t_c : 1,
                   .st = states_.At(has_event ? e : -1)};
  d.AddPanels();
  d.AddSramOverM();
  d.AddHbmColumns();
  if (tiled) d.AddTileGrid();
  else d.AddFullSP();
  d.AddSramSlots();
  d.AddAccumulator(e);
  if (has_event) d.AddEventArrow(e, EventTitle(e, lang), EventCount());
  return std::move(d.sc);
}

}  // namespace bw::view
