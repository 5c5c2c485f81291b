// The GPU panel's three linked pictures (issue 33): the tile grid, the SM × time lanes and the warp
// timeline. Each is painted with the tile under the mouse (last frame's: hovered_) outlined, and says
// what is under the mouse in a tooltip (view/gpu_tooltip.h); the tile it finds (found_) is outlined
// in all three on the next frame. See gpu_panel.h.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/gpu_panel.h"
#include "app/widgets.h"
#include "view/gpu_text.h"
#include "view/gpu_tooltip.h"
#include "view/gpu_warps.h"

namespace bw::app {

namespace {

// Paints `sc` at the cursor with `highlight` outlined, reserves its box, and returns the id of the
// topmost rect under the mouse that `wanted` accepts ("" when none, or the box is not hovered).
template <class Wanted>
std::string PaintHoverable(const view::Scene& sc, const std::vector<std::string>& highlight, const Fonts& fonts,
                           const view::Palette& pal, const FillPass& fills, Painted& painted, Wanted wanted) {
  const float em = ImGui::GetFontSize();
  Painted p = PaintScene(ImGui::GetWindowDrawList(), sc, ImGui::GetCursorScreenPos(), em, fonts, pal, 1.0f, highlight, 1.0f, {}, fills);
  ImGui::Dummy(ImVec2(sc.width * em, sc.height * em));
  std::string hit;
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    for (auto it = p.rects.rbegin(); it != p.rects.rend() && hit.empty(); ++it)
      if (m.x >= it->x0 && m.x <= it->x1 && m.y >= it->y0 && m.y <= it->y1 && wanted(it->id)) hit = it->id;
  }
  painted.rects.insert(painted.rects.end(), std::make_move_iterator(p.rects.begin()), std::make_move_iterator(p.rects.end()));
  return hit;
}

std::string GridId(view::GpuTileRef t) { return "gpu." + std::to_string(t.row + 1) + "," + std::to_string(t.col + 1); }

template <class Bars>
std::vector<std::string> IdsOf(const Bars& bars, view::GpuTileRef t) {
  std::vector<std::string> ids;
  if (!t.Valid()) return ids;
  for (const auto& b : bars)
    if (b.tile == t) ids.push_back(b.id);
  return ids;
}

struct LaneBar {  // GpuBarTiles' pairs with the names IdsOf reads
  std::string id;
  view::GpuTileRef tile;
};

}  // namespace

std::string GpuPanel::KernelLabel(const std::string& lang) const {
  const std::string name = shape_.kernel.empty()      ? view::GpuText(view::GpuStr::kernel_old, lang)
                           : shape_.kernel == "hopper" ? view::GpuText(view::GpuStr::kernel_hopper, lang)
                                                       : shape_.kernel;
  return view::GpuFormat(view::GpuStr::kernel_label, lang, {name});
}

void GpuPanel::DrawGrid(AppState& s, const Fonts& fonts, float grid_px, Painted& painted) {
  const float em = ImGui::GetFontSize();
  const view::Scene grid = view::BuildGpuGridScene(frame_, grid_px / em, grid_px / em, s.options.lang, s.Palette());
  std::vector<std::string> hl;
  if (hovered_.Valid()) hl.push_back(GridId(hovered_));
  s.ui.gpu.highlighted.insert(s.ui.gpu.highlighted.end(), hl.begin(), hl.end());
  ImGui::BeginGroup();
  const std::string hit = PaintHoverable(grid, hl, fonts, s.Palette(), fills_, painted, [](const std::string& id) { return id.rfind("gpu.", 0) == 0; });
  ImGui::EndGroup();
  int i = 0, j = 0;
  if (!hit.empty() && std::sscanf(hit.c_str(), "gpu.%d,%d", &i, &j) == 2) {
    found_ = {i - 1, j - 1};
    ImGui::SetTooltip("%s", view::GpuTileTooltip(frame_, found_, s.options.lang).c_str());
  }
}

void GpuPanel::DrawLanes(AppState& s, const Fonts& fonts, float w_em, float h_em, Painted& painted) {
  const int group = view::SmsPerLane(std::max(frame_.sm_count, 1), h_em - 2.8f);
  const std::string& lang = s.options.lang;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w_em * ImGui::GetFontSize());  // beside the warp timeline: wrap, do not push it
  ImGui::TextWrapped("%s", group > 1 ? view::GpuFormat(view::GpuStr::lanes_grouped, lang, {std::to_string(group)}).c_str()
                                     : (T(s, view::Str::gpu_lanes) + " (" + view::GpuText(view::GpuStr::measured, lang) + ")").c_str());
  ImGui::PopTextWrapPos();
  // The replay's whole span, so the bars do not rescale as it plays.
  const std::uint64_t span = replay_ ? static_cast<std::uint64_t>(clock_.span_ns) : 0;
  view::GpuBarTiles pairs;
  const view::Scene lanes = view::BuildSmLanesScene(frame_, span, w_em, h_em, lang, s.Palette(), group, &pairs);
  std::vector<LaneBar> bars;
  bars.reserve(pairs.size());
  for (auto& [id, t] : pairs) bars.push_back({std::move(id), t});
  const std::vector<std::string> hl = IdsOf(bars, hovered_);
  s.ui.gpu.highlighted.insert(s.ui.gpu.highlighted.end(), hl.begin(), hl.end());
  const std::string hit = PaintHoverable(lanes, hl, fonts, s.Palette(), fills_, painted,
                                         [](const std::string& id) { return id.rfind("lane.", 0) == 0; });
  if (hit.empty()) return;
  const auto b = std::find_if(bars.begin(), bars.end(), [&](const LaneBar& x) { return x.id == hit; });
  if (b == bars.end()) return;
  found_ = b->tile;
  ImGui::SetTooltip("%s", view::GpuTileTooltip(frame_, found_, lang).c_str());
}

const cuda::RunSummary* GpuPanel::WarpRun() const {
  if (replay_) return &*replay_;
  if (live_ && done_ && totals_) return &*totals_;
  return nullptr;
}

void GpuPanel::DrawWarps(AppState& s, const Fonts& fonts, float w_em, Painted& painted) {
  const cuda::RunSummary* run = WarpRun();
  if (run == nullptr) return;
  std::vector<view::WarpBar> bars;
  // Two CTAs over the whole run (the sampled CTAs look alike) and, where 64 tiles make the bars too thin
  // to read, a zoom on a few tiles of the first (gpu_warps.h).
  const view::Scene sc = view::BuildWarpTimelineScene(*run, 2, w_em, s.options.lang, s.Palette(), &bars);
  const std::vector<std::string> hl = IdsOf(bars, hovered_);
  s.ui.gpu.highlighted.insert(s.ui.gpu.highlighted.end(), hl.begin(), hl.end());
  const std::string hit = PaintHoverable(sc, hl, fonts, s.Palette(), fills_, painted,
                                         [](const std::string& id) { return id.rfind("warp.", 0) == 0; });
  if (hit.empty()) return;
  const auto b = std::find_if(bars.begin(), bars.end(), [&](const view::WarpBar& x) { return x.id == hit; });
  if (b == bars.end()) return;
  found_ = b->tile;
  ImGui::SetTooltip("%s\n%s", view::GpuWarpTooltip(run->warp_phases[b->record], s.options.lang).c_str(),
                    view::GpuTileTooltip(frame_, found_, s.options.lang).c_str());
}

}  // namespace bw::app
