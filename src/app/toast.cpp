// Toasts; see toast.h.
#include "app/toast.h"

#include <imgui.h>

namespace bw::app {

void ShowToast(AppState& s, const std::string& text, double now) {
  s.ui.toast = text;
  s.ui.toast_until = now + kToastSeconds;
  s.ui.fonts_dirty = true;  // a path may hold characters the atlas lacks
}

void DrawToast(AppState& s, double now) {
  if (s.ui.toast.empty()) return;
  if (now > s.ui.toast_until) {
    s.ui.toast.clear();
    return;
  }
  if (s.ui.blank) return;   // the blank screen (B) stays black: nothing over it for the class to read
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  // At the top, under the top bar: at the foot it covered the text pane's "PageUp (2/2)" mark and,
  // before that, the heatmap's legend (helpers); the top of the diagram holds only panel titles.
  // Over the diagram's column (the window less the side panel's 30 %), wrapped inside it: across the
  // whole width it covered the side panel's title (F5's one-screen warning).
  const float column = size.x * 0.68f;
  ImGui::SetNextWindowPos(ImVec2(column * 0.5f, ImGui::GetFontSize() * 1.8f), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(column * 0.96f, size.y * 0.3f));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(38, 50, 56, 240));
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 255, 255, 255));
  ImGui::Begin("##toast", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
  ImGui::PushTextWrapPos(column * 0.9f);
  ImGui::TextUnformatted(s.ui.toast.c_str());
  ImGui::PopTextWrapPos();
  ImGui::End();
  ImGui::PopStyleColor(2);
}

}  // namespace bw::app
