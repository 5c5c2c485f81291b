// DecodeModel::BuildScene: the split-KV diagram at one event — the cache's tiles and each split's
// partial output in HBM, one thread block per split with its running (m, l, O), the combine below.
#include "view/decode_model.h"
#include "view/format.h"

namespace bw::view {

namespace {

using engine::DecodeEventKind;
using engine::Rational;

// The short forms the diagram prints (no "≈ 22.86" after a fraction).
std::string ShortScalar(double x, const Rational* ex) { return ex ? FormatFraction(*ex) : FormatDouble(x); }
std::string ShortVec(const Eigen::VectorXd& v, const std::vector<Rational>* ex) {
  if (!ex) return FormatVector(v);
  if (ex->size() == 1) return FormatFraction((*ex)[0]);
  std::string s = "(";
  for (size_t i = 0; i < ex->size(); ++i) s += (i ? ", " : "") + FormatFraction((*ex)[i]);
  return s + ")";
}
// A tile as every scene draws it; the givens (q) have no state and stand on the panel's colour.
SceneRect TileBox(std::string id, float x, float y, float w, float h, TileState s, const Palette& p, const std::string& lang,
                  std::string label) {
  SceneRect r = TileRect(std::move(id), x, y, w, h, s, p, std::move(label), StateWord(s, lang));
  if (s == TileState::kNone) r.fill = p.background;
  return r;
}

}  // namespace

Scene DecodeModel::BuildScene(int e, const std::string& lang, const Palette& pal, const SceneFrame&) const {
  const auto T = [&](Str k) { return UiText(k, lang); };
  const int S = run_.SplitCount();
  const auto& ev = run_.events[static_cast<size_t>(e)];
  const bool raw = run_.problem.query.mode == engine::SoftmaxMode::kRaw;
  Scene sc;
  sc.background = pal.background;
  // 44 em across (as the other scenes, about): a laptop's diagram box gives an em of 15 px or more,
  // which the painter needs for a tile's state word at 16 px text.
  constexpr float kW = 44, kLeft = 5.6f, kGap = 0.8f;
  constexpr float kHbmY = 0, kTileY = 2.1f, kTileH = 2.6f, kPartY = 5.0f, kPartH = 2.6f, kHbmH = 7.9f;
  constexpr float kSramY = 8.4f, kSplitY = 10.7f, kSplitH = 4.7f, kSramH = 7.4f;
  constexpr float kCombY = 16.2f, kCombH = 3.9f;
  sc.width = kW;
  sc.height = kCombY + kCombH + 0.4f;

  sc.rects.push_back(PanelRect("hbm", 0, kHbmY, kW, kHbmH, pal.panel_hbm, pal));
  sc.texts.push_back({"hbm.title", 0.5f, kHbmY + 0.2f, 0.9f, pal.text, T(Str::hbm_title_short)});
  sc.rects.push_back(PanelRect("sram", 0, kSramY, kW, kSramH, pal.panel_sram, pal));
  sc.texts.push_back({"sram.title", 0.5f, kSramY + 0.2f, 0.9f, pal.text, T(Str::dec_sram_title)});

  sc.rects.push_back(TileBox("hbm.q", 0.6f, kTileY, kLeft - 1.2f, kTileH, TileState::kNone, pal, lang, "q"));
  const bool written = ev.kind == DecodeEventKind::kWrite;
  const auto& ex_out = run_.exact ? &run_.exact->output : nullptr;
  sc.rects.push_back(TileBox("hbm.o", 0.6f, kPartY, kLeft - 1.2f, kPartH, written ? TileState::kWritten : TileState::kNotWritten, pal,
                         lang, written ? "O\n" + ShortVec(run_.output, ex_out) : "O"));

  // A tile's name; in a paged cache with the physical page it lies in (the block table's entry), so the
  // out-of-order pages show in the picture as well as in the panel.
  // A tile of keys [begin, end) covers pages begin / page_size … (end - 1) / page_size.
  const auto TileTitle = [&](int tile, int begin, int end) {
    if (!run_.problem.paged) return "K/V " + std::to_string(tile);
    const auto& pg = *run_.problem.paged;
    std::string pages;
    for (int p = begin / pg.page_size; p <= (end - 1) / pg.page_size; ++p)
      pages += (pages.empty() ? "" : ",") + std::to_string(pg.block_table[static_cast<size_t>(p)]);
    return UiFormat(Str::dec_kv_page, lang, {std::to_string(tile), pages});
  };
  const float col_w = (kW - kLeft - 0.4f) / static_cast<float>(S);
  const bool partial = PartialWrittenAt(e);
  const int combined = CombinedAt(e);
  for (const auto& s : run_.splits) {
    const std::string j = std::to_string(s.split);
    const float x0 = kLeft + col_w * static_cast<float>(s.split - 1), w = col_w - kGap;
    const int merged = MergedAt(s.split, e), held = InSramAt(s.split, e);
    // The split's tiles in HBM: one box each, or one for them all past 8 (a file's long cache).
    const auto tile_state = [&](int k) {  // k 1-based within the split
      return k == held ? TileState::kInSram : k <= merged ? TileState::kProcessed : TileState::kPending;
    };
    if (s.tiles <= 8) {
      const float tw = (w - 0.3f * static_cast<float>(s.tiles - 1)) / static_cast<float>(s.tiles);
      const auto& q = run_.problem.query;
      const bool exact = q.exact_weights && q.exact_values;
      const std::vector<std::string> shown = exact ? std::vector<std::string>() : FormatDistinct(q.scores);
      int begin = s.begin;
      for (int k = 1; k <= s.tiles; ++k) {
        const int tile = s.first_tile + k;  // 1-based in the cache
        const int end = begin + q.block_sizes[static_cast<size_t>(tile) - 1];
        sc.rects.push_back(TileBox("hbm.kv." + std::to_string(tile), x0 + (tw + 0.3f) * static_cast<float>(k - 1), kTileY, tw, kTileH,
                               tile_state(k), pal, lang, TileTitle(tile, begin, end) + "\n" + KeyInputs(q, exact, shown, begin, end, 4)));
        begin = end;
      }
    } else {
      const TileState st = held ? TileState::kInSram : merged == s.tiles ? TileState::kProcessed : merged ? TileState::kInSram : TileState::kPending;
      sc.rects.push_back(TileBox("hbm.kv." + std::to_string(s.first_tile + 1), x0, kTileY, w, kTileH, st, pal, lang,
                             "K/V " + std::to_string(s.first_tile + 1) + "\u2013" + std::to_string(s.first_tile + s.tiles)));
    }
    // Its partial output and lse in HBM.
    // lse_s joins the label when it is written: before, it would answer "what must travel with O_s?".
    std::string part = partial ? "O_" + j + ", lse_" + j : "O_" + j;
    if (partial) part += "\n" + ShortVec(s.output, s.exact_output ? &*s.exact_output : nullptr) + ", " +
                         Lse(s.lse, s.exact_state ? &*s.exact_state : nullptr);
    TileState part_state = partial ? TileState::kWritten : TileState::kNotWritten;
    if (combined >= s.split) part_state = TileState::kProcessed;
    sc.rects.push_back(TileBox("hbm.partial." + j, x0, kPartY, w, kPartH, part_state, pal, lang, part));
    // Its thread block: the split's running (m, l, u) and its output so far.
    std::string label = UiFormat(Str::dec_split, lang, {j});
    TileState st = held ? TileState::kInSram : merged == 0 ? TileState::kPending : TileState::kProcessed;
    if (partial) st = TileState::kWritten;
    if (merged > 0) {
      const auto& b = s.run.blocks[static_cast<size_t>(merged) - 1];
      const engine::QueryBlockStep::Exact* ex = b.exact ? &*b.exact : nullptr;
      if (!raw) label += "\nm = " + StateM(b.after.m, ex ? &ex->after : nullptr);
      label += "\nl = " + ShortScalar(b.after.l, ex ? &ex->after.l : nullptr);
      label += "\nO = " + ShortVec(b.output_so_far, ex ? &ex->output_so_far : nullptr);
    }
    SceneRect r = TileBox("split." + j, x0, kSplitY, w, kSplitH, st, pal, lang, label);
    if (held == 0 && merged == s.tiles && !partial && ev.kind != DecodeEventKind::kStart) r.sublabel = T(Str::dec_idle);
    sc.rects.push_back(r);
  }

  // The combine: the splits merged into one (m, l, u), then O = u / l.
  std::string comb = UiFormat(Str::dec_combine_box, lang, {FormatInt(combined), FormatInt(S)});
  if (combined > 0) {
    const auto& step = run_.combine[static_cast<size_t>(combined) - 1];
    const engine::CombineStep::Exact* cx = step.exact ? &*step.exact : nullptr;
    std::string line = raw ? "" : "m = " + StateM(step.after.m, cx ? &cx->after : nullptr) + "  \u00b7  ";
    line += "l = " + ShortScalar(step.after.l, cx ? &cx->after.l : nullptr) + "  \u00b7  u = " +
            ShortVec(step.after.u, cx ? &cx->after.u : nullptr);
    comb += "\n" + line + "\nu / l = " + ShortVec(step.output_so_far, cx ? &cx->output_so_far : nullptr);
  }
  const TileState comb_state = combined == 0 ? TileState::kPending : combined == S ? TileState::kProcessed : TileState::kInSram;
  sc.rects.push_back(TileBox("combine", 0.6f, kCombY, kW - 1.2f, kCombH, comb_state, pal, lang, comb));
  return sc;
}

}  // namespace bw::view
