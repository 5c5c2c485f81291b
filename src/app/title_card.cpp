// The title card between two lessons of a course: what the next lesson is, what it covers, its steps
// and the minutes planned for it, large enough for the back row. Shown instead of the diagram when
// PageDown leaves a lesson's last step (AppState::OnTitleCard); the next PageDown begins the lesson.
#include "app/panels.h"
#include "app/widgets.h"

#include <imgui.h>

#include <algorithm>

namespace bw::app {

namespace {

// Centred lines of `text` in the current font, wrapped at `width`.
void Centred(const std::string& text, float width) {
  for (const auto& line : WrapLines(text, width)) {
    const float w = ImGui::CalcTextSize(line.c_str()).x;
    ImGui::SetCursorPosX(std::max(0.0f, (ImGui::GetWindowWidth() - w) * 0.5f));
    ImGui::TextUnformatted(line.c_str());
  }
}

}  // namespace

void DrawTitleCard(const AppState& s, const Fonts& fonts, float width, float height) {
  const auto& course = *s.model.course;
  const int i = s.ui.course_lesson;
  const auto& entry = course.course.lessons[static_cast<size_t>(i)];
  const auto& lesson = s.model.lesson->lesson;
  const std::string& lang = s.options.lang;
  const float column = std::min(width * 0.88f, fonts.text_px * 48);
  ImGui::BeginChild("title_card", ImVec2(width, height), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  // First measure, then place the block in the middle of the card's height: one pass draws it at the
  // top, invisible, to learn its height (ImGui lays out as it draws).
  const auto block = [&](bool steps, float g) {
    ImGui::SetWindowFontScale(g);
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
    ImGui::PushFont(fonts.text);
    Centred(course.course.title.In(lang) + "  \u00b7  " + view::UiFormat(view::Str::card_lesson_of, lang, {std::to_string(i + 1), std::to_string(course.LessonCount())}), column);
    ImGui::PopFont();
    ImGui::PopStyleColor();
    ImGui::Dummy(ImVec2(0, fonts.text_px * 0.6f));
    ImGui::PushFont(fonts.large);
    ImGui::SetWindowFontScale(1.5f * g);  // the lesson's title: about 2.4 × the body size
    Centred(lesson.title.In(lang), column);
    ImGui::SetWindowFontScale(g);
    ImGui::PopFont();
    ImGui::Dummy(ImVec2(0, fonts.text_px * 0.5f));
    ImGui::PushFont(fonts.large);
    Centred(entry.covers.In(lang), column);
    ImGui::PopFont();
    ImGui::Dummy(ImVec2(0, fonts.text_px * 0.5f));
    ImGui::PushFont(fonts.text);
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(30, 101, 216, 255));
    Centred(view::UiFormat(view::Str::card_steps_minutes, lang, {std::to_string(lesson.steps.size()), std::to_string(entry.minutes)}), column);
    ImGui::PopStyleColor();
    if (steps)
      for (const auto& st : lesson.steps) Centred(st.title.In(lang), column);
    ImGui::Dummy(ImVec2(0, fonts.text_px * 0.6f));
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
    // A student following a live class has no clicker: the card says who moves on, not which key.
    const bool following = s.ui.student.joined && s.ui.student.following && !s.ui.student.ended;
    Centred(view::UiText(following ? view::Str::card_following : i > 0 ? view::Str::card_next : view::Str::card_first, lang), column);
    if (i + 1 < course.LessonCount())
      Centred(view::UiText(view::Str::card_after, lang) + course.outlines[static_cast<size_t>(i + 1)].title.In(lang), column);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::SetWindowFontScale(1.0f);
  };
  const float top = ImGui::GetCursorPosY();
  const auto measure = [&](bool steps, float g) {
    ImGui::PushClipRect(ImVec2(0, 0), ImVec2(0, 0), false);  // the measuring pass draws nothing
    block(steps, g);
    ImGui::PopClipRect();
    const float h = ImGui::GetCursorPosY() - top;
    ImGui::SetCursorPosY(top);
    return h;
  };
  // The step titles only when the whole card fits with them (MOE has nine); then everything as large
  // as fills three quarters of the height, up to 1.3 × (the fonts are baked at 1 ×: more would blur).
  const bool steps = measure(true, 1.0f) <= height;
  const float g = std::clamp(0.75f * height / std::max(1.0f, measure(steps, 1.0f)), 1.0f, 1.3f);
  const float h = measure(steps, g);
  ImGui::SetCursorPosY(top + std::max(0.0f, (height - h) * 0.45f));
  block(steps, g);
  ImGui::EndChild();
}

void DrawEndCard(const AppState& s, const Fonts& fonts, float width, float height) {
  const auto& course = *s.model.course;
  const std::string& lang = s.options.lang;
  const float column = std::min(width * 0.88f, fonts.text_px * 48);
  int minutes = 0;
  for (const auto& e : course.course.lessons) minutes += e.minutes;
  ImGui::BeginChild("end_card", ImVec2(width, height), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::SetCursorPosY(std::max(0.0f, height * 0.12f));
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
  ImGui::PushFont(fonts.text);
  Centred(course.course.title.In(lang), column);
  ImGui::PopFont();
  ImGui::PopStyleColor();
  ImGui::Dummy(ImVec2(0, fonts.text_px * 0.6f));
  ImGui::PushFont(fonts.large);
  ImGui::SetWindowFontScale(1.5f);
  Centred(view::UiText(view::Str::card_course_end, lang), column);
  ImGui::SetWindowFontScale(1.0f);
  ImGui::PopFont();
  ImGui::Dummy(ImVec2(0, fonts.text_px * 0.5f));
  ImGui::PushFont(fonts.text);
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(30, 101, 216, 255));
  Centred(view::UiFormat(view::Str::card_course_total, lang, {std::to_string(course.LessonCount()), std::to_string(minutes)}), column);
  ImGui::PopStyleColor();
  // What the lecture went through, one line a lesson (as many as the card has room for).
  for (int i = 0; i < course.LessonCount(); ++i) {
    if (ImGui::GetCursorPosY() + 3 * ImGui::GetTextLineHeightWithSpacing() > height) break;
    Centred(std::to_string(i + 1) + ". " + course.outlines[static_cast<size_t>(i)].title.In(lang), column);
  }
  ImGui::Dummy(ImVec2(0, fonts.text_px * 0.6f));
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
  Centred(view::UiText(view::Str::card_end_back, lang), column);
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ImGui::EndChild();
}

}  // namespace bw::app
