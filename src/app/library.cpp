// The library, the start screen: the course's lessons (and any other shipped lesson) as cards —
// title in the UI's language, what it covers, its steps and planned minutes — keyboard first: the
// arrows pick, Enter or PageDown opens, typed text filters (view/library.h), Esc goes to the lesson
// behind it. Drawn instead of the lesson (DrawMainWindow), like the title card.
#include "app/panels.h"
#include "app/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace bw::app {

void DrawLibrary(AppState& s, const Fonts& fonts, float width, float height) {
  const std::string& lang = s.options.lang;
  ImGui::BeginChild("library", ImVec2(width, height), false);
  ImGui::PushFont(fonts.large);
  const std::string heading = s.model.course ? s.model.course->course.title.In(lang) : T(s, view::Str::library_title);
  ImGui::TextUnformatted(heading.c_str());
  ImGui::PopFont();
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
  Wrapped(T(s, view::Str::library_hint));
  ImGui::PopStyleColor();
  if (!s.ui.library_filter.empty()) {
    ImGui::PushFont(fonts.text);
    ImGui::TextUnformatted((T(s, view::Str::library_filter) + s.ui.library_filter + "_").c_str());
    ImGui::PopFont();
  }
  ImGui::Spacing();
  const auto shown = LibraryShown(s);
  if (shown.empty()) {
    ImGui::PushFont(fonts.text);
    Wrapped(T(s, view::Str::library_none));
    ImGui::PopFont();
    ImGui::EndChild();
    return;
  }
  s.ui.library_pick = std::clamp(s.ui.library_pick, 0, static_cast<int>(shown.size()) - 1);
  // Cards of about 24 em of the text font, as many per row as fit, as high as the rows leave room for.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float avail_w = ImGui::GetContentRegionAvail().x, avail_h = ImGui::GetContentRegionAvail().y;
  const int columns = std::clamp(static_cast<int>(avail_w / (fonts.text_px * 16)), 1, 5);
  const int rows = (static_cast<int>(shown.size()) + columns - 1) / columns;
  s.ui.library_columns = columns;
  const float card_w = (avail_w - style.ItemSpacing.x * static_cast<float>(columns - 1)) / static_cast<float>(columns);
  const float card_h = std::max(fonts.text_px * 6.5f, (avail_h - style.ItemSpacing.y * static_cast<float>(rows)) / static_cast<float>(rows));
  const view::Palette pal = s.Palette();
  for (size_t k = 0; k < shown.size(); ++k) {
    const auto& e = s.model.library[static_cast<size_t>(shown[k])];
    const bool picked = static_cast<int>(k) == s.ui.library_pick;
    if (k % static_cast<size_t>(columns) != 0) ImGui::SameLine();
    ImGui::PushID(static_cast<int>(k));
    ImGui::PushStyleColor(ImGuiCol_Border, picked ? ToImColor(pal.read_arrow) : IM_COL32(160, 160, 160, 255));
    ImGui::PushStyleColor(ImGuiCol_ChildBg, picked ? IM_COL32(227, 239, 253, 255) : IM_COL32(255, 255, 255, 255));
    ImGui::PushStyleVar(ImGuiStyleVar_ChildBorderSize, picked ? 4.0f : 1.5f);
    ImGui::BeginChild("card", ImVec2(card_w, card_h), true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PushFont(fonts.large);
    Wrapped((e.course_lesson >= 0 ? std::to_string(e.course_lesson + 1) + ". " : std::string()) + e.title.In(lang));
    ImGui::PopFont();
    ImGui::PushFont(fonts.text);
    if (!e.covers.zh.empty()) Wrapped(e.covers.In(lang));
    ImGui::PushStyleColor(ImGuiCol_Text, ToImColor(pal.read_arrow));
    const std::string steps = e.minutes > 0
                                  ? view::UiFormat(view::Str::card_steps_minutes, lang, {std::to_string(e.steps), std::to_string(e.minutes)})
                                  : view::UiFormat(view::Str::library_steps, lang, {std::to_string(e.steps)});
    Wrapped(e.id + "  \u00b7  " + steps);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::EndChild();
    if (ImGui::IsItemClicked()) {  // a click picks and opens, as Enter does
      s.ui.library_pick = static_cast<int>(k);
      LibraryOpen(s);
    }
    if (picked && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(2);
    ImGui::PopID();
    if (!s.ui.show_library) break;  // opened: the list is gone
  }
  ImGui::EndChild();
}

}  // namespace bw::app
