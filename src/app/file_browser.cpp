// Ctrl+O: a path field that also filters, the lessons by title (the course's in teaching order) above
// the scenarios, recent files; ↑ ↓ pick, Enter opens the file typed or else the entry picked; see panels.h.
#include "app/panels.h"
#include "app/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>

namespace bw::app {

void DrawOpenBrowser(AppState& s) {
  if (!s.ui.show_open) return;
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(size.x * 0.5f, size.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(size.x * 0.6f, size.y * 0.7f), ImGuiCond_Always);
  ImGui::Begin(T(s, view::Str::open_title).c_str(), &s.ui.show_open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
  ImGui::TextUnformatted(T(s, view::Str::open_path).c_str());
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 6);
  if (ImGui::IsWindowAppearing()) {
    ImGui::SetKeyboardFocusHere();  // type a path (any script) or part of a title at once
    s.ui.open_pick = 0;
  }
  const std::string before = s.ui.open_path;
  const bool enter = ImGui::InputText("##path", &s.ui.open_path, ImGuiInputTextFlags_EnterReturnsTrue);
  if (s.ui.open_path != before) s.ui.open_pick = 0;
  ImGui::SameLine();
  const bool button = ImGui::Button(T(s, view::Str::open).c_str());
  // What the field filters: lessons first (the library's order), then scenarios.
  std::vector<const view::LibraryEntry*> listed;
  for (const auto& e : s.model.library)
    if (view::LibraryMatches(e, s.ui.open_path)) listed.push_back(&e);
  s.ui.open_pick = listed.empty() ? 0 : std::clamp(s.ui.open_pick, 0, static_cast<int>(listed.size()) - 1);
  const auto open = [&](const view::LibraryEntry& e) { OpenLibraryEntry(s, e); };
  if (enter || button) {
    std::error_code ec;
    if (!s.ui.open_path.empty() && std::filesystem::is_regular_file(s.ui.open_path, ec)) {  // a folder named by a filter word is no file
      if (OpenFile(s, s.ui.open_path)) s.ui.show_open = s.ui.show_library = false;
    } else if (!listed.empty()) {
      open(*listed[static_cast<size_t>(s.ui.open_pick)]);
    } else if (!s.ui.open_path.empty()) {
      OpenFile(s, s.ui.open_path);  // says why it does not open (file, reason)
    }
  }
  if (!s.ui.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
    Wrapped(s.ui.error);
    ImGui::PopStyleColor();
  }
  ImGui::Separator();
  ImGui::BeginChild("files");
  const std::string& lang = s.options.lang;
  for (const auto kind : {view::LibraryEntry::Kind::kLesson, view::LibraryEntry::Kind::kScenario}) {
    bool headed = false;
    for (size_t k = 0; k < listed.size(); ++k) {
      const auto& e = *listed[k];
      if (e.kind != kind) continue;
      if (!headed) {
        ImGui::TextDisabled("%s", T(s, kind == view::LibraryEntry::Kind::kLesson ? view::Str::open_lessons : view::Str::open_scenarios).c_str());
        headed = true;
      }
      const std::string name = std::filesystem::path(e.path).filename().string();
      const std::string label = e.title.In(lang) + "   \u00b7  " +
                                (kind == view::LibraryEntry::Kind::kLesson ? e.id + "  \u00b7  " + view::UiFormat(view::Str::library_steps, lang, {std::to_string(e.steps)})
                                                                           : name) +
                                "##" + e.path;
      const bool picked = static_cast<int>(k) == s.ui.open_pick;
      if (ImGui::Selectable(label.c_str(), picked)) {
        s.ui.open_pick = static_cast<int>(k);
        open(e);
      }
      if (picked) ImGui::SetScrollHereY(0.3f);
      if (!s.ui.show_open) break;
    }
    if (headed) ImGui::Spacing();
    if (!s.ui.show_open) break;
  }
  if (s.ui.show_open && !s.options.recent.empty()) {
    ImGui::TextDisabled("%s", T(s, view::Str::recent).c_str());
    for (const auto& f : s.options.recent)
      if (ImGui::Selectable((f + "##recent").c_str())) {
        s.ui.open_path = f;
        if (OpenFile(s, f)) {
          s.ui.show_open = s.ui.show_library = false;
          break;
        }
      }
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace bw::app
