// The library, the start screen: the course's lessons (and any other shipped lesson) as cards —
// title in the UI's language, what it covers, its steps and planned minutes — keyboard first: the
// arrows pick, Enter or PageDown opens, typed text filters (view/library.h), Esc goes to the lesson
// behind it. Drawn instead of the lesson (DrawMainWindow), like the title card.
#include "app/panels.h"
#include "app/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <exception>

#include "app/painter.h"
#include "view/lesson_model.h"

namespace bw::app {

namespace {

// The lesson's first step as its scenario starts (view::Scene), cached; null when it does not load.
std::shared_ptr<const view::Scene> Thumbnail(AppState& s, const view::LibraryEntry& e) {
  if (e.kind != view::LibraryEntry::Kind::kLesson) return nullptr;
  const std::string key = e.path + "|" + s.options.lang + (s.options.projector ? "|p" : "");
  auto it = s.ui.library_thumbs.find(key);
  if (it != s.ui.library_thumbs.end()) return it->second;
  std::shared_ptr<const view::Scene> scene;
  try {
    const view::LessonModel m = view::LoadLessonModel(e.path, s.model.options);
    if (!m.lesson.steps.empty()) scene = std::make_shared<view::Scene>(m.ScenarioOf(0).BuildScene(0, s.options.lang, s.Palette()));
  } catch (const std::exception&) {  // opening it says why; the card shows no picture
  }
  return s.ui.library_thumbs[key] = scene;
}

}  // namespace

void DrawLibrary(AppState& s, const Fonts& fonts, float width, float height, const FillPass& fills) {
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
  // A card holds its title, two lines of what it covers and its steps and minutes (≈ 4.3 lines of the
  // text font). Every card on one screen where that fits, a column more if it must (a projector
  // showed 8 of the course's 10 lessons, the rest behind a scrollbar a clicker cannot reach).
  const float least_h = fonts.text_px * 4.3f;
  int columns = std::clamp(static_cast<int>(avail_w / (fonts.text_px * 16)), 1, 5);
  const auto rows_for = [&](int c) { return (static_cast<int>(shown.size()) + c - 1) / c; };
  while (columns < 5 && static_cast<float>(rows_for(columns)) * (least_h + style.ItemSpacing.y) > avail_h &&
         avail_w / static_cast<float>(columns + 1) >= fonts.text_px * 12)
    ++columns;
  const int rows = rows_for(columns);
  s.ui.library_columns = columns;
  const float card_w = (avail_w - style.ItemSpacing.x * static_cast<float>(columns - 1)) / static_cast<float>(columns);
  const float card_h = std::max(least_h, (avail_h - style.ItemSpacing.y * static_cast<float>(rows)) / static_cast<float>(rows));
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
    // The picture on the card's right, the words on its left.
    const auto thumb = Thumbnail(s, e);
    const ImVec2 inner = ImGui::GetContentRegionAvail();
    const float thumb_w = thumb ? std::min(inner.x * 0.36f, inner.y * 1.8f) : 0.0f;
    if (thumb && thumb->width > 0 && thumb->height > 0) {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      const view::Box box{0, 0, thumb_w, inner.y};
      const float em = std::min(view::FitEm(box, thumb->width, thumb->height), thumb_w / thumb->width);
      const ImVec2 origin(at.x + inner.x - thumb->width * em, at.y + (inner.y - thumb->height * em) / 2);
      PaintScene(ImGui::GetWindowDrawList(), *thumb, origin, em, fonts, pal, 1.0f, {}, 1.0f, {}, fills);
    }
    ImGui::BeginChild("words", ImVec2(inner.x - thumb_w - (thumb ? style.ItemSpacing.x : 0.0f), inner.y), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBackground |
                          ImGuiWindowFlags_NoMouseInputs);  // a click on the words is a click on the card
    // The title in the text font, the rest in the body font: with a picture beside them, the
    // projector's larger sizes overflowed the card.
    ImGui::PushFont(fonts.text);
    Wrapped((e.course_lesson >= 0 ? std::to_string(e.course_lesson + 1) + ". " : std::string()) + e.title.In(lang));
    ImGui::PopFont();
    ImGui::PushFont(fonts.body);
    // The steps and minutes on the card's last line whatever the title's length; what the lesson
    // covers in the lines between, cut at a line's end where the card has no more room.
    const std::string steps = e.minutes > 0
                                  ? view::UiFormat(view::Str::card_steps_minutes, lang, {std::to_string(e.steps), std::to_string(e.minutes)})
                                  : view::UiFormat(view::Str::library_steps, lang, {std::to_string(e.steps)});
    const std::string meta = e.id + "  \u00b7  " + steps;
    const float words_w = ImGui::GetContentRegionAvail().x;
    const float meta_h = static_cast<float>(WrapLines(meta, words_w).size()) * ImGui::GetTextLineHeightWithSpacing();
    const float meta_y = std::max(ImGui::GetCursorPosY(), inner.y - meta_h);
    if (!e.covers.zh.empty()) {
      const int room = static_cast<int>((meta_y - ImGui::GetCursorPosY()) / ImGui::GetTextLineHeightWithSpacing());
      std::vector<std::string> lines = WrapLines(e.covers.In(lang), words_w);
      if (static_cast<int>(lines.size()) > room) {
        lines.resize(static_cast<size_t>(std::max(room, 0)));
        if (!lines.empty()) lines.back() += "\u2026";
      }
      for (const auto& l : lines) Said(l);
    }
    ImGui::SetCursorPosY(meta_y);
    ImGui::PushStyleColor(ImGuiCol_Text, ToImColor(pal.read_arrow));
    Wrapped(meta);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::EndChild();
    ImGui::EndChild();
    if (ImGui::IsItemClicked()) {  // a click picks and opens, as Enter does
      s.ui.library_pick = static_cast<int>(k);
      LibraryOpen(s);
    }
    // The picked card in view: when the list appears and whenever the arrows move the pick (the
    // cards below the first rows were out of reach of a clicker).
    if (picked && (ImGui::IsWindowAppearing() || s.ui.library_scrolled_to != s.ui.library_pick)) {
      ImGui::SetScrollHereY(0.5f);
      s.ui.library_scrolled_to = s.ui.library_pick;
    }
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(2);
    ImGui::PopID();
    if (!s.ui.show_library) break;  // opened: the list is gone
  }
  ImGui::EndChild();
}

}  // namespace bw::app
