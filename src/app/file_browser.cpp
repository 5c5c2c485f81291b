// Ctrl+O: recent files, shipped lessons and scenarios, a path field; see panels.h.
#include "app/panels.h"
#include "app/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

namespace bw::app {

void DrawOpenBrowser(AppState& s, const std::vector<std::string>& files) {
  if (!s.ui.show_open) return;
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(size.x * 0.5f, size.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(size.x * 0.6f, size.y * 0.7f), ImGuiCond_Always);
  ImGui::Begin(T(s, view::Str::open_title).c_str(), &s.ui.show_open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
  ImGui::TextUnformatted(T(s, view::Str::open_path).c_str());
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 6);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();  // type a path (any script) at once
  const bool enter = ImGui::InputText("##path", &s.ui.open_path, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button(T(s, view::Str::open).c_str()) || enter) && !s.ui.open_path.empty()) {
    if (OpenFile(s, s.ui.open_path)) s.ui.show_open = false;
  }
  if (!s.ui.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
    Wrapped(s.ui.error);
    ImGui::PopStyleColor();
  }
  ImGui::Separator();
  ImGui::BeginChild("files");
  const auto list = [&](const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    ImGui::TextDisabled("%s", title);
    for (const auto& f : items)
      if (ImGui::Selectable(f.c_str())) {
        s.ui.open_path = f;
        if (OpenFile(s, f)) s.ui.show_open = false;
      }
    ImGui::Spacing();
  };
  list(T(s, view::Str::recent).c_str(), s.options.recent);
  list(T(s, view::Str::shipped).c_str(), files);
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace bw::app
