// The live class in the teacher's windows; see class_panel.h.
#include "app/class_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/painter.h"
#include "app/widgets.h"
#include "classroom/class_message.h"
#include "session/texts.h"
#include "view/ui_text.h"

namespace bw::app {

namespace {

std::string Label(const AppState& s, view::Str k, const std::string& id) { return T(s, k) + "##" + id; }

}  // namespace

void DrawClassControls(AppState& s) {
  auto& c = s.ui.live_class;
  if (!c.live) return;
  auto& want = c.want;
  const auto& lang = s.options.lang;
  ImGui::Separator();
  ImGui::TextDisabled("%s", T(s, view::Str::class_notes).c_str());
  Wrapped(c.url + "  \u00b7  " + T(s, view::Str::class_code) + " " + c.code + "  \u00b7  " +
          view::UiFormat(view::Str::class_students, lang, {std::to_string(c.students)}));
  bool lock = c.pacing_lock;
  if (ImGui::Checkbox(Label(s, view::Str::class_lock, "lock").c_str(), &lock)) want.toggle_lock = true;
  // The current step's question: this round's histogram, the earlier rounds' lines, the vote's controls.
  const auto* st = s.CurrentStep();
  const bool asks = st && st->check && !s.OnTitleCard() && !s.OnEndCard() && !s.ui.show_library;
  if (asks) {
    ImGui::TextUnformatted(view::UiFormat(view::Str::class_round, lang, {std::to_string(c.round)}).c_str());
    if (c.voting_closed) {
      ImGui::SameLine();
      ImGui::TextDisabled("%s", T(s, view::Str::class_vote_closed).c_str());
    }
    // The count is neutral; the answers with their ✓ and × are folded, as the step's own answer is:
    // on one mirrored screen the notes window is the class's too (a helper saw "✓ 160/7" there before
    // the reveal).
    Wrapped(view::UiFormat(view::Str::class_answers_count, lang, {std::to_string(c.bars_total)}));
    if (!c.histogram.empty() && ImGui::CollapsingHeader((T(s, view::Str::class_answers_fold) + "##answers" + st->id).c_str())) {
      for (const auto& line : c.histogram) Wrapped(line);
      for (const auto& b : c.bars)
        Wrapped((b.right ? "\u2713 " : "\u00d7 ") + b.answer + "  \u2014  " + std::to_string(b.count) +
                (b.mistake.empty() ? "" : "  (" + b.mistake + ")"));
    }
    if (!s.ui.revealed) {
      if (ImGui::Button(Label(s, c.voting_closed ? view::Str::class_open_vote : view::Str::class_close_vote, "vote").c_str()))
        want.toggle_vote = true;
      ImGui::SameLine();
      ImGui::BeginDisabled(c.round >= classroom::kMaxVoteRound);
      if (ImGui::Button(Label(s, view::Str::class_new_round, "round").c_str())) want.new_round = true;
      ImGui::EndDisabled();
    }
    // The distribution goes to the projector only after the reveal: before it, it would answer.
    ImGui::BeginDisabled(!s.ui.revealed);
    bool project = c.project;
    if (ImGui::Checkbox(Label(s, view::Str::class_project, "project").c_str(), &project)) want.toggle_project = true;
    ImGui::EndDisabled();
    if (!s.ui.revealed) ImGui::TextDisabled("%s", T(s, view::Str::class_project_after).c_str());
  }
  if (ImGui::Button(Label(s, view::Str::class_export, "export").c_str())) want.export_results = true;
  ImGui::SameLine();
  // Ending is final for the students (their pages say so): a second click confirms.
  if (ImGui::Button(Label(s, c.confirm_end ? view::Str::class_end_confirm : view::Str::class_end, "end").c_str())) {
    if (c.confirm_end) want.end_class = true;
    c.confirm_end = !c.confirm_end;
  }
  if (!c.roster.empty() &&
      ImGui::CollapsingHeader((view::UiFormat(view::Str::class_devices, lang, {std::to_string(c.roster.size())}) + "##devices").c_str())) {
    for (size_t i = 0; i < c.roster.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      if (ImGui::SmallButton(T(s, view::Str::class_remove).c_str()) && i < c.roster_tokens.size()) want.remove = c.roster_tokens[i];
      ImGui::SameLine();
      ImGui::TextUnformatted(c.roster[i].c_str());
      ImGui::PopID();
    }
  }
  if (!c.log.empty() && ImGui::CollapsingHeader(Label(s, view::Str::class_log, "log").c_str()))
    for (const auto& line : c.log) Wrapped(line);
}

bool ClassAnswersShown(const AppState& s) {
  const auto& c = s.ui.live_class;
  const auto* st = s.CurrentStep();
  return c.live && c.project && !s.ui.blank && s.ui.revealed && st && !s.OnTitleCard() && !s.OnEndCard() &&
         !s.ui.show_library && c.bars_step == st->id && c.bars_total > 0;
}

bool JoinCardShown(const AppState& s) {
  // On the title and end cards and the start screen always; over a step when the teacher asks (J): it
  // would cover the side panel's rows.
  const auto& v = s.ui.live_class;
  return v.live && !s.ui.blank && (s.ui.show_join_card || s.OnTitleCard() || s.OnEndCard() || s.ui.show_library);
}

void DrawClassAnswers(const AppState& s, const Fonts& fonts, float scale) {
  if (!ClassAnswersShown(s)) return;
  const auto& c = s.ui.live_class;
  const view::Palette pal = s.Palette();
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImFont* font = fonts.large ? fonts.large : ImGui::GetFont();
  const float font_px = fonts.large ? fonts.large_px : ImGui::GetFontSize();
  // 36 px em at 1080 rows (the key numbers' floor, view::ProjectorFloors), from the font baked nearest.
  const float grow = std::max(1.0f, 36.0f * scale / fonts.Em(font_px));
  ImGui::SetNextWindowPos(ImVec2(display.x - 8, display.y - 8), ImGuiCond_Always, ImVec2(1, 1));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(255, 255, 255, 250));
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(20, 20, 20, 255));
  ImGui::PushFont(font);
  ImGui::Begin("##class_answers", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
  ImGui::SetWindowFontScale(grow);
  ImGui::TextUnformatted(view::UiFormat(view::Str::class_distribution, s.options.lang, {std::to_string(c.bars_total)}).c_str());
  int most = 1;
  for (const auto& b : c.bars) most = std::max(most, b.count);
  const float line_h = ImGui::GetTextLineHeight();
  const float bar_w = 10.0f * line_h;
  float label_w = 0;
  for (const auto& b : c.bars) label_w = std::max(label_w, ImGui::CalcTextSize(("\u00d7 " + b.answer).c_str()).x);
  auto* dl = ImGui::GetWindowDrawList();
  for (const auto& b : c.bars) {
    // ✓ / × in the row's own colour: the palette's teal for right, its wrong purple for wrong (the
    // colour is never alone).
    const ImU32 colour = ToImColor(b.right ? pal.state_term : pal.wrong);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(((b.right ? "\u2713 " : "\u00d7 ") + b.answer).c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine(label_w + 1.5f * line_h);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float w = bar_w * static_cast<float>(b.count) / static_cast<float>(most);
    dl->AddRectFilled(ImVec2(at.x, at.y + 0.15f * line_h), ImVec2(at.x + std::max(2.0f, w), at.y + 0.85f * line_h), colour);
    ImGui::Dummy(ImVec2(w, line_h));
    ImGui::SameLine();
    ImGui::TextUnformatted((std::to_string(b.count) + (b.mistake.empty() ? "" : "  " + b.mistake)).c_str());
  }
  ImGui::End();
  ImGui::PopFont();
  ImGui::PopStyleColor(2);
}

void DrawJoinCard(const AppState& s, float scale) {
  const auto& v = s.ui.live_class;
  if (!JoinCardShown(s)) return;
  const auto& lang = s.options.lang;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // Read and scanned from the back row (a helper measured the URL at 22 px and the QR code at 180 px
  // on a 1080p title card): the URL at 1.5× the card's text, the code at 3×, 9 px modules (~300 px).
  const float module = std::max(3.0f, std::floor(9.0f * scale));
  const float qr_px = module * static_cast<float>(v.qr_size + 8);   // with the 4-module quiet zone each side
  ImGui::SetNextWindowPos(ImVec2(display.x - 8, display.y - 8), ImGuiCond_Always, ImVec2(1, 1));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(255, 255, 255, 250));
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(20, 20, 20, 255));
  ImGui::Begin("##join", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
  ImGui::SetWindowFontScale(1.5f);
  ImGui::TextUnformatted(view::UiText(view::Str::class_join, lang).c_str());
  ImGui::TextUnformatted(v.url.c_str());
  ImGui::SetWindowFontScale(3.0f);
  ImGui::TextUnformatted((view::UiText(view::Str::class_code, lang) + "  " + v.code).c_str());
  ImGui::SetWindowFontScale(1.5f);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  auto* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(at, ImVec2(at.x + qr_px, at.y + qr_px), IM_COL32(255, 255, 255, 255));
  for (int y = 0; y < v.qr_size; ++y)
    for (int x = 0; x < v.qr_size;) {   // a run of dark modules as one rectangle
      if (!v.qr[static_cast<size_t>(y * v.qr_size + x)]) {
        ++x;
        continue;
      }
      int end = x;
      while (end < v.qr_size && v.qr[static_cast<size_t>(y * v.qr_size + end)]) ++end;
      const float x0 = at.x + module * static_cast<float>(x + 4), y0 = at.y + module * static_cast<float>(y + 4);
      dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + module * static_cast<float>(end - x), y0 + module), IM_COL32(0, 0, 0, 255));
      x = end;
    }
  ImGui::Dummy(ImVec2(qr_px, qr_px));
  ImGui::TextUnformatted(view::UiFormat(view::Str::class_students, lang, {std::to_string(v.students)}).c_str());
  ImGui::SetWindowFontScale(1.0f);
  ImGui::End();
  ImGui::PopStyleColor(2);
}

}  // namespace bw::app
