// DecodeModel::BuildScene: the split-KV diagram at one event — the cache's tiles and each split's
// partial output in HBM, one thread block per split with its running (m, l, O), the combine below; once
// the combine has begun the splits' blocks have exited and the chip holds the combine's block alone.
// Laid out for the label floors when the frame asks (SceneFrame::floors): every box sized for the
// lines the painter will draw (its name at the text floor, its numbers at the key floor), at the scale
// the scene will be fitted at; where no scale lets them fit, the plain 44-em layout.
#include <algorithm>

#include "view/decode_model.h"
#include "view/fit_em.h"
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

// A box's content: its name and the numbers the steps are about (one line each), its state.
struct DecBox {
  std::string id, name;
  std::vector<std::string> nums;
  TileState state = TileState::kPending;
  std::string sub;  // a word for the state other than StateWord's ("idle")
  std::string Label(const std::string& sep = "\n") const {
    std::string s = name;
    for (size_t i = 0; i < nums.size(); ++i) s += (i ? sep : std::string("\n")) + nums[i];
    return s;
  }
};
struct DecSplit {
  std::vector<DecBox> tiles;
  DecBox partial, block;
};
struct DecContent {
  DecBox q, o, combine;
  std::vector<DecSplit> splits;
  std::string hbm_title, sram_title;
  // The splits' thread blocks have written O_s and lse_s and exited (the combine has begun): their
  // on-chip state is gone, and the chip holds the combine's (m, l, u) instead.
  bool splits_gone = false;
};

// A tile's numbers on two lines ("w 1, 3" over "v 10, 20"): KeyInputs's one line cut at its dot.
std::vector<std::string> TwoLines(const std::vector<std::string>& nums) {
  static const std::string kDot = "  \u00b7  ";
  std::vector<std::string> out;
  for (const auto& n : nums) {
    const size_t at = n.find(kDot);
    if (at == std::string::npos) {
      out.push_back(n);
      continue;
    }
    out.push_back(n.substr(0, at));
    out.push_back(n.substr(at + kDot.size()));
  }
  return out;
}

SceneRect Place(const DecBox& b, float x, float y, float w, float h, const Palette& pal, const std::string& lang, const std::string& label) {
  SceneRect r = TileBox(b.id, x, y, w, h, b.state, pal, lang, label);
  if (!b.sub.empty()) r.sublabel = b.sub;
  return r;
}

// The plain layout: 44 em across (as the other scenes, about): a laptop's diagram box gives an em of
// 15 px or more, which the painter needs for a tile's state word at 16 px text.
void AddPlain(Scene& sc, const DecContent& c, const Palette& pal, const std::string& lang) {
  const int S = static_cast<int>(c.splits.size());
  constexpr float kW = 44, kLeft = 5.6f, kGap = 0.8f;
  constexpr float kHbmY = 0, kTileY = 2.1f, kTileH = 2.6f, kPartY = 5.0f, kPartH = 2.6f, kHbmH = 7.9f;
  constexpr float kSramY = 8.4f, kSplitY = 10.7f, kSplitH = 4.7f, kSramH = 7.4f;
  constexpr float kCombY = 16.2f, kCombH = 3.9f;
  const bool gone = c.splits_gone;
  // (Once the splits have exited, the combine is the chip's: in the on-chip panel, where they were.)
  const float sram_h = gone ? kSplitY - kSramY + kCombH + 0.4f : kSramH;
  sc.width = kW;
  sc.height = gone ? kSramY + sram_h + 0.4f : kCombY + kCombH + 0.4f;
  sc.rects.push_back(PanelRect("hbm", 0, kHbmY, kW, kHbmH, pal.panel_hbm, pal));
  sc.texts.push_back({"hbm.title", 0.5f, kHbmY + 0.2f, 0.9f, pal.text, c.hbm_title});
  sc.rects.push_back(PanelRect("sram", 0, kSramY, kW, sram_h, pal.panel_sram, pal));
  sc.texts.push_back({"sram.title", 0.5f, kSramY + 0.2f, 0.9f, pal.text, c.sram_title});
  sc.rects.push_back(Place(c.q, 0.6f, kTileY, kLeft - 1.2f, kTileH, pal, lang, c.q.Label()));
  sc.rects.push_back(Place(c.o, 0.6f, kPartY, kLeft - 1.2f, kPartH, pal, lang, c.o.Label()));
  const float col_w = (kW - kLeft - 0.4f) / static_cast<float>(S);
  for (int si = 0; si < S; ++si) {
    const DecSplit& s = c.splits[static_cast<size_t>(si)];
    const float x0 = kLeft + col_w * static_cast<float>(si), w = col_w - kGap;
    const int n = static_cast<int>(s.tiles.size());
    const float tw = (w - 0.3f * static_cast<float>(n - 1)) / static_cast<float>(n);
    for (int k = 0; k < n; ++k)
      sc.rects.push_back(Place(s.tiles[static_cast<size_t>(k)], x0 + (tw + 0.3f) * static_cast<float>(k), kTileY, tw, kTileH, pal, lang,
                               s.tiles[static_cast<size_t>(k)].Label()));
    sc.rects.push_back(Place(s.partial, x0, kPartY, w, kPartH, pal, lang, s.partial.Label(", ")));
    if (!gone) sc.rects.push_back(Place(s.block, x0, kSplitY, w, kSplitH, pal, lang, s.block.Label()));
  }
  sc.rects.push_back(Place(c.combine, 0.6f, gone ? kSplitY : kCombY, kW - 1.2f, kCombH, pal, lang, c.combine.Label()));
}

// The floors layout's choices: the state's word on a line of its own (else its symbol before the box's
// name); a tile's w and v on two lines (a row of four tiles, DEC/d6's paged cache, is too wide for one).
struct DecChoice {
  bool sub = true, tiles_two_lines = false;
};

// The floors layout's sizes at `em_px` pixels per em.
struct DecDims {
  FloorLines fl;
  float title_line = 0, left_w = 0, col_w = 0, tile_h = 0, part_h = 0, split_h = 0, comb_h = 0, W = 0, H = 0;
  float hbm_h = 0, sram_h = 0;
  std::vector<float> tile_w;  // per split, one tile's width
  bool comb_one_line = false, split_joined = false;
};

class DecFloorLayout {
 public:
  DecFloorLayout(const DecContent& c, const SceneFrame& frame) : c_(c), ff_(frame) {
    if (ff_.floor_text_px <= 0) ff_.floor_text_px = 24, ff_.floor_key_px = 36;  // a projector's at 1080 rows
    lpe_ = frame.line_per_em > 0 ? frame.line_per_em : 1.448f;
    ts_ = std::clamp(frame.text_scale, 1.0f, 2.5f);
  }
  const SceneFrame& Floors() const { return ff_; }

  // A box holding `name` (with the state's symbol before it) over `nums`, at the floors (em).
  float Width(const DecBox& b, const std::vector<std::string>& nums, const FloorLines& fl) const {
    float w = (EstimateWidthEm(b.name) + 1.6f) * fl.text / lpe_;
    for (const auto& n : nums) w = std::max(w, EstimateWidthEm(n) * fl.key / lpe_);
    return w + 0.7f;
  }
  float Height(size_t nums, bool sub, const FloorLines& fl) const {
    const float lines = static_cast<float>(1 + nums + (sub ? 1 : 0));
    return 0.45f + fl.text * (sub ? 2.0f : 1.0f) + fl.key * static_cast<float>(nums) + 0.11f * ts_ * lines;
  }
  static std::vector<std::string> TileNums(const DecBox& t, const DecChoice& ch) { return ch.tiles_two_lines ? TwoLines(t.nums) : t.nums; }

  DecDims At(float em_px, float width_em, const DecChoice& ch) const {
    DecDims m;
    m.fl = FloorLinesAt(ff_, em_px);
    const FloorLines& fl = m.fl;
    const bool sub = ch.sub, gone = c_.splits_gone;
    m.title_line = std::max(fl.text, 0.6f * ts_ * lpe_) + 0.1f;
    const size_t S = c_.splits.size();
    m.left_w = std::max(Width(c_.q, c_.q.nums, fl), Width(c_.o, c_.o.nums, fl));
    size_t tile_nums = 0;
    for (const auto& s : c_.splits)
      for (const auto& t : s.tiles) tile_nums = std::max(tile_nums, TileNums(t, ch).size());
    // A split's thread block: its m and l on one line, its O on the next, where the column is wide enough
    // for that; otherwise one number a line. (None once the splits have exited.)
    float split_w[2] = {0, 0};
    size_t split_n[2] = {0, 0};
    for (const auto& s : c_.splits) {
      if (gone) break;
      const auto& n = s.block.nums;
      const std::vector<std::string> joined = n.size() == 3 ? std::vector<std::string>{n[0] + " \u00b7 " + n[1], n[2]} : n;
      split_w[0] = std::max(split_w[0], Width(s.block, n, fl)), split_n[0] = std::max(split_n[0], n.size());
      split_w[1] = std::max(split_w[1], Width(s.block, joined, fl)), split_n[1] = std::max(split_n[1], joined.size());
    }
    m.tile_w.assign(S, 0);
    float col = 0;
    for (size_t i = 0; i < S; ++i) {
      const auto& s = c_.splits[i];
      for (const auto& t : s.tiles) m.tile_w[i] = std::max(m.tile_w[i], Width(t, TileNums(t, ch), fl));
      const float n = static_cast<float>(s.tiles.size());
      col = std::max({col, m.tile_w[i] * n + 0.3f * (n - 1), Width(s.partial, s.partial.nums, fl)});
    }
    // (m and l joined: a projector's box is wide, not tall.)
    m.split_joined = split_n[1] < split_n[0];
    col = std::max(col, split_w[m.split_joined ? 1 : 0]);
    m.col_w = col + 0.8f;
    m.W = 0.6f + m.left_w + 0.6f + m.col_w * static_cast<float>(S) - 0.8f + 0.6f;
    if (width_em > m.W) {  // wider than it needs: the extra to the columns
      const float extra = std::min(width_em, 1.3f * m.W) - m.W;
      m.col_w += extra / static_cast<float>(S);
      m.W += extra;
    }
    for (size_t i = 0; i < S; ++i) {
      const float n = static_cast<float>(c_.splits[i].tiles.size());
      m.tile_w[i] = (m.col_w - 0.8f - 0.3f * (n - 1)) / n;
    }
    const auto& cn = c_.combine.nums;
    const std::string one = cn.size() == 2 ? cn[0] + "  \u00b7  " + cn[1] : "";
    m.comb_one_line = cn.size() == 2;
    const float comb_w_need = Width(c_.combine, m.comb_one_line ? std::vector<std::string>{one} : cn, fl);
    m.W = std::max(m.W, comb_w_need + 1.2f);
    m.tile_h = Height(tile_nums, sub, fl);
    m.part_h = Height(1, sub, fl);
    m.split_h = Height(split_n[m.split_joined ? 1 : 0], sub, fl);
    m.comb_h = Height(cn.empty() ? 0 : m.comb_one_line ? 1 : cn.size(), sub, fl);
    m.hbm_h = 0.2f + m.title_line + 0.2f + m.tile_h + 0.3f + m.part_h + 0.3f;
    // The chip holds the splits' thread blocks, or once they have exited the combine's.
    m.sram_h = 0.2f + m.title_line + 0.2f + (gone ? m.comb_h : m.split_h) + 0.3f;
    m.H = m.hbm_h + 0.4f + m.sram_h + 0.4f + (gone ? 0 : m.comb_h + 0.4f);
    return m;
  }

 private:
  const DecContent& c_;
  SceneFrame ff_;
  float lpe_ = 1.448f, ts_ = 1;
};

// The choice the scene is laid out with, and the scale it will be fitted at: the largest at which it
// fits the frame's box, by bisection (30 px per em where the frame gives none). The state's word on a
// line of its own where that leaves 20 px per em, else the symbol before the box's name; a tile's
// numbers on one line where that fits as well as two.
std::pair<DecChoice, float> ChooseFloors(const DecFloorLayout& lay, const SceneFrame& frame) {
  if (frame.width_px <= 0 || frame.height_px <= 0) return {DecChoice{}, 30.0f};
  const float enough = 20 * lay.Floors().floor_text_px / 24;
  std::pair<DecChoice, float> best{DecChoice{}, 0.0f};
  for (const bool sub : {true, false}) {
    best.second = 0;
    for (const bool two : {false, true}) {
      const DecChoice ch{sub, two};
      const float px = LargestFittingEmPx([&](float p) { return lay.At(p, 0, ch); }, frame.width_px, frame.height_px);
      if (px > best.second + 0.01f) best = {ch, px};
      if (px >= enough) return {ch, px};
    }
  }
  return best;
}

bool AddFloors(Scene& sc, const DecContent& c, const Palette& pal, const std::string& lang, const SceneFrame& frame) {
  if (!frame.floors || c.splits.empty()) return false;
  const DecFloorLayout lay(c, frame);
  const bool known = frame.width_px > 0 && frame.height_px > 0;
  const auto [ch, em_px] = ChooseFloors(lay, frame);
  if (known && em_px < 0.4f * lay.Floors().floor_text_px) return false;
  sc.floors = true;
  const DecDims m = lay.At(em_px, known ? frame.width_px / em_px : 0, ch);
  sc.width = m.W;
  const float tile_y = 0.2f + m.title_line + 0.2f, part_y = tile_y + m.tile_h + 0.3f;
  sc.rects.push_back(PanelRect("hbm", 0, 0, m.W, m.hbm_h, pal.panel_hbm, pal));
  sc.texts.push_back({"hbm.title", 0.5f, 0.2f, 0.6f, pal.text, c.hbm_title});
  const float sram_y = m.hbm_h + 0.4f, inner_y = sram_y + 0.2f + m.title_line + 0.2f;
  sc.rects.push_back(PanelRect("sram", 0, sram_y, m.W, m.sram_h, pal.panel_sram, pal));
  sc.texts.push_back({"sram.title", 0.5f, sram_y + 0.2f, 0.6f, pal.text, c.sram_title});
  const auto keyed = [](SceneRect r, bool key) { r.key_lines = key; return r; };
  sc.rects.push_back(keyed(Place(c.q, 0.6f, tile_y, m.left_w, m.tile_h, pal, lang, c.q.Label()), false));
  sc.rects.push_back(keyed(Place(c.o, 0.6f, part_y, m.left_w, m.part_h, pal, lang, c.o.Label()), !c.o.nums.empty()));
  const float x_splits = 0.6f + m.left_w + 0.6f;
  for (size_t si = 0; si < c.splits.size(); ++si) {
    const DecSplit& s = c.splits[si];
    const float x0 = x_splits + m.col_w * static_cast<float>(si), w = m.col_w - 0.8f;
    for (size_t k = 0; k < s.tiles.size(); ++k) {
      const DecBox& t = s.tiles[k];
      DecBox shown = t;
      shown.nums = DecFloorLayout::TileNums(t, ch);
      sc.rects.push_back(keyed(Place(t, x0 + (m.tile_w[si] + 0.3f) * static_cast<float>(k), tile_y, m.tile_w[si], m.tile_h, pal, lang, shown.Label()),
                               !t.nums.empty()));
    }
    sc.rects.push_back(keyed(Place(s.partial, x0, part_y, w, m.part_h, pal, lang, s.partial.Label()), !s.partial.nums.empty()));
    if (c.splits_gone) continue;
    std::string label = s.block.name;
    const auto& n = s.block.nums;
    if (m.split_joined && n.size() == 3) label += "\n" + n[0] + " \u00b7 " + n[1] + "\n" + n[2];
    else label = s.block.Label();
    sc.rects.push_back(keyed(Place(s.block, x0, inner_y, w, m.split_h, pal, lang, label), !n.empty()));
  }
  const float comb_y = c.splits_gone ? inner_y : sram_y + m.sram_h + 0.4f;
  const auto& cn = c.combine.nums;
  const std::string comb = m.comb_one_line ? c.combine.name + "\n" + cn[0] + "  \u00b7  " + cn[1] : c.combine.Label();
  sc.rects.push_back(keyed(Place(c.combine, 0.6f, comb_y, m.W - 1.2f, m.comb_h, pal, lang, comb), !cn.empty()));
  sc.height = m.H;
  return true;
}

}  // namespace

Scene DecodeModel::BuildScene(int e, const std::string& lang, const Palette& pal, const SceneFrame& frame) const {
  const auto T = [&](Str k) { return UiText(k, lang); };
  const int S = run_.SplitCount();
  const auto& ev = run_.events[static_cast<size_t>(e)];
  const bool raw = run_.problem.query.mode == engine::SoftmaxMode::kRaw;
  DecContent c;
  c.hbm_title = T(Str::hbm_title_short);
  // Once the combine has begun the splits' thread blocks have exited (d2: on-chip state does not outlive
  // its block): what is left of them is their O_s and lse_s in HBM; the chip holds the combine's block.
  c.splits_gone = CombinedAt(e) > 0;
  c.sram_title = T(c.splits_gone ? Str::sram_title_short : Str::dec_sram_title);
  c.q = {"hbm.q", "q", {}, TileState::kNone, ""};
  const bool written = ev.kind == DecodeEventKind::kWrite;
  const auto& ex_out = run_.exact ? &run_.exact->output : nullptr;
  c.o = {"hbm.o", "O", {}, written ? TileState::kWritten : TileState::kNotWritten, ""};
  if (written) c.o.nums.push_back(ShortVec(run_.output, ex_out));

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
  const bool partial = PartialWrittenAt(e);
  const int combined = CombinedAt(e);
  for (const auto& s : run_.splits) {
    DecSplit d;
    const std::string j = std::to_string(s.split);
    const int merged = MergedAt(s.split, e), held = InSramAt(s.split, e);
    // The split's tiles in HBM: one box each, or one for them all past 8 (a file's long cache).
    const auto tile_state = [&](int k) {  // k 1-based within the split
      return k == held ? TileState::kInSram : k <= merged ? TileState::kProcessed : TileState::kPending;
    };
    if (s.tiles <= 8) {
      const auto& q = run_.problem.query;
      const bool exact = q.exact_weights && q.exact_values;
      const std::vector<std::string> shown = exact ? std::vector<std::string>() : FormatDistinct(q.scores);
      int begin = s.begin;
      for (int k = 1; k <= s.tiles; ++k) {
        const int tile = s.first_tile + k;  // 1-based in the cache
        const int end = begin + q.block_sizes[static_cast<size_t>(tile) - 1];
        d.tiles.push_back({"hbm.kv." + std::to_string(tile), TileTitle(tile, begin, end), {KeyInputs(q, exact, shown, begin, end, 4)}, tile_state(k), ""});
        begin = end;
      }
    } else {
      const TileState st = held ? TileState::kInSram : merged == s.tiles ? TileState::kProcessed : merged ? TileState::kInSram : TileState::kPending;
      d.tiles.push_back({"hbm.kv." + std::to_string(s.first_tile + 1),
                         "K/V " + std::to_string(s.first_tile + 1) + "\u2013" + std::to_string(s.first_tile + s.tiles), {}, st, ""});
    }
    // Its partial output and lse in HBM.
    // lse_s joins the label when it is written: before, it would answer "what must travel with O_s?".
    d.partial = {"hbm.partial." + j, partial ? "O_" + j + ", lse_" + j : "O_" + j, {}, partial ? TileState::kWritten : TileState::kNotWritten, ""};
    if (partial)
      d.partial.nums.push_back(ShortVec(s.output, s.exact_output ? &*s.exact_output : nullptr) + ", " +
                               Lse(s.lse, s.exact_state ? &*s.exact_state : nullptr));
    if (combined >= s.split) d.partial.state = TileState::kProcessed;
    // Its thread block: the split's running (m, l, u) and its output so far.
    d.block = {"split." + j, UiFormat(Str::dec_split, lang, {j}), {}, held ? TileState::kInSram : merged == 0 ? TileState::kPending : TileState::kProcessed, ""};
    if (partial) d.block.state = TileState::kWritten;
    if (merged > 0) {
      const auto& b = s.run.blocks[static_cast<size_t>(merged) - 1];
      const engine::QueryBlockStep::Exact* ex = b.exact ? &*b.exact : nullptr;
      if (!raw) d.block.nums.push_back("m = " + StateM(b.after.m, ex ? &ex->after : nullptr));
      d.block.nums.push_back("l = " + ShortScalar(b.after.l, ex ? &ex->after.l : nullptr));
      d.block.nums.push_back("O = " + ShortVec(b.output_so_far, ex ? &ex->output_so_far : nullptr));
    }
    if (held == 0 && merged == s.tiles && !partial && ev.kind != DecodeEventKind::kStart) d.block.sub = T(Str::dec_idle);
    c.splits.push_back(std::move(d));
  }

  // The combine: the splits merged into one (m, l, u), then O = u / l.
  c.combine = {"combine", UiFormat(Str::dec_combine_box, lang, {FormatInt(combined), FormatInt(S)}), {},
               combined == 0 ? TileState::kPending : combined == S ? TileState::kProcessed : TileState::kInSram, ""};
  if (combined > 0) {
    const auto& step = run_.combine[static_cast<size_t>(combined) - 1];
    const engine::CombineStep::Exact* cx = step.exact ? &*step.exact : nullptr;
    std::string line = raw ? "" : "m = " + StateM(step.after.m, cx ? &cx->after : nullptr) + "  \u00b7  ";
    line += "l = " + ShortScalar(step.after.l, cx ? &cx->after.l : nullptr) + "  \u00b7  u = " +
            ShortVec(step.after.u, cx ? &cx->after.u : nullptr);
    c.combine.nums = {line, "u / l = " + ShortVec(step.output_so_far, cx ? &cx->output_so_far : nullptr)};
  }
  Scene sc;
  sc.background = pal.background;
  if (!AddFloors(sc, c, pal, lang, frame)) AddPlain(sc, c, pal, lang);
  return sc;
}

}  // namespace bw::view
