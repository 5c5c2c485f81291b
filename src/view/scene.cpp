// The HBM/SRAM diagram as data; see scene.h. Layout constants are in em.
#include "view/scene.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "view/format.h"
#include "view/lesson_text.h"

namespace bw::view {

const char* ToString(TileState s) {
  switch (s) {
    case TileState::kNone: return "none";
    case TileState::kPending: return "pending";
    case TileState::kInSram: return "in_sram";
    case TileState::kProcessed: return "processed";
    case TileState::kMasked: return "masked";
    case TileState::kWritten: return "written";
    case TileState::kNotWritten: return "not_written";
    case TileState::kNotStored: return "not_stored";
  }
  return "?";
}

Palette ClassroomPalette() {
  Palette p;
  p.background = {250, 250, 247};
  p.panel_hbm = {236, 239, 244};
  p.panel_sram = {255, 244, 222};
  p.border = {38, 50, 56};
  p.text = {20, 24, 28};
  p.text_muted = {84, 96, 104};
  p.pending = {189, 189, 189};
  p.in_sram = {255, 193, 7};
  p.processed = {67, 160, 71};
  p.masked = {224, 224, 224};
  p.written = {229, 57, 53};
  p.not_written = {245, 245, 245};
  p.read_arrow = {30, 101, 216};
  p.write_arrow = {211, 47, 47};
  p.merge_arrow = {55, 71, 79};
  p.state_term = {0, 121, 107};   // teal: the accumulator's m, l, u
  p.block_term = {156, 100, 0};   // dark amber: the block in SRAM (amber tile), readable as text
  p.wrong = {123, 23, 162};       // purple, with ×
  p.line_em = 0.12f;
  return p;
}

Palette ProjectorPalette() {
  Palette p = ClassroomPalette();
  p.background = {255, 255, 255};
  p.border = {0, 0, 0};
  p.text = {0, 0, 0};
  p.line_em = 0.2f;
  return p;
}

namespace {


}  // namespace

std::string ShortStateWord(TileState s, const std::string& lang) {
  switch (s) {
    case TileState::kPending: return UiText(Str::short_pending, lang);
    case TileState::kInSram: return UiText(Str::short_now, lang);
    case TileState::kProcessed: return UiText(Str::short_done, lang);
    case TileState::kMasked: return UiText(Str::short_skip, lang);
    default: return StateWord(s, lang);
  }
}

const char* StateBadge(TileState s) {
  switch (s) {
    case TileState::kPending: return "\u25cb";
    case TileState::kInSram: return "\u25c6";
    case TileState::kProcessed: return "\u2713";
    case TileState::kMasked: return "\uff0f";
    case TileState::kWritten: return "\u25bc";
    case TileState::kNotWritten: return "\u25c7";
    case TileState::kNotStored: return "\u25a1";
    case TileState::kNone: break;
  }
  return "";
}

std::string StateWord(TileState s, const std::string& lang) {
  switch (s) {
    case TileState::kPending: return UiText(Str::pending, lang);
    case TileState::kInSram: return UiText(Str::in_sram, lang);
    case TileState::kProcessed: return UiText(Str::done, lang);
    case TileState::kMasked: return UiText(Str::masked, lang);
    case TileState::kWritten: return UiText(Str::written, lang);
    case TileState::kNotWritten: return UiText(Str::not_written, lang);
    case TileState::kNotStored: return UiText(Str::not_stored, lang);
    case TileState::kNone: break;
  }
  return "";
}

std::string KeyInputs(const engine::SingleQueryProblem& p, bool exact, const std::vector<std::string>& shown, int b, int e,
                      int max_detail) {
  std::string w = p.score_kind == engine::ScoreKind::kWeights ? "w " : "s ";
  std::string v = "v ";
  // No tile holds more than a few positions' numbers: past max_detail of them, "…" (a block of
  // 65,536 positions formatted all of them at every event).
  for (int i = b; i < std::min(e, b + max_detail); ++i) {
    w += (i > b ? ", " : "") + (exact ? FormatFraction((*p.exact_weights)[i]) : shown[static_cast<size_t>(i)]);
    Eigen::VectorXd row = p.values.row(i).transpose();
    v += (i > b ? ", " : "") + (exact ? FormatExactVector((*p.exact_values)[i]) : FormatVector(row));
  }
  if (e - b > max_detail) w += ", \u2026", v += ", \u2026";
  return w + "  \u00b7  " + v;
}

SceneRect TileRect(std::string id, float x, float y, float w, float h, TileState s, const Palette& p, std::string label,
                   std::string sublabel, const TileFit& fit) {
  SceneRect r;
  r.id = std::move(id);
  r.x = x, r.y = y, r.w = w, r.h = h;
  r.state = s;
  const TileStyle style = Style(s, p);
  r.fill = style.fill;
  r.border = fit.written_border && s == TileState::kWritten ? p.write_arrow : p.border;
  r.border_em = h < fit.thin_below_h ? fit.thin_border_em : p.line_em * fit.border_scale;
  r.hatched = style.hatched && h >= fit.hatch_min_h;  // tiny cells: the flat colour reads better
  r.dashed = style.dashed && h >= fit.dash_min_h;
  if (h >= fit.label_min_h && w >= fit.label_min_w) r.label = std::move(label);
  if (h >= fit.sublabel_min_h) r.sublabel = std::move(sublabel);
  return r;
}

SceneRect BoxRect(std::string id, float x, float y, float w, float h, Color fill, const Palette& p, TileState s) {
  SceneRect r = TileRect(std::move(id), x, y, w, h, s, p, "", "", kBoxTile);
  if (s == TileState::kNone) r.fill = fill;
  return r;
}

SceneRect PanelRect(std::string id, float x, float y, float w, float h, Color fill, const Palette& p) {
  SceneRect r;
  r.id = std::move(id);
  r.x = x, r.y = y, r.w = w, r.h = h;
  r.fill = fill;
  r.border = p.border;
  r.border_em = p.line_em;
  return r;
}

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

}  // namespace

std::vector<std::string> WrapEstimated(const std::string& whole, float width_em, size_t max_lines) {
  // Past max_lines only the text that can reach them is looked at (a 1 MB title wrapped whole every
  // frame): a line holds at most width_em / 0.25 glyphs of at most 4 bytes.
  const size_t budget = max_lines == 0 ? whole.size() : max_lines * (static_cast<size_t>((width_em > 1.0f ? std::min(width_em, 1e6f) : 1.0f) / 0.25f) + 2) * 4;
  size_t cut = std::min(whole.size(), budget);
  while (cut < whole.size() && cut > 0 && (static_cast<unsigned char>(whole[cut]) & 0xC0) == 0x80) --cut;
  const std::string utf8 = whole.substr(0, cut);
  // The glyphs with their estimated widths (Noto Sans: a space ≈ 0.25 em, narrow punctuation ≈ 0.3,
  // other Latin ≈ 0.55, CJK 1).
  struct Glyph {
    std::string text;
    float w;
  };
  std::vector<Glyph> glyphs;
  for (size_t i = 0; i < utf8.size();) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    const size_t len = std::min(utf8.size() - i, static_cast<size_t>(c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4));
    std::string g = utf8.substr(i, len);
    const float gw = g == " " ? 0.25f : g.size() == 1 && std::string_view(",.:;()'|!").find(g[0]) != std::string_view::npos ? 0.3f : EstimateWidthEm(g);
    glyphs.push_back({std::move(g), gw});
    i += len;
  }
  // A line may end after a space, or before a wide glyph — but never before closing punctuation nor
  // after an opening bracket (as Chinese typesetting keeps "（" and "）" with their words).
  static const std::string_view kNoStart = "\uff09\u3001\uff0c\u3002\uff1a\uff1b\uff01\uff1f\u300d\u300f\u3011)";
  static const std::string_view kNoEnd = "\uff08\u300c\u300e\u3010(";
  const auto may_break_before = [&](size_t k) {
    if (k == 0 || k >= glyphs.size()) return false;
    if (glyphs[k].text == " " || kNoStart.find(glyphs[k].text) != std::string_view::npos) return false;
    if (kNoEnd.find(glyphs[k - 1].text) != std::string_view::npos) return false;
    return glyphs[k - 1].text == " " || glyphs[k].w >= 1.0f || glyphs[k - 1].w >= 1.0f;
  };
  // Inside brackets a break is a last resort: a tuple "(1, 2, 4, 1, 8, 2)" stays on one line where a
  // break outside it leaves the line at least 40 % full (a caption cut "w = (1," from "2, 4, 1, 8, 2)").
  static const std::string_view kOpen = "\uff08(", kClose = "\uff09)";
  std::vector<int> depth(glyphs.size() + 1, 0);
  for (size_t k = 0; k < glyphs.size(); ++k) {
    const bool open = glyphs[k].text.size() <= 3 && kOpen.find(glyphs[k].text) != std::string_view::npos;
    const bool close = glyphs[k].text.size() <= 3 && kClose.find(glyphs[k].text) != std::string_view::npos;
    depth[k + 1] = std::max(0, depth[k] + (open ? 1 : 0) - (close ? 1 : 0));
  }
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < glyphs.size()) {
    while (start < glyphs.size() && glyphs[start].text == " ") ++start;   // a line starts with no space
    if (start >= glyphs.size()) break;
    float w = 0;
    size_t end = start, last_break = std::string::npos, last_outside = std::string::npos;
    float outside_w = 0;
    while (end < glyphs.size() && (end == start || w + glyphs[end].w <= width_em)) {
      w += glyphs[end].w;
      ++end;
      if (end < glyphs.size() && may_break_before(end)) {
        last_break = end;
        if (depth[end] == 0) last_outside = end, outside_w = w;
      }
    }
    if (last_outside != std::string::npos && last_outside > start && outside_w >= 0.4f * width_em) last_break = last_outside;
    // Cut at the last place it may break; a word longer than the line runs on to its end, up to twice
    // the width, and is cut there (a 1 MB title of one word drew across the SRAM panel: issue 31).
    if (end < glyphs.size()) {
      if (last_break != std::string::npos && last_break > start) end = last_break;
      else
        while (end < glyphs.size() && !may_break_before(end) && w + glyphs[end].w <= 2.0f * width_em) w += glyphs[end++].w;
    }
    std::string line;
    for (size_t k = start; k < end; ++k) line += glyphs[k].text;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    lines.push_back(line);
    start = end;
    if (max_lines > 0 && lines.size() > max_lines) break;  // one past: the caller sees there is more
  }
  if (cut < whole.size() && max_lines > 0 && lines.size() <= max_lines) lines.push_back("\u2026");
  return lines;
}

void PadSceneEdges(Scene& scene) {
  if (scene.rects.empty()) return;
  float left = 0, top = 0, right = 0, bottom = 0;
  for (const auto& r : scene.rects) {
    left = std::max(left, kSceneEdgeEm - r.x);
    top = std::max(top, kSceneEdgeEm - r.y);
    right = std::max(right, kSceneEdgeEm - (scene.width - r.x - r.w));
    bottom = std::max(bottom, kSceneEdgeEm - (scene.height - r.y - r.h));
  }
  if (left == 0 && top == 0 && right == 0 && bottom == 0) return;
  for (auto& r : scene.rects) r.x += left, r.y += top;
  for (auto& t : scene.texts) t.x += left, t.y += top;
  for (auto& a : scene.arrows) {
    for (auto& p : a.points) p.x += left, p.y += top;
    a.label_at.x += left, a.label_at.y += top;
  }
  scene.width += left + right;
  scene.height += top + bottom;
}

FloorLines FloorLinesAt(const SceneFrame& frame, float em_px) {
  if (frame.floor_text_px <= 0 || em_px <= 0) return kProjectorFloorLines;
  const float k = frame.line_per_em / em_px;
  return {frame.floor_text_px * k, std::max(frame.floor_key_px, frame.floor_text_px) * k};
}

LabelFloors ProjectorFloors(float display_h) {
  const float k = std::max(display_h, 1.0f) / 1080.0f;
  return {24.0f * k, 36.0f * k};
}

LabelFloors DeskFloors(float display_h) {
  const float k = std::max(display_h, 1.0f) / 720.0f;
  return {14.0f * k, 14.0f * k};
}

float EstimateWidthEm(const std::string& utf8) {
  float w = 0;
  for (size_t i = 0; i < utf8.size();) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    const size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    // Three-byte sequences from U+2E80 (E2 BA 80) on: CJK, kana, full-width forms.
    const bool wide = len == 4 || (len == 3 && (c > 0xE2 || (i + 1 < utf8.size() && static_cast<unsigned char>(utf8[i + 1]) >= 0xBA)));
    w += wide ? 1.0f : 0.56f;
    i += len;
  }
  return w;
}

const SceneRect* Scene::FindRect(const std::string& id) const {
  for (const auto& r : rects)
    if (r.id == id) return &r;
  return nullptr;
}
const SceneArrow* Scene::FindArrow(const std::string& id) const {
  for (const auto& a : arrows)
    if (a.id == id) return &a;
  return nullptr;
}

Scene BuildQueryScene(const engine::SingleQueryRun& run, int event, const std::string& lang, const Palette& pal,
                      float text_scale, bool projector, FloorLines lines) {
  // Layout (em): HBM panel on the left, SRAM panel on the right, tiles in two rows. The accumulator's
  // three rows are 1.8 em apart at the default text size and grow with Ctrl + (ts); the panels grow
  // down with them. For a projector (LabelFloors) the boxes are sized for the lines the painter draws
  // at the floors (`lines`): the HBM blocks hold their title and w and v on lines of their own at the
  // key size, the written O its value on one key line (two where it is too long), the accumulator its
  // m, l, u at the key size; the legend gives its room to the input's name (the arrows carry their
  // own labels).
  const float ts = std::clamp(text_scale, 1.0f, 2.0f);
  const FloorLines fl = projector ? (lines.text > 0 ? lines : kProjectorFloorLines) : FloorLines{};
  // Room around a tile's lines: the painter's pad above and below (0.15 em each), a gap under each
  // line but the last (0.1 em × its text scale, 1.6 on a projector), and 0.1 em to spare.
  constexpr float kTilePad = 0.4f, kLineGap = 0.16f;
  // A projector's box is wider than the scene's 52 × 21 em (1334 × 570 px at 1920×1080): the HBM
  // panel takes 8 em more, so that three blocks' w and v fit at the key size.
  const float kWide = projector ? 8.0f : 0.0f;
  const float kW = 52 + kWide;
  const float kHbmX = 0, kHbmW = 31 + kWide, kSramX = 33 + kWide, kSramW = 19;
  constexpr float kRow2 = 12.5f, kTileH = 4.5f;
  // (At the floors the read arrow's lane is under the panel's title and the first row under the
  // arrow's label, one line at the text floor: the label goes between the lane and the tiles.)
  // (The panels' titles are 1.84 em high at a projector's 1.6 text scale: the lane runs 0.35 em under them.)
  const float kLane = projector ? 0.5f + std::max(1.84f, fl.text) + 0.35f : 3.3f;
  const float kRow1 = projector ? kLane + 0.2f + fl.text + 0.2f : 4.5f;
  const float kKvX0 = 7.0f, kKvX1 = 30.0f + kWide, kGap = 0.5f;
  const float sp_w = projector ? 15.0f : 16, o_x = projector ? 17.0f : 23;
  // The written O's value ("= 160/7 ≈ 22.86") on one key line when it fits the tile, else two; from
  // the run's final output, so that the layout is the same at every event.
  const std::string final_output = projector ? StateQuantitiesAt(run, static_cast<int>(run.events.size()) - 1).at("output") : "";
  const bool output_one_line = EstimateWidthEm("= " + final_output) * fl.key < kKvX1 - o_x - 1.0f;
  const float kHbmTileH1 = projector ? kTilePad + fl.text + 2 * (kLineGap + fl.key) : kTileH;
  const float kHbmTileH2 = projector ? std::max(kTilePad + 2 * fl.text + kLineGap,                                        // S, P; O unwritten
                                                kTilePad + fl.text + (output_one_line ? 1.0f : 2.0f) * (kLineGap + fl.key))  // O written
                                     : kTileH;
  const float kHbmRow2 = projector ? kRow1 + kHbmTileH1 + 0.5f : kRow2;
  // SRAM: Q with its symbol, the block with its w and v at the text floor; under them the accumulator,
  // its title (up to 1.9 em: the painter's 1.15 em × 1.6) and its rows at the key size.
  const float kSramTileH = projector ? std::max(kTileH, kTilePad + 2 * fl.text + kLineGap) : kTileH;
  // (Between them the merge arrow; its label goes above the tiles, in the read arrows' band.)
  const float kAccTop = projector ? kRow1 + kSramTileH + 0.7f : 11.0f;
  const float acc_rows_top = projector ? 0.2f + std::max(1.9f, fl.text) + 0.2f : kRow2 + 0.3f - kAccTop;
  const float acc_pitch = std::max(fl.key + 0.1f, 1.93f * ts);   // (1.93: 1.35 em text on a 1.43 pitch)
  const bool raw = run.problem.mode == engine::SoftmaxMode::kRaw;
  const float acc_h = projector ? acc_rows_top + (raw ? 2.0f : 3.0f) * acc_pitch + 0.3f : 3.1f + 5.4f * ts;
  const float kH = projector ? std::max(kHbmRow2 + kHbmTileH2 + 0.5f, kAccTop + acc_h + 0.5f) : std::max(21.0f, kAccTop + acc_h + 1.5f);

  event = std::clamp(event, 0, static_cast<int>(run.events.size()) - 1);
  const auto& ev = run.events[event];
  const int merged = run.BlocksMergedAt(event);
  const int in_sram = run.BlockInSramAt(event);

  Scene sc;
  sc.width = kW;
  sc.height = kH;
  sc.background = pal.background;

  sc.rects.push_back(PanelRect("hbm", kHbmX, 0, kHbmW, kH, pal.panel_hbm, pal));
  sc.rects.push_back(PanelRect("sram", kSramX, 0, kSramW, kH, pal.panel_sram, pal));
  sc.texts.push_back({"hbm.title", kHbmX + 0.6f, 0.5f, 1.15f, pal.text, UiText(Str::hbm_title, lang)});
  sc.texts.push_back({"sram.title", kSramX + 0.6f, 0.5f, 1.15f, pal.text, UiText(Str::sram_title, lang)});

  // HBM: Q, the K/V blocks, the S/P tables the tiled order never stores, O.
  sc.rects.push_back(Tile("hbm.q", 1, kRow1, 5, kHbmTileH1, TileState::kNone, pal, lang, "Q"));
  sc.rects.back().fill = pal.not_written;
  sc.rects.back().sublabel = UiText(Str::q_read_once, lang);

  const int n = static_cast<int>(run.problem.scores.size());
  const int T = run.BlockCount();
  const std::vector<std::string> shown_scores = run.exact ? std::vector<std::string>() : FormatDistinct(run.problem.scores);
  std::vector<float> kv_center(T + 1, 0);
  const auto add_block = [&](const engine::QueryBlockStep& b, float x, float w) {
    TileState s = TileState::kPending;
    if (b.all_masked) s = TileState::kMasked;  // masked by the input, not l_b = 0 from underflow
    // At its update the block is merged: done (✓), as the seed draws RC-T3/b1 ("block 1 done"); it is
    // amber only while loaded and not yet merged.
    else if (b.block <= merged) s = TileState::kProcessed;
    else if (b.block == in_sram) s = TileState::kInSram;
    SceneRect r = Tile("hbm.kv." + std::to_string(b.block), x, kRow1, w, kHbmTileH1, s, pal, lang,
                       "K/V " + std::to_string(b.block));
    if (projector) {  // w and v on lines of their own (the painter leaves them out where they cannot be read)
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
  const int fit = static_cast<int>((kKvX1 - kKvX0 + kGap) / (kMinBlockW + kGap));
  if (T <= fit) {
    const float usable = (kKvX1 - kKvX0) - kGap * static_cast<float>(T - 1);
    float x = kKvX0;
    for (const auto& b : run.blocks) {
      const float w = std::max(kMinBlockW, usable * static_cast<float>(b.end - b.begin) / static_cast<float>(n));
      add_block(b, x, w);
      x += w + kGap;
    }
  } else {
    const int focus = in_sram > 0 ? in_sram : std::max(1, merged);
    const int window = 3;
    const int lo = std::clamp(focus - 1, 2, T - window), hi = lo + window - 1;
    const int slots = window + 2 + (lo > 2 ? 1 : 0) + (hi < T - 1 ? 1 : 0);
    const float w = ((kKvX1 - kKvX0) - kGap * static_cast<float>(slots - 1)) / static_cast<float>(slots);
    float x = kKvX0;
    const auto add_run = [&](int from, int to) {
      const TileState s = to <= merged ? TileState::kProcessed : TileState::kPending;
      SceneRect r = Tile("hbm.kv.run." + std::to_string(from), x, kRow1, w, kHbmTileH1, s, pal, lang,
                         "\u2026\n" + FormatInt(from) + "\u2013" + FormatInt(to));
      r.sublabel.clear();
      sc.rects.push_back(std::move(r));
      x += w + kGap;
    };
    const auto add = [&](int j) {
      add_block(run.blocks[static_cast<size_t>(j) - 1], x, w);
      x += w + kGap;
    };
    add(1);
    if (lo > 2) add_run(2, lo - 1);
    for (int j = lo; j <= hi; ++j) add(j);
    if (hi < T - 1) add_run(hi + 1, T - 1);
    add(T);
  }
  sc.rects.push_back(Tile("hbm.sp", 1, kHbmRow2, sp_w, kHbmTileH2, TileState::kNotStored, pal, lang, UiText(Str::sp_ghost, lang)));
  const bool written = ev.kind == engine::QueryEventKind::kWriteOutput;
  sc.rects.push_back(Tile("hbm.o", o_x, kHbmRow2, kKvX1 - o_x, kHbmTileH2, written ? TileState::kWritten : TileState::kNotWritten, pal,
                          lang, "O"));
  if (written && projector) {  // "O" and "= 160/7 ≈ 22.86" (or "= 160/7", "≈ 22.86"): the output at the key size
    const std::string out = StateQuantitiesAt(run, event).at("output");
    const size_t approx = out.find(" \u2248 ");
    sc.rects.back().label +=
        "\n= " + (output_one_line || approx == std::string::npos ? out : out.substr(0, approx) + "\n" + out.substr(approx + 1));
    sc.rects.back().key_lines = true;
  } else if (written) {
    sc.rects.back().label += " = " + StateQuantitiesAt(run, event).at("output");
  }

  // SRAM: the fixed Q block, the current K/V block, the accumulator.
  // (A projector's 5 em tile holds "Q（固定）" only under the floor: "Q" and its ◆; the text says it stays.)
  sc.rects.push_back(Tile("sram.q", kSramX + 1, kRow1, 5, kSramTileH, TileState::kInSram, pal, lang, projector ? "Q" : UiText(Str::q_fixed, lang)));
  if (in_sram > 0) {
    const auto& b = run.blocks[in_sram - 1];
    SceneRect r = Tile("sram.kv", kSramX + 7, kRow1, 11, kSramTileH, b.all_masked ? TileState::kMasked : TileState::kInSram,
                       pal, lang, "K/V " + std::to_string(in_sram));
    const std::string detail = BlockDetail(run, shown_scores, b.begin, b.end);
    if (static_cast<float>(detail.size()) * 0.5f < 10.4f) r.label += "\n" + detail;
    sc.rects.push_back(std::move(r));
  } else {
    SceneRect r = Tile("sram.kv", kSramX + 7, kRow1, 11, kSramTileH, TileState::kNone, pal, lang, UiText(Str::kv_slot, lang));
    r.fill = pal.panel_sram;
    r.dashed = true;
    r.sublabel = UiText(Str::slot_empty, lang);
    sc.rects.push_back(std::move(r));
  }
  // (At the floors the box is a little wider: its title "accumulator m, l, u" fits at 24 px em.)
  SceneRect acc = PanelRect("sram.acc", kSramX + (projector ? 0.5f : 1.0f), kAccTop, projector ? 18.0f : 17.0f, acc_h, {255, 255, 255}, pal);
  acc.label = UiText(raw ? Str::acc_title_raw : Str::acc_title, lang);
  sc.rects.push_back(acc);
  const Quantities q = StateQuantitiesAt(run, event);
  // The three rows share the box's height below its title; the painter may enlarge them (Ctrl + beyond
  // what the layout took) only as far as their pitch allows. At the floors each row is a key line.
  const float ax = kSramX + 1.8f, row_top = kAccTop + acc_rows_top, size = 1.35f * ts;
  // Raw mode subtracts no maximum: its accumulator is l and u (an m pinned at 0 only raised the
  // question of what m is, before N50/s1 introduces it).
  const int rows = raw ? 2 : 3;
  const float row = projector ? acc_pitch : (kAccTop + acc_h - 0.4f - row_top) / static_cast<float>(rows);
  const char* all_names[] = {"m", "l", "u"};
  const char* const* names = raw ? all_names + 1 : all_names;
  for (int k = 0; k < rows; ++k) {
    SceneText t{std::string("acc.") + names[k], ax, row_top + row * static_cast<float>(k), size, pal.state_term,
                std::string(names[k]) + " = " + q.at(names[k])};
    t.max_grow = (row - 0.15f) / size;
    t.key = projector;
    sc.texts.push_back(std::move(t));
  }

  // Legend along the bottom of the HBM panel.
  if (!projector) {
    sc.texts.push_back({"legend.read", 1, kH - 2.0f, 0.9f, pal.read_arrow, "\u2192 " + UiText(Str::legend_read, lang)});
    sc.texts.push_back({"legend.write", 16, kH - 2.0f, 0.9f, pal.write_arrow, "\u2192 " + UiText(Str::legend_write, lang)});
  }

  // The transfer of this event.
  const float sram_q_c = kSramX + 3.5f, sram_kv_c = kSramX + 12.5f;
  switch (ev.kind) {
    case engine::QueryEventKind::kStart:
      sc.arrows.push_back(OverTheTop("read.q", ArrowKind::kRead, 3.5f, sram_q_c, kRow1, kLane, pal.read_arrow,
                                     UiText(Str::read, lang) + " Q"));
      if (projector) sc.arrows.back().label_at.y = kLane + 0.2f;
      break;
    case engine::QueryEventKind::kLoadBlock:
      sc.arrows.push_back(OverTheTop("read.kv." + std::to_string(ev.block), ArrowKind::kRead, kv_center[ev.block],
                                     sram_kv_c, kRow1, kLane, pal.read_arrow,
                                     UiText(Str::read, lang) + " K/V " + std::to_string(ev.block)));
      if (projector) sc.arrows.back().label_at.y = kLane + 0.2f;
      break;
    case engine::QueryEventKind::kUpdate: {
      SceneArrow a;
      a.id = "merge." + std::to_string(ev.block);
      a.kind = ArrowKind::kMerge;
      a.points = {{sram_kv_c, kRow1 + kSramTileH}, {sram_kv_c, projector ? kAccTop : kRow2 - 1.5f}};
      a.color = pal.merge_arrow;
      a.label = UiText(raw ? Str::merge_raw : Str::merge, lang);
      a.label_at = {kSramX + 1.0f, projector ? kLane + 0.2f : kRow1 + kTileH + 0.15f};
      sc.arrows.push_back(std::move(a));
      break;
    }
    case engine::QueryEventKind::kWriteOutput: {
      SceneArrow a;
      a.id = "write.o";
      a.kind = ArrowKind::kWrite;
      a.points = {{kSramX + 1, kHbmRow2 + kHbmTileH2 / 2}, {kKvX1, kHbmRow2 + kHbmTileH2 / 2}};
      a.color = pal.write_arrow;
      // (A projector's strip below says o = u/l at the floor; the arrow's label found no room beside it.)
      if (!projector) a.label = UiText(Str::write, lang);
      a.label_at = {projector ? kKvX1 + 0.2f : 22.5f, projector ? kHbmRow2 + kHbmTileH2 / 2 + 0.35f : kRow2 + kTileH + 0.4f};
      sc.arrows.push_back(std::move(a));
      break;
    }
  }
  return sc;
}

}  // namespace bw::view
