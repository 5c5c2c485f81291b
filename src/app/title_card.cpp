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

// The course's end card: the course's title, "the end", the lessons and minutes, and what the lecture
// went through, one entry a lesson — every lesson, in two columns where one does not fit the height
// (one column with a fixed top cut the list at 12 of 13 lessons at 1080p and 720p); the whole block
// measured first and placed in the middle of the height, as the title card is.
void DrawEndCard(const AppState& s, const Fonts& fonts, float width, float height) {
  const auto& course = *s.model.course;
  const std::string& lang = s.options.lang;
  const float column = std::min(width * 0.88f, fonts.text_px * 48);
  int minutes = 0;
  for (const auto& e : course.course.lessons) minutes += e.minutes;
  const int n = course.LessonCount();
  const auto entry = [&](int i) { return std::to_string(i + 1) + ". " + course.outlines[static_cast<size_t>(i)].title.In(lang); };
  ImGui::BeginChild("end_card", ImVec2(width, height), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const float left = std::max(0.0f, (ImGui::GetWindowWidth() - column) * 0.5f);
  // `record`: the drawing pass (the measuring one puts nothing in the TextLog).
  const auto centred = [&](const std::string& text, float x0, float w, bool record) {
    for (const auto& line : WrapLines(text, w)) {
      ImGui::SetCursorPosX(x0 + std::max(0.0f, (w - ImGui::CalcTextSize(line.c_str()).x) * 0.5f));
      if (record) Said(line);
      else ImGui::TextUnformatted(line.c_str());
    }
  };
  // The list: `cols` columns side by side (left to right, top to bottom in each), from y = the cursor.
  const auto list = [&](int cols, bool record) {
    const float gap = fonts.text_px;
    const float w = cols == 1 ? column : (column - gap) / static_cast<float>(cols);
    const int per = (n + cols - 1) / cols;
    const float y0 = ImGui::GetCursorPosY();
    float y_end = y0;
    for (int c = 0; c < cols; ++c) {
      ImGui::SetCursorPosY(y0);
      for (int i = c * per; i < std::min(n, (c + 1) * per); ++i) centred(entry(i), left + static_cast<float>(c) * (w + gap), w, record);
      y_end = std::max(y_end, ImGui::GetCursorPosY());
    }
    ImGui::SetCursorPosY(y_end);
  };
  const auto block = [&](int cols, bool record) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
    ImGui::PushFont(fonts.text);
    centred(course.course.title.In(lang), left, column, record);
    ImGui::PopFont();
    ImGui::PopStyleColor();
    ImGui::Dummy(ImVec2(0, fonts.text_px * 0.6f));
    ImGui::PushFont(fonts.large);
    ImGui::SetWindowFontScale(1.5f);
    centred(view::UiText(view::Str::card_course_end, lang), left, column, record);
    ImGui::SetWindowFontScale(1.0f);
    ImGui::PopFont();
    ImGui::Dummy(ImVec2(0, fonts.text_px * 0.5f));
    ImGui::PushFont(fonts.text);
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(30, 101, 216, 255));
    centred(view::UiFormat(view::Str::card_course_total, lang, {std::to_string(n), std::to_string(minutes)}), left, column, record);
    ImGui::PopStyleColor();
    list(cols, record);
    ImGui::Dummy(ImVec2(0, fonts.text_px * 0.6f));
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
    centred(view::UiText(view::Str::card_end_back, lang), left, column, record);
    ImGui::PopStyleColor();
    ImGui::PopFont();
  };
  const float top = ImGui::GetCursorPosY();
  const auto measure = [&](int cols) {
    ImGui::PushClipRect(ImVec2(0, 0), ImVec2(0, 0), false);  // the measuring pass draws nothing
    block(cols, false);
    ImGui::PopClipRect();
    const float h = ImGui::GetCursorPosY() - top;
    ImGui::SetCursorPosY(top);
    return h;
  };
  int cols = 1;
  while (cols < 3 && measure(cols) > height) ++cols;
  ImGui::SetCursorPosY(top + std::max(0.0f, (height - measure(cols)) * 0.45f));
  block(cols, true);
  ImGui::EndChild();
}

}  // namespace bw::app
