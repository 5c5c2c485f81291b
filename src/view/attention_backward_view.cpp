// AttentionModel's backward events: the diagram of FlashAttention-2 Algorithm 2 (Dao 2023, §3.2,
// Algorithm 2) at one backward event. HBM (left) holds Q, K, V, O, dO, L, the D = rowsum(dO ∘ O)
// written first, and the gradients dQ (updated in place per tile), dK, dV (written once per K/V
// block); the middle shows which tiles (i, j) have had their gradients computed and, beside it, the
// materialising backward (FlashAttention Algorithm 3) with its stored P and both traffic counts;
// SRAM (right) holds K_j, V_j with their accumulators dK_j, dV_j, the Q-side blocks of tile (i, j)
// and the recomputed P_ij = exp(S_ij − L_i).
#include <algorithm>

#include "view/attention_model.h"
#include "view/format.h"

namespace bw::view {

using engine::EventKind;
using engine::Tensor;

namespace {

// HBM columns of the backward, in the order of Algorithm 2's inputs then outputs.
constexpr Tensor kColumns[] = {Tensor::kQ, Tensor::kK,  Tensor::kV,  Tensor::kO,  Tensor::kdO,
                               Tensor::kL, Tensor::kD,  Tensor::kdQ, Tensor::kdK, Tensor::kdV};

}  // namespace

namespace {

// One backward diagram being built: what its parts read (the layout, the tile states and what is on
// chip at backward event b) and the scene so far. Each Add… draws one part, in the order the scene
// lists them: the panels, the HBM columns, the tile grid, the two passes' traffic, the SRAM slots,
// then the event's transfer or computation.
struct BackwardDiagram {
  const data::AttentionScenario& scenario;
  const AttentionRuns& runs;
  const std::string& lang;
  const Palette& pal;
  const bool floors;
  const engine::AttentionTrace& tr;   // Algorithm 2's trace
  const int b;                        // the backward event
  const BackwardOnChip chip;
  const float kW = floors ? 41.5f : 56, kH = floors ? 16.2f : 22;
  const float kHbmW = floors ? 16.6f : 25.5f, kMidX = floors ? 17.1f : 26.3f, kMidW = floors ? 7.8f : 13.0f,
              kSramX = floors ? 25.2f : 40, kSramW = floors ? 16.0f : 16;
  const float kTop = floors ? 3.3f : 3.4f, kBottom = 19.6f, kColW = floors ? 3.0f : 2.25f, kColGap = floors ? 0.2f : 0.25f,
              kLane = floors ? 1.8f : 2.5f;
  // HBM at the floors: five columns to a band, two bands.
  static constexpr int kPerBand = 5;
  static constexpr float kBandTop = 1.6f, kBandH = 7.0f, kBandGap = 0.3f;
  // (At the floors the grid leaves the column's foot to the materialising path's stored P.)
  const float grid_h = floors ? 6.2f : 7.0f;
  const float slot_h = floors ? 2.8f : 3.0f;
  const engine::AttentionEvent& ev = tr[static_cast<size_t>(b)];
  const std::int64_t t_r = runs.t_r, t_c = runs.t_c;
  std::vector<float> col_x{};   // each HBM column's left edge
  Scene sc{};

  std::string T(Str k) const { return UiText(k, lang); }
  SceneRect Tile(std::string id, float x, float y, float w, float h, TileState s, std::string label) const {
    return TileRect(std::move(id), x, y, w, h, s, pal, std::move(label), ShortStateWord(s, lang), kGridCell);
  }
  static std::string Indexed(const char* n, std::int32_t k) { return std::string(n) + (k >= 0 ? "_" + std::to_string(k + 1) : ""); }
  // HBM column c: the span its blocks share (top, bottom), and the middle of its block k (k < 0: of
  // the whole column).
  float ColTop(size_t c) const { return floors ? kBandTop + static_cast<float>(c / kPerBand) * (kBandH + kBandGap) : kTop; }
  float ColBottom(size_t c) const { return floors ? ColTop(c) + kBandH : kBottom; }
  float BlockY(const TileStates& st, int c, std::int32_t k) const {
    const auto& s = st.Of(kColumns[c]);
    const float top = ColTop(static_cast<size_t>(c)), bottom = ColBottom(static_cast<size_t>(c));
    const float h = (bottom - top) / static_cast<float>(s.size());
    return k < 0 ? (top + bottom) / 2 : top + h * (static_cast<float>(k) + 0.5f);
  }
  static int ColumnOf(Tensor t) {
    for (size_t c = 0; c < std::size(kColumns); ++c)
      if (kColumns[c] == t) return static_cast<int>(c);
    return -1;
  }

  void AddPanels();
  void AddHbmColumns(const TileStates& st);
  void AddTileGrid(const TileStates& st);
  void AddTraffic();
  void AddSramSlots();
  void AddEventArrow(const TileStates& st, const std::string& title, int event_number, int event_count);
};

void BackwardDiagram::AddPanels() {
  sc.width = kW;
  sc.height = kH;
  sc.floors = floors;
  sc.background = pal.background;
  const auto panel = [&](std::string id, float x, float w, Color fill) { sc.rects.push_back(PanelRect(std::move(id), x, 0, w, kH, fill, pal)); };
  panel("hbm", 0, kHbmW, pal.panel_hbm);
  panel("sram", kSramX, kSramW, pal.panel_sram);
  sc.texts.push_back({"hbm.title", floors ? 0.4f : 0.6f, floors ? 0.2f : 0.5f, floors ? 1.0f : 1.15f, pal.text,
                      T(floors ? Str::hbm_title_short : Str::hbm_title)});
  sc.texts.push_back({"sram.title", kSramX + (floors ? 0.4f : 0.6f), floors ? 0.2f : 0.5f, floors ? 1.0f : 1.15f, pal.text,
                      T(floors ? Str::sram_title_short : Str::sram_title)});
}

// HBM: one column per tensor of kColumns, a tile per block.
void BackwardDiagram::AddHbmColumns(const TileStates& st) {
  for (size_t c = 0; c < std::size(kColumns); ++c) {
    const Tensor t = kColumns[c];
    const std::string name = engine::ToString(t);
    const float x = (floors ? 0.4f : 0.5f) + static_cast<float>(floors ? c % kPerBand : c) * (kColW + kColGap);
    col_x.push_back(x);
    if (!floors) sc.texts.push_back({"hbm.col." + name, x + 0.1f, kTop - 1.25f, 0.95f, pal.text, name});
    const auto& s = st.Of(t);
    const float h = (ColBottom(c) - ColTop(c)) / static_cast<float>(s.size());
    for (size_t k = 0; k < s.size(); ++k) {
      SceneRect r = Tile("hbm." + name + "." + std::to_string(k + 1), x, ColTop(c) + h * static_cast<float>(k), kColW,
                         std::max(0.12f, h - (h > 0.5f ? 0.12f : 0.0f)), s[k],
                         name + (s.size() > 1 ? "_" + std::to_string(k + 1) : ""));
      r.sublabel.clear();   // too narrow for words: the column title, the fill and the dash say it (as in the forward)
      sc.rects.push_back(std::move(r));
    }
  }
}

// Middle, top: the T_r × T_c tiles, coloured by whether their gradients are done; at the floors its
// title under it and, under that, the materialising path's stored P.
void BackwardDiagram::AddTileGrid(const TileStates& st) {
  const std::string grid_title =
      T(floors ? Str::bwd_grid_short : Str::bwd_grid) + " " + std::to_string(t_r) + " \u00d7 " + std::to_string(t_c);
  if (!floors) {
    sc.texts.push_back({"grid.title", kMidX, 0.5f, 1.0f, pal.text, grid_title});
  } else {  // under the grid, on lines as wide as it (an arrow's label runs between the lane and the grid)
    const auto lines = WrapEstimated(grid_title, kMidW - 0.2f);
    for (size_t k = 0; k < lines.size(); ++k)
      sc.texts.push_back({"grid.title." + std::to_string(k + 1), kMidX, kTop + grid_h + 0.3f + 1.2f * static_cast<float>(k), 1.0f, pal.text, lines[k]});
    if (runs.bwd_reference) {
      // For contrast (BWD/r4 points at it): the materialising path's P, stored in HBM; its traffic and
      // P reads are in the side panel (backward_now).
      const float y = kTop + grid_h + 0.5f + 1.2f * static_cast<float>(lines.size());
      // Named as the other path's ("P stored in HBM" under "the forward keeps only O" read as a contradiction).
      SceneRect p = Tile("mat.P", kMidX, y, kMidW, kH - y, TileState::kWritten,
                         T(Str::bwd_contrast) + "P " + FormatInt(scenario.problem.n_q()) + "\u00d7" + FormatInt(scenario.problem.n_k()));
      p.sublabel = T(Str::bwd_stored);
      sc.rects.push_back(p);
    }
  }
  const float size = std::min(kMidW / static_cast<float>(t_c), grid_h / static_cast<float>(t_r));
  for (std::int64_t i = 0; i < t_r; ++i)
    for (std::int64_t j = 0; j < t_c; ++j) {
      const float gap = size > 0.6f ? 0.08f : 0.0f;
      const std::string ij = std::to_string(i + 1) + "," + std::to_string(j + 1);
      SceneRect r = Tile("grid." + ij, kMidX + size * static_cast<float>(j), kTop + size * static_cast<float>(i), size - gap,
                         size - gap, st.grid[static_cast<size_t>(i * t_c + j)], "(" + ij + ")");
      r.dashed = false;
      sc.rects.push_back(std::move(r));
    }
}

// Middle, below (not at the floors: there the side panel carries it): the two backward passes'
// traffic, and the materialising path's stored P.
void BackwardDiagram::AddTraffic() {
  const engine::Counters now = tr.CountersAt(static_cast<size_t>(b));
  const engine::Counters& rec = runs.bwd_recompute->counters;
  const float y0 = kTop + grid_h + 0.6f;
  // The totals answer "which moves more data?" (BWD/r1): held back while a question is open.
  const auto answer = [&](SceneText t) {
    t.answer = true;
    sc.texts.push_back(std::move(t));
  };
  answer({"bwd.recompute", kMidX, y0, 0.85f, pal.text,
          T(Str::bwd_recompute_short) + ": " + FormatInt(now.TotalHbmElements()) + " / " + FormatInt(rec.TotalHbmElements()) +
              " " + T(Str::elements)});
  sc.texts.push_back({"bwd.recompute.P", kMidX, y0 + 1.2f, 0.8f, pal.text_muted,
                      T(Str::bwd_p_reads) + " " + FormatInt(now.Reads(Tensor::kP))});
  if (!runs.bwd_reference) return;
  const engine::Counters& mat = runs.bwd_reference->counters;
  SceneRect frame;
  frame.id = "mat";
  frame.x = kMidX - 0.2f, frame.y = y0 + 2.6f, frame.w = kMidW + 0.4f, frame.h = kBottom + 1.6f - (y0 + 2.6f);
  frame.fill = pal.background;
  frame.border = pal.border;
  frame.border_em = pal.line_em * 0.5f;
  frame.dashed = true;
  sc.rects.push_back(frame);
  sc.texts.push_back({"mat.title", kMidX, frame.y + 0.25f, 0.85f, pal.text, T(Str::bwd_materialise_short)});
  SceneRect p = Tile("mat.P", kMidX + 0.3f, frame.y + 1.5f, 5.2f, 3.2f, TileState::kWritten,
                     "P " + FormatInt(scenario.problem.n_q()) + "\u00d7" + FormatInt(scenario.problem.n_k()));
  p.sublabel = T(Str::bwd_stored);
  sc.rects.push_back(p);
  answer({"mat.hbm", kMidX + 5.9f, frame.y + 1.5f, 0.8f, pal.text, FormatInt(mat.TotalHbmElements()) + " " + T(Str::elements)});
  sc.texts.push_back({"mat.P.reads", kMidX + 5.9f, frame.y + 2.7f, 0.8f, pal.text_muted,
                      T(Str::bwd_p_reads) + " " + FormatInt(mat.Reads(Tensor::kP))});
  sc.texts.push_back({"mat.scratch", kMidX + 5.9f, frame.y + 3.9f, 0.8f, pal.text_muted,
                      T(Str::scratch) + " " + FormatBytes(mat.hbm_scratch_bytes)});
}

// SRAM: K_j, V_j and their accumulators; the Q-side blocks of the current tile; P_ij recomputed.
// What is on chip follows the loop: K_j … dV_j from "read K_j" to "write dV_j"; Q_i, dO_i, L_i,
// D_i, dQ_i and P_ij from "read Q_i" to "write dQ_i".
void BackwardDiagram::AddSramSlots() {
  const std::int32_t cur_j = chip.j;
  const bool tile_live = chip.i >= 0, p_live = chip.p_recomputed;
  const auto slot = [&](const std::string& id, float x, float y, float w, const std::string& label, bool filled) {
    SceneRect r = Tile(id, x, y, w, slot_h, filled ? TileState::kInSram : TileState::kNone, label);
    if (!filled) {
      r.fill = pal.panel_sram;
      r.dashed = true;
      r.sublabel.clear();
    }
    sc.rects.push_back(std::move(r));
  };
  const bool kv = cur_j >= 0;
  const float sx = kSramX + 0.5f, sg = 0.15f, sw = floors ? (kSramW - 1.0f - 3 * sg) / 4 : 3.6f;
  slot("sram.K", sx, kTop, sw, Indexed("K", cur_j), kv);
  slot("sram.V", sx + (sw + sg), kTop, sw, Indexed("V", cur_j), kv);
  slot("sram.dK", sx + 2 * (sw + sg), kTop, sw, Indexed("dK", cur_j), kv);
  slot("sram.dV", sx + 3 * (sw + sg), kTop, sw, Indexed("dV", cur_j), kv);
  const float y2 = kTop + slot_h + (floors ? 0.2f : 0.6f);
  const std::int32_t qi = chip.i;
  slot("sram.Q", sx, y2, sw, Indexed("Q", qi), tile_live);
  slot("sram.dO", sx + (sw + sg), y2, sw, Indexed("dO", qi), tile_live);
  slot("sram.LD", sx + 2 * (sw + sg), y2, sw, Indexed("L", qi) + (floors ? "\n" : ",") + Indexed("D", qi), tile_live);
  slot("sram.dQ", sx + 3 * (sw + sg), y2, sw, Indexed("dQ", qi), tile_live);
  // The recomputed tile: never read from HBM (this pass reads 0 elements of P).
  // (At the floors without its (i, j): the grid's current cell says it.)
  SceneRect p = Tile("sram.P", sx, y2 + slot_h + (floors ? 0.2f : 0.6f), kSramW - 1.0f, floors ? 2.8f : 3.4f,
                     p_live && tile_live ? TileState::kInSram : TileState::kNone,
                     T(Str::bwd_p_recomputed) +
                         (qi >= 0 && kv && !floors ? " (" + std::to_string(qi + 1) + "," + std::to_string(cur_j + 1) + ")" : ""));
  if (!(p_live && tile_live)) {
    p.fill = pal.panel_sram;
    p.dashed = true;
  }
  p.sublabel = "P_ij = exp(S_ij \u2212 L_i)";
  sc.rects.push_back(p);
  if (!floors) sc.texts.push_back({"sram.note", sx, y2 + 10.0f, 0.8f, pal.text_muted, T(Str::bwd_sram_note)});
}

// The transfer or computation of this event (`title`: its name on the timeline), and under the
// diagram the event line.
void BackwardDiagram::AddEventArrow(const TileStates& st, const std::string& title, int event_number, int event_count) {
  const auto slot_center = [&](Tensor t) -> ScenePoint {
    const char* id = "sram.K";
    switch (t) {
      case Tensor::kK: id = "sram.K"; break;
      case Tensor::kV: id = "sram.V"; break;
      case Tensor::kdK: id = "sram.dK"; break;
      case Tensor::kdV: id = "sram.dV"; break;
      case Tensor::kQ: id = "sram.Q"; break;
      case Tensor::kdO: id = "sram.dO"; break;
      case Tensor::kL:
      case Tensor::kD: id = "sram.LD"; break;
      case Tensor::kdQ: id = "sram.dQ"; break;
      default: id = "sram.P"; break;
    }
    const SceneRect* r = sc.FindRect(id);
    return {r->x + r->w / 2, r->y};
  };
  SceneArrow a;
  if ((ev.kind == EventKind::kRead || ev.kind == EventKind::kWrite) && ColumnOf(ev.tensor) >= 0) {
    const bool read = ev.kind == EventKind::kRead;
    const int c = ColumnOf(ev.tensor);
    const float fx = col_x[static_cast<size_t>(c)] + kColW;
    const float fy = BlockY(st, c, RowSide(ev.tensor) ? ev.i : ev.j);
    const bool whole = (RowSide(ev.tensor) ? ev.i : ev.j) < 0;   // O, dO for D; the zero fill of dQ
    const ScenePoint to = whole ? ScenePoint{kSramX + kSramW / 2, kTop} : slot_center(ev.tensor);
    const float gx = kHbmW + (floors ? 0.25f : 0.3f);
    // (At the floors the label runs under the lane, above the grid and the slots.)
    const ScenePoint label_at = {gx + 0.5f, floors ? kLane + 0.2f : kLane - 1.2f};
    a.kind = read ? ArrowKind::kRead : ArrowKind::kWrite;
    a.color = read ? pal.read_arrow : pal.write_arrow;
    a.label = title + "  (" + FormatInt(ev.elements) + " " + T(Str::elements) + ")";
    if (read) {
      a.points = {{fx, fy}, {gx, fy}, {gx, kLane}, {to.x, kLane}, {to.x, to.y}};
      a.label_at = label_at;
    } else {
      // Up from the slot's top edge to the lane above the panels (the way reads come in): a way
      // down would cross the P tile and the L, D and dQ slots under it and their labels.
      a.points = {{to.x, to.y}, {to.x, kLane}, {gx, kLane}, {gx, fy}, {fx, fy}};
      a.label_at = label_at;
    }
    a.id = std::string(read ? "read." : "write.") + engine::ToString(ev.tensor);
  } else if (ev.kind == EventKind::kComputeGrads) {
    const SceneRect* pr = sc.FindRect("sram.P");
    a.kind = ArrowKind::kMerge;
    a.color = pal.merge_arrow;
    a.id = "grads";
    a.points = {{pr->x + pr->w / 2, pr->y}, {pr->x + pr->w / 2, kTop + slot_h}};
    if (!floors) {
      a.label = T(Str::bwd_grads);
      a.label_at = {pr->x, pr->y + pr->h + 0.2f};
      sc.texts.push_back({"grads.dQ", pr->x, pr->y + pr->h + 1.4f, 0.85f, pal.text, T(Str::bwd_grads_dq)});
    } else {  // one update to a line: the three do not fit the panel's width on two
      int k = 0;
      // (Formulas, the same in every language, like D_i's below.)
      for (const char* line : {"dV_j += P^T dO_i", "dK_j += dS^T Q_i", "dQ_i += dS K_j"})
        sc.texts.push_back({"grads." + std::to_string(++k), pr->x, pr->y + pr->h + 0.2f + 1.2f * static_cast<float>(k - 1), 1.0f,
                            pal.merge_arrow, line});
    }
  } else if (ev.kind == EventKind::kComputeFull && ev.tensor == Tensor::kD) {
    a.kind = ArrowKind::kMerge;
    a.color = pal.merge_arrow;
    a.id = "compute.D";
    const float y = floors ? kH - 0.6f : kBottom;
    a.points = {{kSramX + 2.0f, y}, {kSramX + 6.0f, y}};
    a.label = "D_i = dO_i \u00b7 O_i";
    a.label_at = {kSramX + 0.6f, y - 1.4f};
  }
  if (!a.points.empty()) sc.arrows.push_back(std::move(a));
  if (!floors)
    sc.texts.push_back({"event", 0.8f, kH - 1.3f, 0.95f, pal.text,
                        T(Str::event) + " " + std::to_string(event_number) + "/" + std::to_string(event_count) + ": " + title});
}

}  // namespace

// `floors` (SceneFrame::floors): laid out for the label floors in a 41.5 × 16.2 em frame (every text 1.35
// times larger on screen): HBM's ten tensors in two bands of five (inputs, then L, D and the
// gradients), each tile naming itself; the tile grid's short title under the grid and the
// materialising path's stored P under that; the SRAM slots a little wider, the recomputed P and the
// three gradient updates under them. What the floors leave no room for goes to the side panel, which
// carries it at the key size: the two paths' traffic and P reads (backward_now), and the event (the
// timeline).
Scene AttentionModel::BuildBackwardScene(int b, const std::string& lang, const Palette& pal, bool floors) const {
  const engine::AttentionTrace& tr = runs_.bwd_recompute->trace;
  b = std::clamp(b, 0, static_cast<int>(tr.size()) - 1);
  BackwardDiagram d{.scenario = scenario_, .runs = runs_, .lang = lang, .pal = pal, .floors = floors, .tr = tr, .b = b,
                    .chip = bwd_chip_[static_cast<size_t>(b)]};
  const TileStates st = bwd_states_.At(b);
  const int e = static_cast<int>(runs_.run.trace.size()) + b;   // the event's number among all the model's
  d.AddPanels();
  d.AddHbmColumns(st);
  d.AddTileGrid(st);
  if (!floors) d.AddTraffic();
  d.AddSramSlots();
  d.AddEventArrow(st, EventTitle(e, lang), e + 1, EventCount());
  return std::move(d.sc);
}

}  // namespace bw::view

namespace bw::view {

// [SECTION] Backward placeholders and panels ------------------------------------------------------------

void AttentionModel::AddBackwardQuantities(Quantities& q, int b) const {
  const engine::AttentionTrace& tr = *BwdTrace();
  const engine::Counters now = b >= 0 ? tr.CountersAt(static_cast<size_t>(b)) : engine::Counters{};
  q["bwd_events"] = FormatInt(static_cast<std::int64_t>(tr.size()));
  q["bwd_event"] = b >= 0 ? EventLabel(FwdCount() + b) : "\u2014";
  q["bwd_hbm_elements_now"] = FormatInt(now.TotalHbmElements());
  for (int t = 0; t < engine::kTensorCount; ++t) {
    const std::string name = engine::ToString(static_cast<Tensor>(t));
    q["bwd_reads_now:" + name] = FormatInt(now.hbm_read_elements[t]);
    q["bwd_writes_now:" + name] = FormatInt(now.hbm_write_elements[t]);
  }
  std::int64_t done = 0;
  for (int x = 0; x <= b; ++x) done += tr[static_cast<size_t>(x)].kind == EventKind::kComputeGrads;
  q["bwd_tiles_done"] = FormatInt(done);
  q["bwd_tiles_total"] = FormatInt(runs_.bwd_recompute->counters.tiles_computed);
  if (runs_.bwd_recompute_formula) q["bwd_recompute_formula_hbm_elements"] = FormatInt(runs_.bwd_recompute_formula->counters.TotalHbmElements());
  if (runs_.bwd_reference_formula) q["bwd_reference_formula_hbm_elements"] = FormatInt(runs_.bwd_reference_formula->counters.TotalHbmElements());
  const auto put = [&](const char* name, const engine::AttentionMatrix& m) {
    for (Eigen::Index r = 0; r < std::min<Eigen::Index>(m.rows(), 4); ++r)
      for (Eigen::Index c = 0; c < std::min<Eigen::Index>(m.cols(), 4); ++c)
        q[std::string(name) + "[" + std::to_string(r + 1) + "," + std::to_string(c + 1) + "]"] = FormatDouble(m(r, c));
  };
  put("dQ", runs_.bwd_recompute->dQ);
  put("dK", runs_.bwd_recompute->dK);
  put("dV", runs_.bwd_recompute->dV);
}

std::vector<PanelSection> AttentionModel::BackwardPanels(int b, const std::string& lang) const {
  const auto T = [&](Str k) { return UiText(k, lang); };
  const engine::AttentionTrace& tr = *BwdTrace();
  b = std::clamp(b, 0, static_cast<int>(tr.size()) - 1);
  const engine::Counters now = tr.CountersAt(static_cast<size_t>(b));
  std::vector<PanelSection> out;
  PanelSection s;
  s.id = "backward_now";
  s.title = T(Str::bwd_panel_now);
  s.rows.push_back({T(Str::event), std::to_string(FwdCount() + b + 1) + "/" + std::to_string(EventCount()) + ": " + EventTitle(FwdCount() + b, lang)});
  // The two totals answer "which moves more data?" (BWD/r1): held back while a question is open.
  s.rows.push_back({T(Str::bwd_recompute_short), FormatInt(now.TotalHbmElements()) + " / " +
                                                  FormatInt(runs_.bwd_recompute->counters.TotalHbmElements()) + " " + T(Str::elements),
                    false, -1, true});
  if (runs_.bwd_reference)
    s.rows.push_back({T(Str::bwd_materialise_short), FormatInt(runs_.bwd_reference->counters.TotalHbmElements()) + " " + T(Str::elements),
                      false, -1, true});
  s.rows.push_back({T(Str::bwd_p_reads), FormatInt(now.Reads(Tensor::kP)) + " / " +
                                          (runs_.bwd_reference ? FormatInt(runs_.bwd_reference->counters.Reads(Tensor::kP)) : "\u2014")});
  // The numbers BWD/r2 quotes (moved so far, P read so far): a projector draws them at the key size.
  s.rows[1].key = true;
  s.rows.back().key = true;
  std::int64_t done = 0;
  for (int x = 0; x <= b; ++x) done += tr[static_cast<size_t>(x)].kind == EventKind::kComputeGrads;
  s.rows.push_back({T(Str::bwd_grid), FormatInt(done) + " / " + FormatInt(runs_.bwd_recompute->counters.tiles_computed)});
  out.push_back(s);

  PanelSection v;
  v.id = "gradients";
  v.title = T(Str::bwd_panel_values);
  v.columns = {T(Str::bwd_rows), "dQ", "dK", "dV"};
  const auto row = [](const engine::AttentionMatrix& m, Eigen::Index r) -> std::string {
    if (r >= m.rows() || m.cols() == 0) return "\u2014";
    Eigen::VectorXd x = m.row(r).transpose();
    const bool more = x.size() > 3;
    if (more) x.conservativeResize(3);
    return FormatVector(x) + (more ? "\u2026" : "");
  };
  const auto& g = *runs_.bwd_recompute;
  const Eigen::Index rows = std::min<Eigen::Index>(std::max(g.dQ.rows(), g.dK.rows()), 4);
  for (Eigen::Index r = 0; r < rows; ++r)
    v.rows.push_back({std::to_string(r + 1), row(g.dQ, r) + "\t" + row(g.dK, r) + "\t" + row(g.dV, r)});
  out.push_back(v);
  return out;
}

}  // namespace bw::view
