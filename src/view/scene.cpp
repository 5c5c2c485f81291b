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

}  // namespace bw::view
