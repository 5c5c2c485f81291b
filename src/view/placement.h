// Label placement before painting (issue 35, item 3): where each of a scene's labels goes on screen,
// in pixels, and which are shortened or left out under the floors, and the fills' occlusion (which
// fill may go to the painter's fills' pass, where each surely covers) — plain data that the painter
// (src/app/painter.cpp) only paints, and that --dump-scene and the geometry test read.
//
// Labels never collide: a rectangle's label and state word are fitted inside it (smaller, or left
// out when they cannot be read); free texts and arrow labels move to the nearest free place that
// overlaps no other label and no arrow. Text is never placed outside the scene. In a scene laid out
// for them (Scene::floors) no label is placed under the floors: a shorter form, or none, instead.
#pragma once

#include <string>
#include <vector>

#include "view/scene.h"

namespace bw::view {

struct PxPoint {
  float x = 0, y = 0;
};

// A box in framebuffer pixels, origin top-left (Contains and Overlaps as Dear ImGui's ImRect).
struct PxBox {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool Contains(const PxBox& r) const { return r.x0 >= x0 && r.y0 >= y0 && r.x1 <= x1 && r.y1 <= y1; }
  bool Overlaps(const PxBox& r) const { return r.y0 < y1 && r.y1 > y0 && r.x0 < x1 && r.x1 > x0; }
};

// Liang–Barsky clipping: does the segment a→b pass through the box? (Labels keep off arrow shafts;
// the geometry test asks the same of the placed labels.)
bool SegmentHitsBox(PxPoint a, PxPoint b, const PxBox& r);

// The text measurements placement needs: the app's fonts (app::FontMetrics), or a test's stand-in.
class TextMetrics {
 public:
  virtual ~TextMetrics() = default;
  // The size (width, height) of one line of `text` at font size `px` (the line height).
  virtual PxPoint Measure(float px, const std::string& text) const = 0;
  // The glyphs' em over the font size (app::Fonts::em_ratio).
  virtual float EmRatio() const = 0;
};

// Where and how the scene is shown.
struct PlaceInput {
  PxPoint origin;            // the scene's top-left (pixels)
  float em = 1;              // pixels per em
  float text_scale = 1;      // Ctrl ±, what the builder left to enlarge (text_scale / Scene::text_scale)
  LabelFloors floors = {};   // held in a scene laid out for them (Scene::floors)
  std::vector<std::string> highlight = {};  // ids of the rectangles the step points at (labels keep off their outline)
};

// One piece of text on the diagram, placed.
struct PlacedLabel {
  std::string owner;   // "rect:ID", "sublabel:ID", "text:ID" or "arrow:ID"
  std::string text;
  PxBox box = {};      // where its line lies (pixels); drawn at (box.x0, box.y0)
  float px = 0;        // the font size (the line height)
  float em = 0;        // the glyphs' size (px × TextMetrics::EmRatio)
  int rect = -1;       // the rectangle (index in Scene::rects) it labels; -1: a free text or an arrow's label
  float plate_pad = -1;  // ≥ 0: a state word, on a light plate this far wider left and right (pixels)
  Color color = {};    // a free text's or arrow label's colour (a rectangle's labels take the palette's text colour)
  std::vector<TextSpan> spans = {};  // a free text's coloured pieces, drawn one after another
};

struct Placement {
  PlaceInput input;
  // Rectangles' labels in the scene's order of rectangles, then free texts and arrow labels in the
  // order they were placed.
  std::vector<PlacedLabel> labels;
  // Each rectangle's labels keep above this y (em, scene units): the first rectangle inside it, or a
  // text laid out inside it (the accumulator's rows).
  std::vector<float> label_bottom;
  // The fills' occlusion (issue 16), for the painter's fills' pass: where each opaque rectangle's fill
  // surely covers (inside it by its corner radius plus the anti-aliased edge; an empty box where it
  // covers nothing surely), and whether its fill may be queued in the pass, before everything else,
  // without changing a pixel (it lies inside each earlier outlined rectangle it touches — off its
  // border, corners, hatch and labels — and off every fill drawn in order before it).
  std::vector<PxBox> covers;
  std::vector<bool> fill_in_pass;

  PxPoint At(float x, float y) const { return {input.origin.x + x * input.em, input.origin.y + y * input.em}; }
  // The labels of rects[rect], or every free text and arrow label (rect = -1), in order.
  std::vector<const PlacedLabel*> LabelsOf(int rect) const;
  // The first label of `owner` ("rect:hbm.o", "text:acc.u", "arrow:write.o"), or null (none placed).
  const PlacedLabel* Find(const std::string& owner) const;
};

Placement PlaceLabels(const Scene& scene, const TextMetrics& metrics, const PlaceInput& in);

}  // namespace bw::view
