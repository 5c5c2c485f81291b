// The main window's layout and the diagram's plan, before drawing; see diagram_layout.h.
#include "app/diagram_layout.h"

#include <algorithm>

#include "session/shown.h"

namespace bw::app {

view::LabelFloors FloorsFor(const AppState& s, float display_h) {
  return s.options.projector ? view::ProjectorFloors(display_h) : view::DeskFloors(display_h);
}

view::Layout LayOutMainWindow(AppState& s, const WindowMeasures& m) {
  const auto* cur = s.Current();
  view::LayoutInput in;
  in.width = m.avail_w;
  in.height = m.avail_h;
  in.font_px = s.FontPx();  // physical: the logical setting × the content scale
  in.chrome_px = m.chrome_px;
  in.projector = s.options.projector;
  in.presenter = s.ui.presenter;
  in.heatmap = cur && cur->HeatmapAt(s.ui.event).has_value();
  // A projector shows no empty panel: while the open question conceals every section (RC-T3/b0),
  // the diagram and the step text take its width, and the panel comes back with the answer.
  in.side = !(s.options.projector && PanelsNow(s).empty());
  // A projector's table keeps its numbers whole at 24 px em: the panel widens for it (MASK/k3's six
  // columns broke "0.7071" in two). So does a laptop's, at its own floor (MASK/k3's "0.7071" broke
  // into "0.707 / 1" at 1280×720).
  in.side_min = m.side_min;
  view::Layout L = view::ComputeLayout(in);
  // The scene is laid out for the whole diagram box (Ctrl + may use its spare height); what it then
  // leaves unused goes to the step text below.
  // (With the floors DrawDiagram paints at, for the boxes' sizes, and Noto Sans CJK's line over its em
  // as designed, 1.448 — not the baked font's measured ratio, which differs a little between the
  // desktop and the web edition and made their layouts, and so their text pages, differ.)
  const view::LabelFloors label_floors = FloorsFor(s, m.display_h);
  s.frame.SetSceneFrame({L.diagram.w, L.diagram.h, s.DiagramTextScale(), s.options.projector, /*floors=*/true, label_floors.text,
                         label_floors.key, 1.448f});
  if (cur) view::GiveUnusedDiagramHeight(L, s.frame.Scene(s).width, s.frame.Scene(s).height);
  return L;
}

DiagramPlan PlanDiagram(const AppState& s, const view::TextMetrics& metrics, const view::Box& box, float text_scale,
                        float display_h) {
  DiagramPlan plan;
  if (!s.Current()) return plan;
  // The scene as its builder laid it out for the frame the caller set (FrameCache::SetSceneFrame: the
  // box and the Ctrl ± scale; a kind that does not use them leaves the enlarging to the painter).
  plan.scene = SceneNow(s);
  const view::Scene& scene = plan.scene;
  view::PlaceInput in;
  // The scene fills its box (centred across it): its scale follows the window, not the font.
  in.em = view::FitEm({0, 0, box.w, box.h}, scene.width, scene.height);
  in.text_scale = text_scale / scene.text_scale;  // what is left for the painter to enlarge (or shrink: Ctrl −)
  plan.label_px = in.em * 1.15f * text_scale;      // the largest label size the painter uses
  in.origin = {box.x + std::max(0.0f, (box.w - scene.width * in.em) / 2), box.y};
  // The step's highlights apply at the step's own event (not while scrubbing away from it).
  // (A lesson must not highlight its own question's answer: the lesson tests check MOE's.)
  if (const auto* st = s.CurrentStep(); st && s.ui.event == s.model.lesson->EventOf(s.ui.step)) in.highlight = st->highlight;
  // A projector's floors (issue 29), for the scenes laid out for them.
  in.floors = FloorsFor(s, display_h);
  plan.placement = view::PlaceLabels(scene, metrics, in);
  return plan;
}

}  // namespace bw::app
