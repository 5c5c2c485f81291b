// Where the main window puts its parts and how the diagram is laid out in its box, decided before
// anything is drawn (issue 35, item 3). No ImGui: DrawMainWindow and DrawDiagram call these, and so
// does the geometry test, which then reads the labels' places from DiagramPlan::placement.
#pragma once

#include <string>
#include <vector>

#include "session/app_state.h"
#include "view/layout.h"
#include "view/placement.h"
#include "view/scene.h"

namespace bw::app {

// What the window measured for its layout: its content region (pixels), the top bar's and
// timeline's font (Fonts::chrome_px), the side panel's least width (PanelsLeastWidth) and the
// window's height (the floors follow it).
struct WindowMeasures {
  float avail_w = 0, avail_h = 0;
  float chrome_px = 22;
  float side_min = 0;
  float display_h = 0;
};

// The main window's parts (view::ComputeLayout with the inputs the window gives it); sets the frame
// the next scene is laid out for (FrameCache::SetSceneFrame: the diagram box, Ctrl ±, the floors)
// and gives the text the height the scene leaves unused.
view::Layout LayOutMainWindow(AppState& s, const WindowMeasures& m);

// The label floors of a window `display_h` pixels high: a projector's, else a laptop's.
view::LabelFloors FloorsFor(const AppState& s, float display_h);

// The diagram as DrawDiagram paints it: the scene laid out for the current frame (SceneNow), fitted
// to `box` (pixels, centred across it), its labels placed for Ctrl ± `text_scale` and the floors.
struct DiagramPlan {
  view::Scene scene;
  view::Placement placement;   // its origin, em, highlights and every label's box
  float label_px = 0;          // the largest label size the painter uses (the atlas bakes it)
};
// Empty (no rects, em 1) without a scenario.
DiagramPlan PlanDiagram(const AppState& s, const view::TextMetrics& metrics, const view::Box& box, float text_scale,
                        float display_h);

}  // namespace bw::app
