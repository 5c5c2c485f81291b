// The scene: what the diagram shows for one trace event, as plain records — rectangles (tiles),
// arrows (transfers) and text — in font units (em), no ImGui. The painter in src/app turns it into
// draw calls; tests check it without a window; the app's --dump-scene writes it as JSON.
// Colour is never the only signal: every tile also carries a state label, and masked tiles a hatch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/single_query.h"
#include "view/ui_text.h"

namespace bw::view {

struct Color {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  bool operator==(const Color&) const = default;
};

enum class TileState { kNone, kPending, kInSram, kProcessed, kMasked, kWritten, kNotWritten, kNotStored };
const char* ToString(TileState s);

struct Palette {
  Color background, panel_hbm, panel_sram, border, text, text_muted;
  Color pending, in_sram, processed, masked, written, not_written;
  Color read_arrow, write_arrow, merge_arrow;
  // The merge equation strip and the balance (merge_views.h): terms that come from the running
  // state (the accumulator box's m, l, u) and from the block in SRAM (its m_b, l_b, u_b), and the
  // wrong merge (purple with ×, never red).
  Color state_term, block_term, wrong;
  float line_em;  // stroke width in em
};
Palette ClassroomPalette();   // light background, high contrast: readable when projected
Palette ProjectorPalette();   // the same hues, thicker lines and stronger borders

// How a tile in state `s` looks: the one mapping from state to fill, hatch and dash, used by every
// scene builder (builders may drop the hatch or dash on cells too small to show it).
struct TileStyle {
  Color fill;
  bool hatched = false;   // masked, not stored
  bool dashed = false;    // not written yet, not stored
};
TileStyle Style(TileState s, const Palette& p);

struct SceneRect {
  std::string id;        // "hbm", "hbm.q", "hbm.kv.2", "hbm.o", "hbm.sp", "sram", "sram.q", "sram.kv", "sram.acc"
  float x = 0, y = 0, w = 0, h = 0;   // em, origin top-left of the diagram
  Color fill, border;
  float border_em = 0.08f;
  TileState state = TileState::kNone;
  bool hatched = false;   // a pattern beside the colour (masked / not stored)
  bool dashed = false;
  std::string label;      // big label: "K/V 2", "Q", "O"
  std::string sublabel;   // state in words: "done", "pending", "in SRAM", …
  bool answer = false;    // marks an answer (the balance's mean): hidden while the step's question is open
  // Its label's lines after the first are numbers a step is about (a block's w and v): in a scene laid
  // out for the floors (Scene::floors) they are painted at LabelFloors::key where they fit.
  bool key_lines = false;
};

enum class ArrowKind { kRead, kWrite, kMerge };
struct ScenePoint {
  float x = 0, y = 0;     // em
};
struct SceneArrow {
  std::string id;         // "read.q", "read.kv.2", "merge.2", "write.o"
  ArrowKind kind;
  std::vector<ScenePoint> points;   // polyline, head at the last point (em)
  Color color;
  std::string label;
  ScenePoint label_at;    // top-left of the label (em)
};

// A run of a text in its own colour (an equation whose terms are coloured like the boxes they
// come from). The painter draws the spans one after another; `text` is their concatenation.
struct TextSpan {
  std::string text;
  Color color;
};

struct SceneText {
  std::string id;
  float x, y;             // em, top-left
  float size_em = 1.0f;   // multiple of the base font size
  Color color;
  std::string text;
  std::vector<TextSpan> spans = {};  // optional: `text` in coloured pieces
  bool answer = false;          // answers a comparison question: hidden while the step's question is open
  // The most the painter may enlarge it for Ctrl ± (0 = as far as it finds room). A text with a limit
  // is a row of a column (the accumulator's m, l, u): the painter never moves it (a moved row lands
  // beside or above another), and steps every text back when it finds no room where it is.
  float max_grow = 0;
  bool key = false;             // a number a step is about: LabelFloors::key (Scene::floors)
};

// What a scene builder is told about where the scene will be shown (issue 17, item 3): its box on
// screen and the Ctrl ± text scale. Builders that use it give text more room (taller accumulator rows,
// equations wrapped onto more lines) instead of leaving the painter to shrink enlarged text back.
struct SceneFrame {
  float width_px = 0, height_px = 0;   // the diagram's box in pixels; 0 = not known (tests, the CLI)
  float text_scale = 1;                // view::TextScale(font_px): 1 at the default size, up to 2
  bool projector = false;              // shown to a room (the projector's palette and text scale)
  // The painter holds the labels to LabelFloors (a projector's, or a laptop's): builders that can lay
  // out for them do (Scene::floors).
  bool floors = false;
  // The floors the painter will hold the labels to (px em; 0 = not known: a builder assumes a
  // projector's at 1080 rows) and the font's line height over its em (Noto Sans CJK: 1.448), so that a
  // builder can size its boxes for the lines the painter will draw (FloorLines).
  float floor_text_px = 0, floor_key_px = 0;
  float line_per_em = 1.448f;
  bool operator==(const SceneFrame&) const = default;
};

// The least sizes the painter draws a scene's labels at, in px em (the glyphs' ink: a full-width
// ideograph's advance, Fonts::Em), in a scene laid out for them (Scene::floors). Issue 29 measured a
// projector's back row at 1920×1080: nothing under 24 px em, the numbers a step is about at 36. A
// label that cannot be drawn that large where it belongs is drawn in a shorter form (its symbol for
// its state word) or left out — never smaller. 0: no floor (the painter's own 9 px minimum).
struct LabelFloors {
  float text = 0;   // px em: every label
  float key = 0;    // px em: SceneRect::key_lines, SceneText::key
};
// A projector's floors for a window `display_h` pixels high (24 and 36 px em at 1080 rows, in
// proportion above and below: a 4K projector's back row sees a 2160-row picture at the same size).
LabelFloors ProjectorFloors(float display_h);
// A laptop's (not projector): 14 px em at 720 rows for every label, in proportion above (issue 29: a
// student's 1280×720 laptop read "w 4, 1 · v 12, 9" at 7.5 px em).
LabelFloors DeskFloors(float display_h);

// A line of a label drawn at LabelFloors::text and at LabelFloors::key, as heights in a scene's em (the
// px per em it will be painted at): what a builder reserves so that the painter finds room for them.
struct FloorLines {
  float text = 0;   // em
  float key = 0;    // em
};
// At a projector's 1920×1080 with the single-query diagram 60 em across its 1334 px box (22 px per em).
inline constexpr FloorLines kProjectorFloorLines = {1.58f, 2.37f};
// The lines for a scene painted at `em_px` px per em under `frame`'s floors (kProjectorFloorLines where
// the frame gives none).
FloorLines FloorLinesAt(const SceneFrame& frame, float em_px);

struct Scene {
  float width = 0, height = 0;   // em
  // The Ctrl ± scale the builder already laid its text out for (1 = none): the painter enlarges the
  // labels only by what is left, text_scale(frame) / this.
  float text_scale = 1;
  // The builder laid the scene out for a projector's LabelFloors (SceneFrame::projector): the painter
  // holds every label to them. Scenes without it are painted as before (issue 29 lists them).
  bool floors = false;
  Color background;
  std::vector<SceneRect> rects;
  std::vector<SceneArrow> arrows;
  std::vector<SceneText> texts;

  const SceneRect* FindRect(const std::string& id) const;
  const SceneArrow* FindArrow(const std::string& id) const;
};

// The HBM/SRAM diagram for event `event` of `run`, labels in `lang` ("zh" or "en"). `text_scale` (1–2,
// SceneFrame::text_scale) enlarges the accumulator's m, l, u and gives their rows the height they need.
// `projector`: laid out for a projector's LabelFloors (taller HBM tiles, a block's w and v on lines of
// their own, no legend); the caller sets Scene::floors.
// `lines`: the floors' line heights the tiles are sized for (projector only; zero: kProjectorFloorLines) —
// a block's w and v and the accumulator's m, l, u at the key size, the written O on one key line where
// it fits.
Scene BuildQueryScene(const engine::SingleQueryRun& run, int event, const std::string& lang, const Palette& palette,
                      float text_scale = 1, bool projector = false, FloorLines lines = {});

// "w 2, 1  ·  v 10, 20": the keys [b, e) of `p` as a tile writes them, at most `max_detail` of each,
// then "…". `exact`: from p's exact copies; otherwise `shown` holds FormatDistinct(p.scores).
std::string KeyInputs(const engine::SingleQueryProblem& p, bool exact, const std::vector<std::string>& shown, int b, int e,
                      int max_detail = 16);

// A text's width in em at size 1, estimated without a font (a builder deciding whether an equation
// fits on one line): CJK and full-width characters 1, the rest 0.56. The painter measures exactly.
float EstimateWidthEm(const std::string& utf8);
// `utf8` broken into lines of at most `width_em` (EstimateWidthEm at size 1), after a space or beside
// a wide glyph, never before closing punctuation ("）", "，", "。" …) or after an opening bracket; a
// word longer than the width runs on, up to twice the width, and is cut there. Lines neither start nor end with a space.
// max_lines > 0: at most max_lines + 1 lines are returned (one more says there is more to the text),
// and only the part of `utf8` that can reach them is read.
std::vector<std::string> WrapEstimated(const std::string& utf8, float width_em, size_t max_lines = 0);

// Around its rectangles a scene keeps this many em free: a rectangle's border and the step's
// highlight outline (painted up to 0.34 em outside the rectangle) are not cut off at the box's edge.
inline constexpr float kSceneEdgeEm = 0.35f;
// Grows the scene on each side where a rectangle comes closer than kSceneEdgeEm to its edge (the MoE
// picture's shared bar and experts span its whole width), moving everything in by as much. Scenes
// that already keep the margin are unchanged. The frame cache applies it to every scene it shows.
void PadSceneEdges(Scene& scene);

// What a tile keeps as it gets small, and how its border is drawn (TileRect). A tile below a
// threshold (em) drops that detail: a hatch or dash too fine to read, a label or sublabel that
// cannot fit. The default keeps everything at any size, with the palette's border.
struct TileFit {
  float hatch_min_h = 0;                      // hatched only from this height
  float dash_min_h = 0;                       // dashed only from this height
  float label_min_h = 0, label_min_w = 0;     // the label only from this height and width
  float sublabel_min_h = 0;                   // the sublabel only from this height
  float thin_below_h = 0, thin_border_em = 0; // below this height the border is thin_border_em wide
  float border_scale = 1;                     // otherwise the palette's line_em times this
  bool written_border = true;                 // a written tile's border in the write colour
};
// The big tiles of the single-query, decode and ring diagrams: everything, the written border.
inline constexpr TileFit kDiagramTile = {};
// The cells of a grid of many (the attention diagrams' HBM columns and tile grid, forward and
// backward): the hatch from 0.9 em high, the dash from 0.8, the label from 1.1 × 1.6 em, the
// sublabel from 2.2; a hairline border under 0.8 em, else 0.6 of the palette's; no write colour.
inline constexpr TileFit kGridCell = {0.9f, 0.8f, 1.1f, 1.6f, 2.2f, 0.8f, 0.03f, 0.6f, false};
// The MoE pictures' boxes (tokens, experts, devices, their load): 0.6 of the palette's border.
inline constexpr TileFit kBoxTile = {0, 0, 0, 0, 0, 0, 0, 0.6f, false};

// The one tile builder: a diagram tile in state `s` — fill, hatching and dash from the state's style
// (Style), the border and what a small tile drops from `fit`; `sublabel` under the label (usually
// StateWord(s, lang), which kNone leaves empty). Sizes in em. Every scene builds its tiles with it.
SceneRect TileRect(std::string id, float x, float y, float w, float h, TileState s, const Palette& p, std::string label,
                   std::string sublabel, const TileFit& fit = kDiagramTile);
// A box that has a state only at times (the MoE pictures' tokens, experts, devices): in `fill` while
// it has none (kNone), else its state's tile (TileRect with kBoxTile); no labels. Sizes in em.
SceneRect BoxRect(std::string id, float x, float y, float w, float h, Color fill, const Palette& p,
                  TileState s = TileState::kNone);
// A background panel (HBM, SRAM …) in `fill` with the palette's border. Sizes in em.
SceneRect PanelRect(std::string id, float x, float y, float w, float h, Color fill, const Palette& p);

// The state in words ("done", "pending", "in SRAM", …) — shown beside every colour.
std::string StateWord(TileState s, const std::string& lang);
// The same in one short word, for small grid cells ("done", "skip", "now", "to do").
std::string ShortStateWord(TileState s, const std::string& lang);
// The state's symbol, drawn beside its word and kept when the word does not fit: ○ pending,
// ◆ in SRAM, ✓ done, ／ masked, ▼ written, ◇ not written, □ not stored. Every category has its own,
// so a colour-blind student or a washed-out projector loses nothing ("" for kNone).
const char* StateBadge(TileState s);

}  // namespace bw::view
