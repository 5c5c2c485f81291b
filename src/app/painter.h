// The painter: turns a view::Scene (em units) into ImDrawList calls. The only place the diagram
// touches ImGui. Returns where each rectangle landed in pixels (for --dump-scene and the tests).
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "app/fonts.h"
#include "view/scene.h"

namespace bw::app {

struct PaintedRect {
  std::string id;
  std::string state;
  float x0, y0, x1, y1;   // framebuffer pixels, origin top-left
  view::Color fill;
};

struct PaintedArrow {
  std::string id;
  std::vector<ImVec2> points;   // framebuffer pixels, shaft start … tip
  view::Color color;
};

struct Painted {
  std::vector<PaintedRect> rects;
  std::vector<PaintedArrow> arrows;
};

// Paints `scene` with its top-left at `origin` (pixels) and 1 em = `em_px` pixels. Arrows are drawn
// up to `arrow_progress` (0–1) of their length: the transfer animation.
// `highlight`: ids of rectangles the lesson step points at, drawn with a thick outline.
Painted PaintScene(ImDrawList* dl, const view::Scene& scene, ImVec2 origin, float em_px, const Fonts& fonts,
                   const view::Palette& palette, float arrow_progress = 1.0f,
                   const std::vector<std::string>& highlight = {});

ImU32 ToImColor(view::Color c);

}  // namespace bw::app
