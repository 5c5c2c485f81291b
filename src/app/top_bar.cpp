// Top bar (title, step count, buttons), error banner and status line; see panels.h (the ? overlay is
// drawn from the shortcut table, shortcuts.cpp).
#include "app/panels.h"
#include "app/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "classroom/student.h"

namespace bw::app {

namespace {

// A student in a live class (the web edition joined one): following or exploring, the button that
// switches, and the class's last word (reconnecting, ended, an answer refused).
void DrawClassBar(AppState& s) {
  auto& c = s.ui.student;
  if (!c.joined && c.line.empty()) return;
  std::string line;
  if (c.joined && !c.ended) {
    if (!c.connected) line = T(s, view::Str::student_reconnecting);
    else if (c.following) line = view::UiFormat(view::Str::student_following, s.options.lang, {c.code});
    else line = view::UiFormat(view::Str::student_exploring, s.options.lang, {c.step.empty() ? c.lesson : c.step});
  }
  if (!c.line.empty()) line += (line.empty() ? "" : "  \u00b7  ") + c.line;
  // Beside the title where it fits, else on a line of its own (a phone: the title fills the width).
  const std::string button = T(s, c.following ? view::Str::student_explore : view::Str::student_back);
  const float need = ImGui::CalcTextSize(line.c_str()).x + ImGui::CalcTextSize(button.c_str()).x + 4 * ImGui::GetStyle().ItemSpacing.x;
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < need) ImGui::NewLine();
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(20, 90, 170, 255));
  ImGui::TextUnformatted(line.c_str());
  ImGui::PopStyleColor();
  if (!c.joined || c.ended) return;
  ImGui::SameLine();
  if (c.following) {
    if (!c.pacing_lock && ImGui::Button(T(s, view::Str::student_explore).c_str())) classroom::Detach(s);
  } else if (ImGui::Button(T(s, view::Str::student_back).c_str())) {
    classroom::Follow(s);
  }
}

}  // namespace

void DrawTopBar(AppState& s, const Fonts& fonts) {
  ImGui::PushFont(fonts.chrome);
  std::string title = "Blockwise";
  if (s.ui.show_library) {
    title += "  \u00b7  " + T(s, view::Str::library_title);
  } else if (s.OnTitleCard() || s.OnEndCard()) {
    title += "  \u00b7  " + s.model.course->course.title.In(s.options.lang);
  } else if (const auto* st = s.CurrentStep()) {
    // (A projector leaves the step's file id out: the class reads the lesson, its step number and the
    // step title's own short name, "w1 · …".)
    title += "  \u00b7  " + s.model.lesson->lesson.title.In(s.options.lang) + (s.options.projector ? "" : "  \u00b7  " + st->id);
  } else if (const auto* cur = s.Current()) {
    title += "  \u00b7  " + cur->Title().In(s.options.lang);
  }
  // At most 60 % of the bar: the step count, the status and the buttons keep their room.
  title = ElideToWidth(title, ImGui::GetWindowContentRegionMax().x * 0.6f);
  ImGui::TextUnformatted(title.c_str());
  ImGui::PopFont();
  if (s.CurrentStep() && !s.OnTitleCard() && !s.OnEndCard() && !s.ui.show_library) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%s %d / %zu)", T(s, view::Str::step).c_str(), s.ui.step + 1, s.model.lesson->lesson.steps.size());
  }
  DrawClassBar(s);
  // The buttons sit at the right edge, or on their own line when the title leaves no room.
  const ImGuiStyle& style = ImGui::GetStyle();
  const auto button_w = [&](const std::string& label) { return ImGui::CalcTextSize(label.c_str()).x + style.FramePadding.x * 2; };
  const float buttons = button_w("\u25c0") + button_w("\u25b6") + button_w(T(s, view::Str::lang_switch)) + ImGui::GetFrameHeight() +
                        ImGui::CalcTextSize(T(s, view::Str::projector).c_str()).x + button_w("GPU") + button_w(T(s, view::Str::settings_button)) +
                        button_w("?") + style.ItemSpacing.x * 8 + style.ItemInnerSpacing.x;
  const float right = ImGui::GetWindowContentRegionMax().x - buttons;
  // The status ("End of the lesson …", "reloaded …") beside the title, before the buttons: after
  // them it ran past the window's right edge; a long one ("reloaded /a/long/path.json") pushed the
  // buttons onto a second row (issue 32), so it is cut to the room between.
  DrawStatus(s, right - ImGui::GetCursorPosX() - style.ItemSpacing.x * 2);
  ImGui::SameLine();
  if (ImGui::GetCursorPosX() > right) ImGui::NewLine();
  else ImGui::SetCursorPosX(right);
  if (ImGui::Button("\u25c0")) StepLesson(s, -1);
  ImGui::SameLine();
  if (ImGui::Button("\u25b6")) StepLesson(s, +1);
  ImGui::SameLine();
  if (ImGui::Button(T(s, view::Str::lang_switch).c_str())) {
    s.options.lang = s.options.lang == "zh" ? "en" : "zh";
    s.ui.settings_dirty = true;
  }
  ImGui::SameLine();
  if (ImGui::Checkbox(T(s, view::Str::projector).c_str(), &s.options.projector)) s.ui.settings_dirty = true;
  ImGui::SameLine();
  if (ImGui::Button("GPU")) s.ui.show_gpu = !s.ui.show_gpu;
  ImGui::SameLine();
  if (ImGui::Button(T(s, view::Str::settings_button).c_str())) s.ui.show_settings = !s.ui.show_settings;
  ImGui::SameLine();
  if (ImGui::Button("?")) s.ui.show_help = !s.ui.show_help;
}

void DrawErrorBanner(AppState& s) {
  // A watched file changed on disk while edits are unsaved (ReloadIfChanged put the load off, issue
  // 31): asked here, under the top bar, in every mode and on every step — the editor may be closed,
  // a projector hides it, and the status line is overwritten.
  if (s.ui.disk_changed) {
    ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(255, 248, 225, 255));
    ImGui::BeginChild("disk", ImVec2(0, ImGui::GetFrameHeightWithSpacing() * 2.2f), true);
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(93, 64, 55, 255));  // brown: a condition, not "wrong"
    Wrapped(view::UiFormat(view::Str::disk_changed, s.options.lang, {s.ui.opened_path}));
    ImGui::PopStyleColor();
    if (ImGui::SmallButton(T(s, view::Str::disk_reload).c_str())) ReloadFromDisk(s);
    ImGui::SameLine();
    if (ImGui::SmallButton(T(s, view::Str::disk_keep).c_str())) KeepEdits(s);
    ImGui::EndChild();
    ImGui::PopStyleColor();
  }
  if (s.ui.error.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(255, 235, 238, 255));
  ImGui::BeginChild("error", ImVec2(0, ImGui::GetFrameHeightWithSpacing() * 2.2f), true);
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
  Wrapped(T(s, view::Str::error) + ": " + s.ui.error + "  " +
          T(s, s.ui.show_library && s.ui.error_library_instead ? view::Str::library_instead
               : !s.Current()                                  ? view::Str::nothing_loaded
               : s.InLesson()                                  ? view::Str::kept_lesson
                                                               : view::Str::kept_scenario));
  ImGui::PopStyleColor();
  ImGui::SameLine();
  if (ImGui::SmallButton("\u00d7")) s.ui.error.clear();
  ImGui::EndChild();
  ImGui::PopStyleColor();
}

void DrawStatus(AppState& s, float max_w) {
  if (s.ui.status.empty()) return;
  // A lesson's status follows the language switch (L) like everything else on screen.
  if (const auto k = LessonStatus(s)) SetLessonStatus(s, *k);
  ImGui::SameLine();
  // (At least a few characters: with no room at all the buttons take the next row, as before.)
  const std::string shown = ImGui::CalcTextSize(s.ui.status.c_str()).x <= max_w
                                ? s.ui.status
                                : ElideToWidth(s.ui.status, std::max(max_w, ImGui::GetFontSize() * 4));
  ImGui::TextDisabled("%s", shown.c_str());
  if (shown != s.ui.status && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", s.ui.status.c_str());
}

}  // namespace bw::app
