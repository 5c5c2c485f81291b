// ScenarioModel for full attention; see attention_model.h.
// [SECTION] Construction and positions
// [SECTION] Tile states at an event
// [SECTION] Scene
// [SECTION] Panels and placeholders
#include "view/attention_model.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "view/format.h"

namespace bw::view {

using engine::EventKind;
using engine::Tensor;

namespace {


std::string Bytes(std::int64_t b) {
  char buf[64];
  if (b >= (1 << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(b) / (1 << 30));
  else if (b >= (1 << 20)) std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(b) / (1 << 20));
  else if (b >= (1 << 10)) std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(b) / (1 << 10));
  else std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(b));
  return buf;
}

bool RowSide(Tensor t) {
  return t == Tensor::kQ || t == Tensor::kO || t == Tensor::kL || t == Tensor::km || t == Tensor::kl ||
         t == Tensor::kD || t == Tensor::kdO || t == Tensor::kdQ;
}

std::optional<Tensor> TensorByName(const std::string& name) {
  for (int t = 0; t < engine::kTensorCount; ++t)
    if (name == engine::ToString(static_cast<Tensor>(t))) return static_cast<Tensor>(t);
  return std::nullopt;
}

}  // namespace

// [SECTION] Construction and positions ------------------------------------------------------------

AttentionModel::AttentionModel(data::AttentionScenario sc) : scenario_(std::move(sc)) {
  engine::RunOptions opt = scenario_.options;
  opt.record_trace = true;
  switch (scenario_.order) {
    case engine::Algorithm::kFlash1: run_ = engine::RunFlash1(scenario_.problem, opt); break;
    case engine::Algorithm::kFlash2: run_ = engine::RunFlash2(scenario_.problem, opt); break;
    default: run_ = engine::RunReference(scenario_.problem, opt); break;
  }
  engine::RunOptions plain = scenario_.options;
  plain.record_trace = false;
  plain.merge = engine::MergeVariant::kCorrect;
  engine::RunOptions ref_opt = plain;
  ref_opt.keep_probabilities = scenario_.problem.n_q() * scenario_.problem.n_k() <= kMaxHeatmapElements;
  reference_ = engine::RunReference(scenario_.problem, ref_opt);
  if (plain.tiles.B_r > 0 && plain.tiles.B_c > 0) {
    flash2_ = engine::RunFlash2(scenario_.problem, plain);
    flash1_ = engine::RunFlash1(scenario_.problem, plain);
    t_r_ = std::max<std::int64_t>(1, engine::CeilDiv(scenario_.problem.n_q(), plain.tiles.B_r));
    t_c_ = std::max<std::int64_t>(1, engine::CeilDiv(scenario_.problem.n_k(), plain.tiles.B_c));
    if (scenario_.backward) {
      bwd_recompute_ = engine::RunBackwardRecompute(scenario_.problem, *flash2_, scenario_.dO, plain);
      bwd_reference_ = engine::RunBackwardReference(scenario_.problem, scenario_.dO, plain);
    }
  }
  if (flash2_ && scenario_.problem.n_q() * scenario_.problem.n_k() <= kMaxWrongMergeElements)
    for (engine::MergeVariant v : engine::kAllMergeVariants) {
      if (v == engine::MergeVariant::kCorrect) continue;
      engine::RunOptions wo = plain;
      wo.merge = v;
      wrong_.emplace_back(v, engine::RunFlash2(scenario_.problem, wo).O);
    }
  formula_ = engine::FormulaFor(run_.algorithm, engine::AttentionShape::Of(scenario_.problem), run_.tiles,
                                scenario_.problem.mask, run_.precision);
  const double tol = run_.precision == engine::Precision::kFloat ? 1e-5 : 1e-12;
  check_ = engine::Compare(run_.O, reference_.O, tol, tol);
}

int AttentionModel::EventCount() const { return std::max<int>(1, static_cast<int>(run_.trace.size())); }

std::string AttentionModel::EventLabel(int e) const {
  if (run_.trace.empty()) return "(no events)";
  const auto& ev = run_.trace[static_cast<size_t>(e)];
  const auto blk = [](const char* name, std::int32_t idx) {
    return std::string(name) + (idx >= 0 ? "_" + std::to_string(idx + 1) : "");
  };
  switch (ev.kind) {
    case EventKind::kRead:
    case EventKind::kWrite: {
      const Tensor t = ev.tensor;
      const std::int32_t idx = RowSide(t) ? ev.i : (t == Tensor::kS || t == Tensor::kP ? -1 : ev.j);
      return std::string(ev.kind == EventKind::kRead ? "read " : "write ") + blk(engine::ToString(t), idx);
    }
    case EventKind::kComputeS: return "S_" + std::to_string(ev.i + 1) + "," + std::to_string(ev.j + 1) + " = Q K^T";
    case EventKind::kSkipTile: return "skip (" + std::to_string(ev.i + 1) + "," + std::to_string(ev.j + 1) + ")";
    case EventKind::kUpdateMLU: return "merge (" + std::to_string(ev.i + 1) + "," + std::to_string(ev.j + 1) + ")";
    case EventKind::kFinalise: return "O_" + std::to_string(ev.i + 1) + " = u/l";
    case EventKind::kInitialise: return std::string("init ") + engine::ToString(ev.tensor);
    case EventKind::kComputeFull: return std::string("compute ") + engine::ToString(ev.tensor);
    case EventKind::kComputeGrads: return "grads (" + std::to_string(ev.i + 1) + "," + std::to_string(ev.j + 1) + ")";
  }
  return "?";
}

int AttentionModel::FindPosition(const std::string& pos) const {
  const int n = static_cast<int>(run_.trace.size());
  if (pos == "start") return 0;
  if (pos == "end") return EventCount() - 1;
  const auto starts = [&](const char* p) { return pos.rfind(p, 0) == 0; };
  if (starts("event:")) {
    try {
      const int e = std::stoi(pos.substr(6));
      return e >= 0 && e < EventCount() ? e : -1;
    } catch (...) {
      return -1;
    }
  }
  if (starts("tile:")) {
    int I = 0, J = 0;
    if (std::sscanf(pos.c_str() + 5, "%d,%d", &I, &J) != 2) return -1;
    for (int e = 0; e < n; ++e) {
      const auto& ev = run_.trace[static_cast<size_t>(e)];
      if ((ev.kind == EventKind::kUpdateMLU || ev.kind == EventKind::kSkipTile) && ev.i == I - 1 && ev.j == J - 1) return e;
    }
    return -1;
  }
  for (const auto& [prefix, kind] : {std::pair{"read:", EventKind::kRead}, std::pair{"write:", EventKind::kWrite},
                                     std::pair{"compute:", EventKind::kComputeFull}}) {
    if (!starts(prefix)) continue;
    std::string rest = pos.substr(std::string(prefix).size());
    int block = -1;
    if (const auto colon = rest.find(':'); colon != std::string::npos) {
      try {
        block = std::stoi(rest.substr(colon + 1)) - 1;
      } catch (...) {
        return -1;
      }
      rest = rest.substr(0, colon);
    }
    const auto t = TensorByName(rest);
    if (!t) return -1;
    for (int e = 0; e < n; ++e) {
      const auto& ev = run_.trace[static_cast<size_t>(e)];
      if (ev.kind != kind || ev.tensor != *t) continue;
      const std::int32_t idx = RowSide(*t) ? ev.i : ev.j;
      if (block < 0 || idx == block) return e;
    }
    return -1;
  }
  return -1;
}

std::string AttentionModel::PositionHelp() const {
  return "start, end, event:N (0…" + std::to_string(EventCount() - 1) + "), tile:I,J (I ≤ " + std::to_string(t_r_) +
         ", J ≤ " + std::to_string(t_c_) + "), read:T[:I], write:T[:I], compute:T";
}

// [SECTION] Tile states at an event ----------------------------------------------------------------

namespace {

struct StatesAt {
  std::vector<TileState> grid;               // T_r × T_c, row-major
  std::vector<TileState> q, k, v, o, l, ml;  // per block
  TileState s_full = TileState::kPending, p_full = TileState::kPending;
};

}  // namespace

static StatesAt ComputeStates(const engine::AttentionTrace& tr, int e, std::int64_t t_r, std::int64_t t_c) {
  StatesAt st;
  st.grid.assign(static_cast<size_t>(t_r * t_c), TileState::kPending);
  st.q.assign(t_r, TileState::kPending);
  st.o.assign(t_r, TileState::kNotWritten);
  st.l.assign(t_r, TileState::kNotWritten);
  st.ml.assign(t_r, TileState::kNotWritten);
  st.k.assign(t_c, TileState::kPending);
  st.v.assign(t_c, TileState::kPending);
  const auto set_block = [](std::vector<TileState>& v, std::int32_t idx, TileState s) {
    if (idx >= 0 && idx < static_cast<std::int32_t>(v.size())) v[idx] = s;
    else if (idx < 0) std::fill(v.begin(), v.end(), s);
  };
  for (int x = 0; x <= e && x < static_cast<int>(tr.size()); ++x) {
    const auto& ev = tr[static_cast<size_t>(x)];
    const bool now = x == e;
    switch (ev.kind) {
      case EventKind::kRead:
        if (ev.tensor == Tensor::kQ) set_block(st.q, ev.i, now ? TileState::kInSram : TileState::kProcessed);
        if (ev.tensor == Tensor::kK) set_block(st.k, ev.j, now ? TileState::kInSram : TileState::kProcessed);
        if (ev.tensor == Tensor::kV) set_block(st.v, ev.j, now ? TileState::kInSram : TileState::kProcessed);
        if (ev.tensor == Tensor::kS) st.s_full = now ? TileState::kInSram : TileState::kWritten;
        if (ev.tensor == Tensor::kP) st.p_full = now ? TileState::kInSram : TileState::kWritten;
        break;
      case EventKind::kWrite:
        if (ev.tensor == Tensor::kO) set_block(st.o, ev.i, TileState::kWritten);
        if (ev.tensor == Tensor::kL) set_block(st.l, ev.i, TileState::kWritten);
        if (ev.tensor == Tensor::km || ev.tensor == Tensor::kl) set_block(st.ml, ev.i, TileState::kWritten);
        if (ev.tensor == Tensor::kS) st.s_full = TileState::kWritten;
        if (ev.tensor == Tensor::kP) st.p_full = TileState::kWritten;
        break;
      case EventKind::kComputeS:
      case EventKind::kUpdateMLU:
      case EventKind::kComputeGrads:
        if (ev.i >= 0 && ev.j >= 0 && ev.i < t_r && ev.j < t_c)
          st.grid[static_cast<size_t>(ev.i * t_c + ev.j)] = now ? TileState::kInSram : TileState::kProcessed;
        break;
      case EventKind::kSkipTile:
        if (ev.i >= 0 && ev.j >= 0 && ev.i < t_r && ev.j < t_c) st.grid[static_cast<size_t>(ev.i * t_c + ev.j)] = TileState::kMasked;
        break;
      default: break;
    }
  }
  // K/V tiles loaded before the current Q block's sweep count as processed only for this sweep:
  // in FA-2 each Q block re-reads every K/V block, so show K/V as pending again after O_i is written.
  return st;
}

// [SECTION] Scene ------------------------------------------------------------------------------------

Scene AttentionModel::BuildScene(int e, const std::string& lang, const Palette& pal) const {
  constexpr float kW = 56, kH = 22;
  constexpr float kHbmW = 25.5f, kMidX = 26.5f, kMidW = 12.5f, kSramX = 40, kSramW = 16;
  constexpr float kTop = 3.4f, kBottom = 19.6f, kColW = 3.4f, kColGap = 1.2f, kLane = 2.5f, kLaneLow = 20.6f;
  e = std::clamp(e, 0, EventCount() - 1);
  const bool has_event = !run_.trace.empty();
  const engine::AttentionEvent ev = has_event ? run_.trace[static_cast<size_t>(e)] : engine::AttentionEvent{};
  const bool tiled = Tiled();
  const std::int64_t t_r = tiled ? t_r_ : 1, t_c = tiled ? t_c_ : 1;
  const StatesAt st = ComputeStates(run_.trace, has_event ? e : -1, t_r, t_c);

  Scene sc;
  sc.width = kW;
  sc.height = kH;
  sc.background = pal.background;
  const auto panel = [&](std::string id, float x, float w, Color fill) {
    SceneRect r;
    r.id = std::move(id);
    r.x = x, r.y = 0, r.w = w, r.h = kH;
    r.fill = fill;
    r.border = pal.border;
    r.border_em = pal.line_em;
    sc.rects.push_back(r);
  };
  panel("hbm", 0, tiled ? kHbmW : kHbmW + kMidW + 1, pal.panel_hbm);
  panel("sram", kSramX, kSramW, pal.panel_sram);
  sc.texts.push_back({"hbm.title", 0.6f, 0.5f, 1.15f, pal.text, UiText("hbm_title", lang)});
  sc.texts.push_back({"sram.title", kSramX + 0.6f, 0.5f, 1.15f, pal.text, UiText("sram_title", lang)});

  const auto tile = [&](std::string id, float x, float y, float w, float h, TileState s, std::string label) {
    SceneRect r;
    r.id = std::move(id);
    r.x = x, r.y = y, r.w = w, r.h = h;
    r.state = s;
    switch (s) {
      case TileState::kPending: r.fill = pal.pending; break;
      case TileState::kInSram: r.fill = pal.in_sram; break;
      case TileState::kProcessed: r.fill = pal.processed; break;
      case TileState::kMasked: r.fill = pal.masked; break;
      case TileState::kWritten: r.fill = pal.written; break;
      default: r.fill = pal.not_written; break;
    }
    r.border = pal.border;
    r.border_em = h < 0.8f ? 0.03f : pal.line_em * 0.6f;
    r.hatched = s == TileState::kMasked && h >= 0.9f;  // tiny cells: the flat masked colour reads better
    r.dashed = s == TileState::kNotWritten && h >= 0.8f;
    if (h >= 1.1f && w >= 1.6f) r.label = std::move(label);
    return r;
  };

  // HBM columns: Q (T_r blocks), K, V (T_c), O and L (T_r); FA-1 keeps m, l in HBM instead of L.
  struct Column {
    const char* name;
    std::vector<TileState> states;
    bool row_side;
  };
  std::vector<Column> cols = {{"Q", st.q, true}, {"K", st.k, false}, {"V", st.v, false}, {"O", st.o, true}};
  if (run_.algorithm == engine::Algorithm::kFlash1) cols.push_back({"m,l", st.ml, true});
  else if (tiled) cols.push_back({"L", st.l, true});
  std::vector<float> col_x;
  for (size_t c = 0; c < cols.size(); ++c) {
    const float x = 0.8f + static_cast<float>(c) * (kColW + kColGap);
    col_x.push_back(x);
    sc.texts.push_back({std::string("hbm.col.") + cols[c].name, x + 0.2f, kTop - 1.25f + 0.0f, 1.0f, pal.text, cols[c].name});
    const auto& s = cols[c].states;
    const float h = (kBottom - kTop) / static_cast<float>(s.size());
    for (size_t b = 0; b < s.size(); ++b) {
      std::string id = std::string("hbm.") + cols[c].name + "." + std::to_string(b + 1);
      std::string label = std::string(cols[c].name) + (s.size() > 1 ? "_" + std::to_string(b + 1) : "");
      SceneRect r = tile(id, x, kTop + h * static_cast<float>(b), kColW, std::max(0.12f, h - (h > 0.5f ? 0.12f : 0.0f)),
                         s[b], label);
      if (r.h >= 1.8f) r.sublabel = "";
      sc.rects.push_back(std::move(r));
    }
  }

  // Middle: the T_r × T_c tile grid (tiled), or the full S and P matrices in HBM (reference).
  if (tiled) {
    sc.texts.push_back({"grid.title", kMidX, 0.5f, 1.0f, pal.text,
                        UiText("tile_grid", lang) + " " + std::to_string(t_r) + " \u00d7 " + std::to_string(t_c)});
    sc.texts.push_back({"grid.note", kMidX, 1.7f, 0.8f, pal.text_muted, UiText("grid_note", lang)});
    const float size = std::min(kMidW / static_cast<float>(t_c), (kBottom - kTop) / static_cast<float>(t_r));
    for (std::int64_t i = 0; i < t_r; ++i)
      for (std::int64_t j = 0; j < t_c; ++j) {
        const float gap = size > 0.6f ? 0.08f : 0.0f;
        const std::string ij = std::to_string(i + 1) + "," + std::to_string(j + 1);
        SceneRect r = tile("grid." + ij, kMidX + size * static_cast<float>(j), kTop + size * static_cast<float>(i),
                           size - gap, size - gap, st.grid[static_cast<size_t>(i * t_c + j)], "(" + ij + ")");
        r.dashed = false;
        // Colour is not the only signal: big enough cells also say their state in words.
        if (size >= 2.2f) r.sublabel = ShortStateWord(r.state, lang);
        sc.rects.push_back(std::move(r));
      }
  } else {
    const float x = col_x.back() + kColW + 1.6f, w = kHbmW + kMidW + 1 - x - 0.8f, h = (kBottom - kTop) / 2 - 0.5f;
    SceneRect s = tile("hbm.S", x, kTop, w, h, st.s_full, "S = scale\u00b7QK^T  (" + std::to_string(scenario_.problem.n_q()) +
                                                              " \u00d7 " + std::to_string(scenario_.problem.n_k()) + ")");
    SceneRect p = tile("hbm.P", x, kTop + h + 1, w, h, st.p_full, "P = softmax(S)");
    for (SceneRect* r : {&s, &p}) {
      if (r->state == TileState::kPending) {
        r->state = TileState::kNotWritten;
        r->fill = pal.not_written;
        r->dashed = true;
      }
    }
    sc.rects.push_back(s);
    sc.rects.push_back(p);
  }

  // SRAM: Q_i, K_j, V_j, the S_ij / P̃_ij tile, and the accumulator of Q_i's rows.
  const std::int32_t ci = ev.i, cj = ev.j;
  const auto slot = [&](const std::string& id, float x, const std::string& label, bool filled) {
    SceneRect r = tile(id, x, kTop, 3.4f, 3.6f, filled ? TileState::kInSram : TileState::kNone, label);
    if (!filled) {
      r.fill = pal.panel_sram;
      r.dashed = true;
    }
    sc.rects.push_back(std::move(r));
  };
  const auto idx = [](const char* n, std::int32_t k) { return std::string(n) + (k >= 0 ? "_" + std::to_string(k + 1) : ""); };
  const bool in_block = tiled && ci >= 0;
  slot("sram.Q", kSramX + 0.6f, idx("Q", ci), in_block || !tiled);
  // A skipped tile loads nothing: its K_j and V_j never reach SRAM.
  const bool kv_loaded = tiled ? (cj >= 0 && ev.kind != EventKind::kSkipTile) : true;
  slot("sram.K", kSramX + 4.4f, idx("K", cj), kv_loaded);
  slot("sram.V", kSramX + 8.2f, idx("V", cj), kv_loaded);
  slot("sram.S", kSramX + 12.0f, tiled ? "S_ij" : "S/P", tiled ? (cj >= 0 && ev.kind != EventKind::kSkipTile) : true);
  SceneRect acc;
  acc.id = "sram.acc";
  acc.x = kSramX + 0.6f, acc.y = 8.6f, acc.w = kSramW - 1.2f, acc.h = kBottom - 8.6f;
  acc.fill = {255, 255, 255};
  acc.border = pal.border;
  acc.border_em = pal.line_em;
  acc.label = tiled ? UiText("acc_rows", lang) + " " + idx("Q", ci) : UiText("no_acc_reference", lang);
  sc.rects.push_back(acc);
  if (tiled && has_event) {
    const engine::BlockState bs = run_.trace.StateAt(scenario_.problem, static_cast<size_t>(e));
    if (bs.valid) {
      const Eigen::Index rows = std::min<Eigen::Index>(bs.m.size(), 6);
      for (Eigen::Index r = 0; r < rows; ++r) {
        std::string line = "r" + std::to_string(bs.row_begin + r + 1) + ":  m " + FormatDouble(bs.m[r]) + "   l " +
                           FormatDouble(bs.l[r]) + "   \u03b1 " + FormatDouble(bs.alpha[r]);
        sc.texts.push_back({"acc.row." + std::to_string(r), acc.x + 0.5f, acc.y + 1.6f + 1.45f * static_cast<float>(r), 0.9f,
                            pal.text, line});
      }
      if (bs.m.size() > rows)
        sc.texts.push_back({"acc.more", acc.x + 0.5f, acc.y + 1.6f + 1.45f * static_cast<float>(rows), 0.8f, pal.text_muted,
                            "\u2026 " + std::to_string(bs.m.size() - rows) + " " + UiText("more_rows", lang)});
    }
  }

  // The transfer or computation of this event.
  if (has_event) {
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
        case Tensor::kV: return kSramX + 9.9f;
        case Tensor::kS:
        case Tensor::kP: return kSramX + 13.7f;
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
      } else {
        const SceneRect* box = sc.FindRect(t == Tensor::kS ? "hbm.S" : "hbm.P");
        fx = box ? box->x + box->w : kHbmW;
        fy = box ? box->y + box->h / 2 : 10;
      }
      const float gx = fx + 0.55f;
      a.kind = read ? ArrowKind::kRead : ArrowKind::kWrite;
      a.color = read ? pal.read_arrow : pal.write_arrow;
      a.label = EventLabel(e) + "  (" + FormatInt(ev.elements) + " " + UiText("elements", lang) + ")";
      if (read) {
        const float tx = slot_x(t);
        a.points = {{fx, fy}, {gx, fy}, {gx, kLane}, {tx, kLane}, {tx, kTop}};
        a.label_at = {std::min(gx, tx) + 0.5f, kLane - 1.2f};
      } else {
        const float sx = acc.x + 1.5f;
        a.points = {{sx, acc.y + acc.h}, {sx, kLaneLow}, {gx, kLaneLow}, {gx, fy}, {fx, fy}};
        a.label_at = {gx + 0.6f, kLaneLow - 1.2f};
      }
      a.id = std::string(read ? "read." : "write.") + engine::ToString(t);
    } else if (ev.kind == EventKind::kUpdateMLU || ev.kind == EventKind::kComputeGrads) {
      a.kind = ArrowKind::kMerge;
      a.color = pal.merge_arrow;
      a.id = "merge";
      a.points = {{kSramX + 13.7f, kTop + 3.6f}, {kSramX + 13.7f, acc.y}};
      a.label = UiText("merge", lang);
      a.label_at = {kSramX + 0.6f, kTop + 3.75f};
    } else if (ev.kind == EventKind::kComputeS) {
      a.kind = ArrowKind::kMerge;
      a.color = pal.merge_arrow;
      a.id = "compute.S";
      a.points = {{kSramX + 11.6f, kTop + 1.8f}, {kSramX + 12.0f, kTop + 1.8f}};
      a.label = "S_ij = scale\u00b7Q_i K_j^T";
      a.label_at = {kSramX + 0.6f, kTop + 3.75f};
    }
    if (!a.points.empty()) sc.arrows.push_back(std::move(a));
    sc.texts.push_back({"event", 0.8f, kH - 1.3f, 0.95f, pal.text,
                        UiText("event", lang) + " " + std::to_string(e + 1) + "/" + std::to_string(EventCount()) + ": " +
                            EventLabel(e)});
  }
  return sc;
}

// [SECTION] Panels and placeholders ---------------------------------------------------------------------

Quantities AttentionModel::QuantitiesAt(int e) const {
  Quantities q;
  const auto& p = scenario_.problem;
  q["N_q"] = FormatInt(p.n_q());
  q["N_k"] = FormatInt(p.n_k());
  q["d"] = FormatInt(p.d());
  q["d_v"] = FormatInt(p.d_v());
  q["scale"] = FormatDouble(p.EffectiveScale());
  q["B_r"] = FormatInt(run_.tiles.B_r);
  q["B_c"] = FormatInt(run_.tiles.B_c);
  q["T_r"] = FormatInt(t_r_);
  q["T_c"] = FormatInt(t_c_);
  q["order"] = engine::ToString(run_.algorithm);
  q["mask"] = engine::ToString(p.mask.kind);
  q["event"] = EventLabel(e);
  const engine::Counters c = run_.trace.empty() ? run_.counters : run_.trace.CountersAt(static_cast<size_t>(e));
  const engine::Counters& fin = run_.counters;
  for (int t = 0; t < engine::kTensorCount; ++t) {
    const std::string name = engine::ToString(static_cast<Tensor>(t));
    q["reads:" + name] = FormatInt(c.hbm_read_elements[t]);
    q["writes:" + name] = FormatInt(c.hbm_write_elements[t]);
    q["total_reads:" + name] = FormatInt(fin.hbm_read_elements[t]);
    q["total_writes:" + name] = FormatInt(fin.hbm_write_elements[t]);
  }
  q["hbm_elements"] = FormatInt(c.TotalHbmElements());
  q["hbm_bytes"] = Bytes(c.TotalHbmBytes());
  q["total_hbm_elements"] = FormatInt(fin.TotalHbmElements());
  q["reference_hbm_elements"] = FormatInt(reference_.counters.TotalHbmElements());
  if (flash2_) q["flash2_hbm_elements"] = FormatInt(flash2_->counters.TotalHbmElements());
  if (flash1_) q["flash1_hbm_elements"] = FormatInt(flash1_->counters.TotalHbmElements());
  if (flash2_ && flash2_->counters.TotalHbmElements() > 0)
    q["reference_over_flash2"] = FormatDouble(static_cast<double>(reference_.counters.TotalHbmElements()) /
                                              static_cast<double>(flash2_->counters.TotalHbmElements()));
  if (scenario_.derivation) q["M"] = FormatInt(scenario_.derivation->M);
  q["sram_peak_bytes"] = Bytes(fin.sram_peak_bytes);
  q["scratch_bytes"] = Bytes(fin.hbm_scratch_bytes);
  q["reference_scratch_bytes"] = Bytes(reference_.counters.hbm_scratch_bytes);
  q["flops"] = FormatInt(c.matmul_flops);
  q["exps"] = FormatInt(c.exp_count);
  q["tiles_computed"] = FormatInt(c.tiles_computed);
  q["tiles_skipped"] = FormatInt(c.tiles_skipped);
  q["total_tiles_computed"] = FormatInt(fin.tiles_computed);
  q["total_tiles_skipped"] = FormatInt(fin.tiles_skipped);
  q["max_abs_error"] = FormatDouble(check_.max_abs_error);
  std::int64_t flagged = 0;
  for (auto f : run_.row_fully_masked) flagged += f;
  q["flagged_rows"] = FormatInt(flagged);
  if (formula_) q["formula_hbm_elements"] = FormatInt(formula_->counters.TotalHbmElements());
  for (Eigen::Index r = 0; r < std::min<Eigen::Index>(run_.O.rows(), 8); ++r)
    for (Eigen::Index k = 0; k < std::min<Eigen::Index>(run_.O.cols(), 8); ++k)
      q["O[" + std::to_string(r + 1) + "," + std::to_string(k + 1) + "]"] = FormatDouble(run_.O(r, k));
  // Backward (scenarios with "backward": true): recomputation vs the materialising backward.
  if (bwd_recompute_ && bwd_reference_) {
    for (const auto& [prefix, b] : {std::pair<const char*, const engine::BackwardResult*>{"bwd_recompute", &*bwd_recompute_},
                                    std::pair<const char*, const engine::BackwardResult*>{"bwd_reference", &*bwd_reference_}}) {
      const std::string pre = prefix;
      q[pre + "_hbm_elements"] = FormatInt(b->counters.TotalHbmElements());
      q[pre + "_scratch_bytes"] = Bytes(b->counters.hbm_scratch_bytes);
      q[pre + "_flops"] = FormatInt(b->counters.matmul_flops);
      q[pre + "_exps"] = FormatInt(b->counters.exp_count);
      for (int t = 0; t < engine::kTensorCount; ++t) {
        const std::string name = engine::ToString(static_cast<Tensor>(t));
        q[pre + "_reads:" + name] = FormatInt(b->counters.hbm_read_elements[t]);
        q[pre + "_writes:" + name] = FormatInt(b->counters.hbm_write_elements[t]);
      }
    }
    // maxCoeff() of an empty matrix is undefined (it crashed on "Q": [] with "backward": true).
    const auto max_abs_diff = [](const engine::AttentionMatrix& a, const engine::AttentionMatrix& b) {
      return a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
    };
    const double dq = max_abs_diff(bwd_recompute_->dQ, bwd_reference_->dQ);
    const double dk = max_abs_diff(bwd_recompute_->dK, bwd_reference_->dK);
    const double dv = max_abs_diff(bwd_recompute_->dV, bwd_reference_->dV);
    q["bwd_max_abs_diff"] = FormatDouble(std::max({dq, dk, dv}));
    q["forward_flops"] = FormatInt(run_.counters.matmul_flops);
  }
  return q;
}

std::vector<PanelSection> AttentionModel::Panels(int e, const std::string& lang) const {
  const auto T = [&](const char* k) { return UiText(k, lang); };
  const auto q = QuantitiesAt(e);
  std::vector<PanelSection> out;

  PanelSection run;
  run.id = "run";
  run.title = T("panel_run");
  const auto& p = scenario_.problem;
  run.rows.push_back({T("shape"), "N_q " + q.at("N_q") + ", N_k " + q.at("N_k") + ", d " + q.at("d") + ", d_v " + q.at("d_v")});
  run.rows.push_back({T("order"), q.at("order") + (Tiled() ? "  B_r " + q.at("B_r") + ", B_c " + q.at("B_c") + "  (T_r " +
                                                                 q.at("T_r") + ", T_c " + q.at("T_c") + ")"
                                                           : "")});
  std::string mask = q.at("mask");
  if (p.mask.kind == engine::MaskKind::kCausal) mask += std::string(" (") + engine::ToString(p.mask.alignment) + ")";
  run.rows.push_back({T("mask"), mask});
  if (scenario_.derivation)
    for (const auto& line : scenario_.derivation->steps) run.rows.push_back({T("derivation"), line});
  run.rows.push_back({T("event"), std::to_string(e + 1) + "/" + std::to_string(EventCount()) + ": " + q.at("event")});
  run.rows.push_back({T("check_vs_reference"), check_.ok() ? T("match") + " (max |\u0394| " + q.at("max_abs_error") + ")"
                                                           : check_.Summary(),
                      !check_.ok()});
  if (q.at("flagged_rows") != "0") run.rows.push_back({T("flagged_rows"), q.at("flagged_rows") + " " + T("flagged_note"), true});
  out.push_back(run);

  if (Tiled() && !run_.trace.empty()) {
    const engine::BlockState bs = run_.trace.StateAt(p, static_cast<size_t>(e));
    if (bs.valid) {
      PanelSection acc;
  acc.id = "accumulator";
      acc.title = T("acc_rows") + " Q_" + std::to_string(bs.i + 1);
      acc.columns = {"row", "m (" + T("before") + ")", "m", "l", "e^(m\u2212m')", "O = u/l"};
      for (Eigen::Index r = 0; r < std::min<Eigen::Index>(bs.m.size(), 8); ++r) {
        // d_v = 0 (e.g. "K": [], "V": []): no row to take (Eigen's row() of a 0-column matrix is
        // pointer arithmetic on null, found by the fuzzer under UBSan).
        Eigen::VectorXd o = bs.O.cols() > 0 ? Eigen::VectorXd(bs.O.row(r).transpose()) : Eigen::VectorXd();
        if (o.size() > 3) o.conservativeResize(3);
        acc.rows.push_back({std::to_string(bs.row_begin + r + 1),
                            FormatDouble(bs.m_prev[r]) + "\t" + FormatDouble(bs.m[r]) + "\t" + FormatDouble(bs.l[r]) + "\t" +
                                FormatDouble(bs.alpha[r]) + "\t" + FormatVector(o) + (bs.O.cols() > 3 ? "\u2026" : "")});
      }
      out.push_back(acc);
    }
  }

  if (!wrong_.empty() && reference_.O.size() > 0) {
    PanelSection wrong;
  wrong.id = "wrong_merges";
    wrong.title = T("wrong_merges");
    wrong.columns = {T("merge_variant"), "O[1,1]", T("max_error")};
    wrong.rows.push_back({"correct", FormatDouble(reference_.O(0, 0)) + "\t0"});
    for (const auto& [v, O] : wrong_) {
      const auto rep = engine::Compare(O, reference_.O);
      wrong.rows.push_back({engine::ToString(v), FormatDouble(O(0, 0)) + "\t" + FormatDouble(rep.max_abs_error), true});
    }
    out.push_back(wrong);
  }

  PanelSection counters;
  counters.id = "counters";
  counters.title = T("panel_counters");
  counters.columns = {T("tensor"), T("reads_now"), T("writes_now"), T("formula_total")};
  const engine::Counters c = run_.trace.empty() ? run_.counters : run_.trace.CountersAt(static_cast<size_t>(e));
  for (int t = 0; t < engine::kTensorCount; ++t) {
    const auto& fin = run_.counters;
    if (fin.hbm_read_elements[t] == 0 && fin.hbm_write_elements[t] == 0) continue;
    std::string formula = "\u2014";
    if (formula_) {
      const std::string rf = formula_->read_formula[t], wf = formula_->write_formula[t];
      formula = rf + (rf.empty() || wf.empty() ? "" : "; ") + wf;
    }
    counters.rows.push_back({engine::ToString(static_cast<Tensor>(t)),
                             FormatInt(c.hbm_read_elements[t]) + "\t" + FormatInt(c.hbm_write_elements[t]) + "\t" + formula});
  }
  out.push_back(counters);

  PanelSection totals;
  totals.id = "compare";
  totals.title = T("panel_compare");
  totals.rows.push_back({T("hbm_now"), q.at("hbm_elements") + " " + T("elements") + " (" + q.at("hbm_bytes") + ")"});
  // Bars to the scale of the largest: the materialising path against the two tiled orders.
  const double ref_total = static_cast<double>(reference_.counters.TotalHbmElements());
  double biggest = ref_total;
  if (flash1_) biggest = std::max(biggest, static_cast<double>(flash1_->counters.TotalHbmElements()));
  const auto bar = [&](std::int64_t v) { return biggest > 0 ? static_cast<float>(static_cast<double>(v) / biggest) : 0.0f; };
  totals.rows.push_back({"reference", q.at("reference_hbm_elements") + " " + T("elements") + ", " + T("scratch") + " " +
                                          q.at("reference_scratch_bytes"), false, bar(reference_.counters.TotalHbmElements())});
  if (flash2_)
    totals.rows.push_back({"FlashAttention-2", q.at("flash2_hbm_elements") + " " + T("elements"), false,
                           bar(flash2_->counters.TotalHbmElements())});
  if (flash1_)
    totals.rows.push_back({"FlashAttention-1", q.at("flash1_hbm_elements") + " " + T("elements"), false,
                           bar(flash1_->counters.TotalHbmElements())});
  if (q.count("reference_over_flash2")) totals.rows.push_back({T("ratio"), q.at("reference_over_flash2") + "\u00d7"});
  // SRAM in use now against the peak, and against the capacity M when the tiles came from it.
  if (!run_.trace.empty() && Tiled()) {
    const std::int64_t now_bytes = run_.trace[static_cast<size_t>(std::clamp(e, 0, EventCount() - 1))].sram_bytes;
    const std::int64_t cap = scenario_.derivation ? scenario_.derivation->M * run_.counters.element_bytes
                                                  : run_.counters.sram_peak_bytes;
    totals.rows.push_back({T("sram_now"), FormatInt(now_bytes) + " B / " + (scenario_.derivation ? "M = " : T("peak") + " ") +
                                              FormatInt(cap) + " B", false,
                           cap > 0 ? std::min(1.0f, static_cast<float>(now_bytes) / static_cast<float>(cap)) : -1.0f});
  }
  totals.rows.push_back({T("sram_peak"), q.at("sram_peak_bytes")});
  totals.rows.push_back({"FLOPs " + T("so_far"), q.at("flops")});
  totals.rows.push_back({"exp " + T("so_far"), q.at("exps")});
  totals.rows.push_back({T("tiles") + " " + T("so_far"), q.at("tiles_computed") + " " + T("computed") + ", " + q.at("tiles_skipped") + " " + T("skipped")});
  out.push_back(totals);

  // Backward ("backward": true): the recomputing pass beside the materialising one, so the BWD lesson
  // can point at the numbers its prose quotes.
  if (bwd_recompute_ && bwd_reference_) {
    const bool zh = lang == "zh";
    PanelSection bwd;
  bwd.id = "backward";
    bwd.title = zh ? "反向：重算 (FA-2 Alg. 2) 与物化 (FA Alg. 3)" : "Backward: recompute (FA-2 Alg. 2) vs materialise (FA Alg. 3)";
    bwd.columns = {zh ? "量" : "quantity", zh ? "重算" : "recompute", zh ? "物化" : "materialise"};
    bwd.rows.push_back({zh ? "HBM 读写（元素）" : "HBM traffic (elements)",
                        q.at("bwd_recompute_hbm_elements") + "\t" + q.at("bwd_reference_hbm_elements")});
    bwd.rows.push_back({zh ? "额外 HBM 存储" : "extra HBM storage",
                        q.at("bwd_recompute_scratch_bytes") + "\t" + q.at("bwd_reference_scratch_bytes")});
    bwd.rows.push_back({"FLOPs", q.at("bwd_recompute_flops") + "\t" + q.at("bwd_reference_flops")});
    bwd.rows.push_back({zh ? "读 P（元素）" : "P read (elements)",
                        q.at("bwd_recompute_reads:P") + "\t" + q.at("bwd_reference_reads:P")});
    bwd.rows.push_back({zh ? "梯度最大差" : "max |Δ| of grads", q.at("bwd_max_abs_diff") + "\t"});
    out.insert(out.begin() + 1, bwd);   // right under "this run": the numbers the lesson is about
  }
  return out;
}

std::optional<Heatmap> AttentionModel::HeatmapAt(int e) const {
  if (reference_.P.size() == 0) return std::nullopt;
  Heatmap h;
  h.rows = static_cast<int>(reference_.P.rows());
  h.cols = static_cast<int>(reference_.P.cols());
  h.values = reference_.P.data();
  h.title = "P = softmax(S)";
  if (!run_.trace.empty() && Tiled()) {
    const auto& ev = run_.trace[static_cast<size_t>(std::clamp(e, 0, EventCount() - 1))];
    if (ev.i >= 0) {
      h.r0 = static_cast<int>(ev.i * run_.tiles.B_r);
      h.r1 = static_cast<int>(std::min<std::int64_t>(h.rows, (ev.i + 1) * run_.tiles.B_r));
      h.c0 = 0, h.c1 = h.cols;
      if (ev.j >= 0) {
        h.c0 = static_cast<int>(ev.j * run_.tiles.B_c);
        h.c1 = static_cast<int>(std::min<std::int64_t>(h.cols, (ev.j + 1) * run_.tiles.B_c));
      }
    }
  }
  return h;
}

std::vector<TimelineMark> AttentionModel::BlockMarks() const {
  std::vector<TimelineMark> marks;
  for (int e = 0; e < static_cast<int>(run_.trace.size()); ++e) {
    const auto& ev = run_.trace[static_cast<size_t>(e)];
    const bool tile_start = (ev.kind == EventKind::kRead && (ev.tensor == Tensor::kK || ev.tensor == Tensor::kQ)) ||
                            ev.kind == EventKind::kSkipTile || ev.kind == EventKind::kComputeFull;
    if (tile_start && (marks.empty() || marks.back().event != e - 1 || ev.kind != EventKind::kRead ||
                       ev.tensor != Tensor::kK))
      marks.push_back({e, EventLabel(e)});
  }
  if (marks.empty()) marks.push_back({0, EventLabel(0)});
  return marks;
}

std::vector<std::string> AttentionModel::Texts() const {
  std::vector<std::string> texts = {scenario_.title.zh, scenario_.title.en, scenario_.file, PositionHelp()};
  // Labels and panel strings differ only in digits between events: sample the first events.
  for (int e = 0; e < std::min(EventCount(), 64); ++e) {
    texts.push_back(EventLabel(e));
    for (const auto* lang : {"zh", "en"})
      for (const auto& sec : Panels(e, lang)) {
        texts.push_back(sec.title);
        for (const auto& col : sec.columns) texts.push_back(col);
        for (const auto& r : sec.rows) texts.push_back(r.name + r.value);
      }
  }
  return texts;
}

}  // namespace bw::view
