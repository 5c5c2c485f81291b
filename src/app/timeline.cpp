// The timeline: every trace event as a slider, block ticks and lesson step marks; see panels.h.
#include "app/panels.h"
#include "app/icons.h"
#include "session/replay_clock.h"
#include "app/widgets.h"

#include <imgui.h>

#include <algorithm>

#include "view/scenario_model.h"

namespace bw::app {

namespace {

// While the GPU panel shows a recording, the timeline is the replay's scrubber (replay_clock.h).
void DrawGpuTimeline(AppState& s) {
  ReplayClock& c = s.ui.gpu_replay;
  if (PlayPauseButton(c.playing)) ToggleGpuReplay(s);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  float pos_us = static_cast<float>(c.position_ns * 1e-3);
  ImGui::PushAllowKeyboardFocus(false);   // Tab made the slider a text field (see DrawTimeline)
  if (ImGui::SliderFloat("##gpu_timeline", &pos_us, 0.0f, static_cast<float>(c.span_ns * 1e-3), GpuTimelineLabel(s).c_str()))
    ScrubGpuReplay(s, SliderUsToNs(pos_us, c.span_ns));
  ImGui::PopAllowKeyboardFocus();
  ImGui::Dummy(ImVec2(0, 10));
}

}  // namespace

void DrawTimeline(AppState& s) {
  if (TimelineScrubsGpu(s)) return DrawGpuTimeline(s);
  const auto* cur = s.Current();
  if (!cur) return;
  const int n = cur->EventCount();
  int e = s.ui.event;
  if (PlayPauseButton(s.ui.playing)) TogglePlay(s);  // drawn: the font has no pause sign
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  const std::string label = std::to_string(s.ui.event + 1) + " / " + std::to_string(n) + "   " + cur->EventTitle(s.ui.event, s.options.lang);
  // Not a Tab stop: Tab turned the slider into a text field that took the typed answer and the
  // clicker's PageUp/PageDown until Esc (issue 29's walk-through); Tab now reaches the answer field.
  ImGui::PushAllowKeyboardFocus(false);
  if (ImGui::SliderInt("##timeline", &e, 0, n - 1, "")) SetEvent(s, e);
  ImGui::PopAllowKeyboardFocus();
  // Block boundaries as grey ticks, lesson steps as blue triangles, under the slider.
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  auto* dl = ImGui::GetWindowDrawList();
  // The label beside the grab, never on it (PlaceTimelineLabel); the grab drawn where it now is.
  {
    const auto [g0, g1] = SliderIntGrab(min.x, max.x, s.ui.event, n, ImGui::GetStyle().GrabMinSize);
    const float pad = ImGui::GetStyle().FramePadding.x;
    const TimelineLabelPlace at = PlaceTimelineLabel(min.x, max.x, g0, g1, ImGui::CalcTextSize(label.c_str()).x, pad);
    const std::string shown = ElideToWidth(label, at.room);
    const float y = min.y + (max.y - min.y - ImGui::GetFontSize()) * 0.5f;
    dl->AddText(ImVec2(at.x, y), ImGui::GetColorU32(ImGuiCol_Text), shown.c_str());
  }
  const float grab = ImGui::GetStyle().GrabMinSize;
  const auto x_of = [&](int ev) {
    return min.x + grab / 2 + (max.x - min.x - grab) * (n > 1 ? static_cast<float>(ev) / static_cast<float>(n - 1) : 0.f);
  };
  // Sized from the timeline's font (view::ChromePx: larger on a 4K screen), not in fixed pixels.
  const float f = ImGui::GetFontSize(), tick = 0.22f * f, tri = 0.42f * f;
  const auto marks = cur->BlockMarks();
  if (marks.size() < 2000)
    for (const auto& m : marks)
      dl->AddLine({x_of(m.event), max.y}, {x_of(m.event), max.y + tick}, IM_COL32(96, 96, 96, 255), std::max(1.0f, 0.05f * f));
  if (s.InLesson()) {
    for (size_t i = 0; i < s.model.lesson->lesson.steps.size(); ++i) {
      if (&s.model.lesson->ScenarioOf(static_cast<int>(i)) != cur) continue;
      const float x = x_of(s.model.lesson->EventOf(static_cast<int>(i)));
      dl->AddTriangleFilled({x, max.y + 1}, {x - tri / 2, max.y + 1 + tri}, {x + tri / 2, max.y + 1 + tri}, IM_COL32(30, 101, 216, 255));
    }
  }
  ImGui::Dummy(ImVec2(0, tri + 2));
}

}  // namespace bw::app
