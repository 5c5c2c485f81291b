// Drawn icons; see icons.h.
#include "app/icons.h"

#include <imgui.h>

namespace bw::app {

bool PlayPauseButton(bool playing) {
  const float h = ImGui::GetFrameHeight();
  const bool clicked = ImGui::Button(playing ? "##pause" : "##play", ImVec2(h * 1.2f, h));
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const ImVec2 c{(a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f};
  const float r = ImGui::GetFontSize() * 0.36f;  // half the icon's height
  const ImU32 col = ImGui::GetColorU32(ImGuiCol_Text);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (playing) {
    const float w = r * 0.55f, gap = r * 0.45f;
    dl->AddRectFilled({c.x - gap - w, c.y - r}, {c.x - gap, c.y + r}, col);
    dl->AddRectFilled({c.x + gap, c.y - r}, {c.x + gap + w, c.y + r}, col);
  } else {
    dl->AddTriangleFilled({c.x - r * 0.7f, c.y - r}, {c.x - r * 0.7f, c.y + r}, {c.x + r, c.y}, col);
  }
  return clicked;
}

}  // namespace bw::app
