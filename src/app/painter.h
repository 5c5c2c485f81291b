// The painter: turns a view::Scene (em units) and its labels' placement (view::PlaceLabels, decided
// before painting: src/view/placement.h) into ImDrawList calls. The only place the diagram touches
// ImGui. Returns where each rectangle, arrow and label landed in pixels (for --dump-scene and the tests).
#pragma once

#include <imgui.h>
#include <imgui_internal.h>  // ImRect

#include <string>
#include <vector>

#include "app/fonts.h"
#include "view/placement.h"
#include "view/scene.h"

namespace bw::app {

struct PaintedRect {
  std::string id;
  std::string state;
  float x0, y0, x1, y1;   // framebuffer pixels, origin top-left
  view::Color fill;
  std::string badge;      // the state's symbol (view::StateBadge)
};

struct PaintedArrow {
  std::string id;
  std::vector<ImVec2> points;   // framebuffer pixels, shaft start … tip
  view::Color color;
};

// Every piece of text the painter put on the diagram, with the box it occupies (real glyph metrics).
struct PaintedLabel {
  std::string owner;      // "rect:ID", "sublabel:ID", "text:ID" or "arrow:ID"
  std::string text;
  float x0, y0, x1, y1;   // framebuffer pixels
  float px;               // the font size it was drawn at (ImGui's size: the line height, ≈ 1.45 em)
  float em;               // the glyphs' size: a full-width ideograph's advance (Fonts::Em)
};

// Every piece of text the ImGui panels drew (step text, question, side panels, heatmap caption),
// line by line, as Wrapped put it on screen: --dump-scene and the legibility test read it.
struct PaintedText {
  std::string region;     // the child window it is in: "text", "right", "heatmap", "title", "top"
  std::string text;
  float x0, y0, x1, y1;   // framebuffer pixels
  float px;               // the font size (line height)
  float em;               // the glyphs' size (Fonts::Em)
  enum class Role { kText, kValue, kHint };
  // kValue: a side panel's value (a number the step is about); kHint: how to go on (the reveal
  // button and its key hint, the page mark), not lesson content.
  Role role = Role::kText;
};

struct Painted {
  std::vector<PaintedRect> rects;
  std::vector<PaintedArrow> arrows;
  std::vector<PaintedLabel> labels;
  std::vector<PaintedText> texts;   // the panels' text (DrawMainWindow)
  float text_pane[4] = {0, 0, 0, 0};  // the step text's pane, x0 y0 x1 y1 (framebuffer pixels)
  float side_pane[4] = {0, 0, 0, 0};  // the side panel's (all 0 when there is none)
  float em = 0;           // pixels per em the scene was painted at
};

// The fonts' metrics for view::PlaceLabels: the baked font nearest in size, scaled.
class FontMetrics : public view::TextMetrics {
 public:
  explicit FontMetrics(const Fonts& fonts) : fonts_(fonts) {}
  view::PxPoint Measure(float px, const std::string& text) const override;
  float EmRatio() const override { return fonts_.em_ratio; }

 private:
  const Fonts& fonts_;
};

// The fills' pass (issue 16), given to each paint call: PaintScene queues the scene's background and
// the rectangles' fills before anything else it draws (an ImDrawListSplitter channel), after `begin`
// and followed by ImDrawCallback_ResetRenderState, and fills a panel only around the tiles that cover
// it (FillAround) — the app's is FillShader::Callback (AppRun::fill_pass, set once its GL context
// exists). A fill stays in the scene's order where moving it would change a pixel (it crosses an
// earlier rectangle's border, hatch or labels). Empty (the default; the app's --imgui-fills, tests
// without GL): everything in the scene's order, each fill whole, through ImGui's program — the same
// picture (App.FlatFillsDrawTheSamePixelsAsImGuisProgram).
struct FillPass {
  ImDrawCallback begin = nullptr;
  void* data = nullptr;
};

// Paints `scene` with its labels where `placed` put them (view::PlaceLabels: labels never collide,
// and none is under the floors; its origin, em and highlights — the rectangles the lesson step points
// at, drawn with a thick outline), its fills through `fills`. Arrows are drawn up to `arrow_progress`
// (0–1) of their length: the transfer animation.
Painted PaintScene(ImDrawList* dl, const view::Scene& scene, const view::Placement& placed, const Fonts& fonts,
                   const view::Palette& palette, float arrow_progress = 1.0f, const FillPass& fills = {});
// Places the labels (view::PlaceLabels with FontMetrics(fonts): `scene` with its top-left at `origin`
// (pixels), 1 em = `em_px` pixels, Ctrl ± `text_scale`, `floors`, `highlight`) and paints them.
Painted PaintScene(ImDrawList* dl, const view::Scene& scene, ImVec2 origin, float em_px, const Fonts& fonts,
                   const view::Palette& palette, float arrow_progress = 1.0f,
                   const std::vector<std::string>& highlight = {}, float text_scale = 1.0f,
                   view::LabelFloors floors = {}, const FillPass& fills = {});

ImU32 ToImColor(view::Color c);

// Fills the rectangle [a, b] (pixels, corner radius `rounding`) as one AddRectFilled would, except
// under `holes`: pixel rectangles that opaque fills queued later cover anyway. What is left is drawn
// as scissored copies of the same rounded rectangle (UncoveredParts of its pixel box, on whole
// pixels so that the scissors meet exactly), so every pixel shown is the same.
void FillAround(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float rounding, std::vector<ImRect> holes);

// The parts of `box` that none of `holes` covers, as disjoint axis-aligned rectangles (bands between
// the holes' edges, merged where a band repeats the one above). PaintScene fills the scene's
// background only there: the opaque rectangles painted later cover the rest.
std::vector<ImRect> UncoveredParts(const ImRect& box, const std::vector<ImRect>& holes);

}  // namespace bw::app
