// The lesson step's text, predict box, teacher notes and the presenter's notes window content; see panels.h.
#include "app/class_panel.h"
#include "app/panels.h"
#include "session/shown.h"
#include "app/widgets.h"

#include <imgui.h>
#include <imgui_internal.h>  // GetInputTextState: Tab selects the typed answer

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "view/lesson_text.h"

namespace bw::app {

namespace {

// A checked exercise under an open question: a field for a typed number (Enter or the button
// checks it) or one button per choice, and the verdict line. A right answer reveals the answer.
// `compact` (a projector): the field says what it wants inside it, on one line with the buttons (the
// prompt's own line pushed N50/w1's field onto a page after its question, a helper).
// Returns the top of what the verdict is about (the field, or the picked choice) and the verdict line's
// bottom (screen pixels), or {0, 0} when there is no verdict.
std::pair<float, float> CheckWidgets(AppState& s, bool compact) {
  const auto* st = s.CurrentStep();
  if (!st || !st->check) return {0.0f, 0.0f};
  const auto& check = *st->check;
  const auto& lang = s.options.lang;
  float about = 0;   // the top of the field or of the picked choice
  if (!check.number.empty()) {
    if (!compact) Said(T(s, view::Str::check_prompt));
    about = ImGui::GetCursorScreenPos().y;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    // Tab (shortcuts.cpp): the field takes the keyboard (the request lands a frame later) with what it
    // holds selected, so a second try is typed over the first.
    const bool tabbed = s.ui.focus_answer > 0;
    if (tabbed && !AnswerFieldActive(s)) ImGui::SetKeyboardFocusHere();
    const std::string hint = compact ? T(s, view::Str::check_prompt_short) : "";
    const bool enter = ImGui::InputTextWithHint("##answer", hint.c_str(), s.ui.answer_typed.data(), s.ui.answer_typed.size(),
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    if (tabbed) {
      if (ImGui::IsItemActive()) {
        if (ImGuiInputTextState* text = ImGui::GetInputTextState(ImGui::GetItemID())) text->SelectAll();
        s.ui.focus_answer = 0;
      } else {
        --s.ui.focus_answer;   // for s.ui.focus_answer frames at most (a field not drawn never takes it)
      }
    }
    if (compact) SaidItem(hint, TextRole::kHint);
    s.ui.answer_field = ImGui::GetItemID();
    if (ImGui::IsItemEdited()) s.ui.answer_verdict = s.ui.answer_mistake = -1;  // a new answer: not checked yet
    s.ui.answer_field_box = {ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectMax().x,
                             ImGui::GetItemRectMax().y};
    ImGui::SameLine();
    // (Checked: the page turns to the verdict, which may have made the text a page longer — a student
    // at 1280×720 saw the question, the field and the verdict vanish behind "▼ (1/2)": issue 29.)
    if (ImGui::Button(T(s, view::Str::check_button).c_str()) || enter) CheckTypedAnswer(s), s.ui.to_answer_page = true;
  } else {
    // One full-width button per choice, its text wrapped (a long choice is never cut off), the
    // picked one marked × (wrong) or ✓ (right).
    ImGui::PushStyleVar(ImGuiStyleVar_ButtonTextAlign, ImVec2(0, 0.5f));
    // (On a projector a choice's frame hugs its lines: three choices and the Reveal row fit a 1080p
    // pane's page with their question above them.)
    const bool big = s.options.projector || s.ui.presenter;
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ImGui::GetStyle().FramePadding.x, big ? 1.0f : ImGui::GetStyle().FramePadding.y));
    const float avail = ImGui::GetContentRegionAvail().x;
    const float pad = ImGui::GetStyle().FramePadding.x * 2;
    for (int k = 1; k <= static_cast<int>(check.choices.size()); ++k) {
      const bool picked = k == s.ui.answer_choice;
      const bool judged = s.ui.answer_verdict >= 0;   // (an answer sent to a class waits for the reveal)
      // (Numbered: the key that picks it, 1–8.)
      const std::string text = std::string(picked ? (!judged ? "\u25cf " : k == check.correct ? "\u2713 " : "\u00d7 ") : "") +
                               std::to_string(k) + ". " + check.choices[k - 1].In(lang);
      std::string label;
      for (const auto& line : WrapLines(text, avail - pad, true)) label += (label.empty() ? "" : "\n") + line;
      label += "##choice" + std::to_string(k);
      if (picked) about = ImGui::GetCursorScreenPos().y;
      if (ImGui::Button(label.c_str(), ImVec2(avail, 0))) CheckChoice(s, k), s.ui.to_answer_page = true;
      SaidItem(text);
    }
    ImGui::PopStyleVar(2);
  }
  // A live class's student: the answer went to the class; its verdict waits for the teacher's reveal.
  if (const auto& c = s.ui.student; c.joined && !s.ui.revealed && c.sent_question == st->id && c.sent_round == c.round &&
                                    !c.sent_answer.empty() && s.ui.answer_verdict < 0) {
    std::string sent = c.sent_answer;
    if (!check.choices.empty()) {
      const int k = std::atoi(sent.c_str());
      if (k >= 1 && k <= static_cast<int>(check.choices.size())) sent = check.choices[static_cast<size_t>(k - 1)].In(lang);
    }
    Wrapped(view::UiFormat(view::Str::student_sent, lang, {sent}));
  }
  bool wrong = false;
  if (const std::string line = VerdictLine(s, &wrong); !line.empty()) {
    const float top = ImGui::GetCursorScreenPos().y;
    if (wrong) ImGui::PushStyleColor(ImGuiCol_Text, kWrongColor);  // purple with ×, never red
    Wrapped(line);
    if (wrong) ImGui::PopStyleColor();
    return {about > 0 ? about : top, ImGui::GetCursorScreenPos().y};
  }
  return {0.0f, 0.0f};
}

// Whether a wrapped line ends a sentence.
bool EndsSentenceLine(std::string line) {
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return !line.empty() && view::LastSentenceEnd(line + " x") == line.size();
}

// A paragraph wrapped as Wrapped does, except that where it runs past a page's foot (`guide`) and no line
// in the page's lower part (below 40 %) ends a sentence, the last line there with a sentence end inside it ends after
// that sentence (the paragraph is wrapped anew from there): the page ends at the sentence, not
// mid-sentence, nor early at a comma (in English a 1080p projector's pages broke inside sentences that
// had ended a few words earlier on the same line, a teacher's walk-through).
void PagedWrapped(const std::string& text, const TextPageGuide* guide, TextRole role = TextRole::kText) {
  if (!guide || guide->room <= 0 || guide->tops.empty()) return Wrapped(text, role, true);
  const float avail = ImGui::GetContentRegionAvail().x;
  const float step = ImGui::GetTextLineHeightWithSpacing(), glyph = ImGui::GetTextLineHeight();
  float y = ImGui::GetCursorScreenPos().y - guide->origin_y;   // the text's y of the next line
  const float first_y = y;
  // The page a line at `at` is on: the last frame's page that holds the paragraph's first line, then
  // pages that begin where a line does not fit (or after a sentence this cut ends), each with the room
  // of the last frame's page of its number. (Only the first is the last frame's: pages found from these
  // cuts would move them, and the pages would never settle.)
  size_t page = 0;
  while (page + 1 < guide->tops.size() && guide->tops[page + 1] <= y + 0.5f) ++page;
  float page_top = guide->tops[page], page_end = page < guide->ends.size() ? guide->ends[page] : page_top + guide->room;
  const auto new_page = [&](float at) {
    ++page;
    const float room = page < guide->ends.size() ? guide->ends[page] - guide->tops[page] : guide->room;
    page_top = at;
    page_end = at + std::max(room, glyph + 1.0f);
  };
  const auto page_at = [&](float at) {
    while (at + glyph > page_end + 0.5f) new_page(at);
  };
  std::vector<std::string> out;
  std::string rest = text;
  for (int splits = 0; splits < 64; ++splits) {
    const std::vector<std::string> lines = WrapLines(rest, avail, true);
    size_t pos = 0;
    bool split = false;
    for (size_t i = 0; i < lines.size() && !split; ++i) {
      pos = rest.find(lines[i], pos);
      page_at(y);
      // The page's last line of this paragraph (as wrapped now) and whether the paragraph goes on past it.
      size_t last = i;
      while (last + 1 < lines.size() && y + static_cast<float>(last + 1 - i) * step + glyph <= page_end + 0.5f) ++last;
      if (last + 2 == lines.size() && last > i) --last;   // the pager leaves no paragraph's last line alone on a page
      const float lower = page_top + 0.4f * (page_end - page_top);
      bool later = false;   // a sentence ends on a later line of this page
      for (size_t j = i; j <= last && !later; ++j)
        later = EndsSentenceLine(lines[j]) || (j > i && view::LastSentenceEnd(lines[j]) != std::string_view::npos);
      if (last + 1 < lines.size() && y >= lower && !later && first_y <= page_top + 0.6f * guide->room && pos != std::string::npos)
        if (const size_t p = view::LastSentenceEnd(lines[i]); p != std::string_view::npos) {
          out.push_back(lines[i].substr(0, p));
          rest = rest.substr(pos + p);
          rest.erase(0, rest.find_first_not_of(' '));
          split = true;
          new_page(y + step);
        }
      if (!split) {
        out.push_back(lines[i]);
        if (pos != std::string::npos) pos += lines[i].size();
      }
      y += step;
    }
    if (!split) break;
  }
  for (const auto& line : out) Said(line, role);
}

// The question in a tinted box exactly as tall as its content, with its answer once revealed.
// Adds to `keep` what a page keeps together (screen pixels): the whole box, the question, the answer,
// the check and reveal row.
void PredictBox(AppState& s, const Fonts& fonts, const ShownStep& st, std::vector<KeepTogether>& keep, const TextPageGuide* guide) {
  ImGui::Spacing();
  auto* dl = ImGui::GetWindowDrawList();
  dl->ChannelsSplit(2);
  dl->ChannelsSetCurrent(1);
  const float pad = ImGui::GetStyle().FramePadding.x * 2;
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::SetCursorScreenPos(ImVec2(top.x + pad, top.y + pad));
  ImGui::BeginGroup();
  // On a projector the choices and the typed field are question text too: the text font (≥ 28 px em).
  const bool big = s.options.projector || s.ui.presenter;
  ImGui::PushFont(fonts.text);
  const auto part = [&](float from) { keep.push_back({from, ImGui::GetCursorScreenPos().y, KeepTogether::kPart}); };
  float y = ImGui::GetCursorScreenPos().y;
  const float stem_top = y;
  Wrapped("? " + T(s, view::Str::predict) + " " + st.predict, TextRole::kText, true);
  part(y);
  // (Revealed too: a page that begins at the answer repeats the question above it — N23/c1's reveal
  // turned to a page starting "→ 不能。…", the question and choices out of view.)
  keep.push_back({stem_top, ImGui::GetCursorScreenPos().y, KeepTogether::kStem});
  if (!st.answer.empty()) {
    y = ImGui::GetCursorScreenPos().y;
    PagedWrapped("\u2192 " + st.answer, guide);
    part(y);
    keep.push_back({y, ImGui::GetCursorScreenPos().y, KeepTogether::kAnswer});
  }
  y = ImGui::GetCursorScreenPos().y;
  if (!big) ImGui::PopFont();
  // A projector's typed check sits on one line with the reveal button, and the key hint is left out
  // (the teacher has the clicker; the class reads the question): the box fits with its question.
  const auto* step = s.CurrentStep();
  const bool typed = step && step->check && !step->check->number.empty();
  const bool compact = big && typed;
  if (!st.reveal.empty() || s.ui.answer_verdict >= 0)
    if (const auto [v0, v1] = CheckWidgets(s, compact); v1 > v0) keep.push_back({v0, v1, KeepTogether::kVerdict});
  if (big && !compact) ImGui::PopFont();
  if (!st.reveal.empty()) {
    if (compact && s.ui.answer_verdict < 0) ImGui::SameLine();
    // (Compact, without the hint line: the button names the clicker's key — N50/s1 said nowhere that
    // PageDown reveals. So on every projector: a short Reveal row fits beside the page's mark, with the
    // choices above it — RC-T3/b0's row in en went to a page of its own.)
    const std::string reveal = T(s, big ? view::Str::reveal_key : view::Str::reveal);
    if (ImGui::Button(reveal.c_str())) Reveal(s);
    SaidItem(reveal, TextRole::kHint);
    const float row_top = ImGui::GetItemRectMin().y;
    float row_bottom = ImGui::GetItemRectMax().y;
    if (!big) {
      ImGui::SameLine();
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      Wrapped(st.reveal, TextRole::kHint);
      ImGui::PopStyleColor();
      row_bottom = std::max(row_bottom, ImGui::GetItemRectMax().y);
    }
    keep.push_back({row_top, row_bottom, KeepTogether::kReveal});
  }
  if (compact) ImGui::PopFont();
  ImGui::EndGroup();
  // The check's field or choices and the reveal row (open: kept together, see KeepTogether::kChoices).
  if (ImGui::GetItemRectMax().y > y + 0.5f)
    keep.push_back({y, ImGui::GetCursorScreenPos().y, st.answer.empty() ? KeepTogether::kChoices : KeepTogether::kPart});
  // An open question keeps its sentence with its choices and field when the two fit on a page (in en
  // the stem of N23/c1 ended page 2 and its choices began page 3, with no question above them). Put
  // right after the whole box: the pager takes the first of these that fits.
  if (st.answer.empty() && ImGui::GetItemRectMax().y > y + 0.5f)
    keep.insert(keep.begin(), {stem_top, ImGui::GetItemRectMax().y, KeepTogether::kPart});
  const ImVec2 bottom = ImGui::GetItemRectMax();
  dl->ChannelsSetCurrent(0);
  const ImVec2 br(top.x + width, bottom.y + pad);
  dl->AddRectFilled(top, br, IM_COL32(227, 242, 253, 255), ImGui::GetFontSize() * 0.3f);
  dl->AddRect(top, br, IM_COL32(30, 101, 216, 255), ImGui::GetFontSize() * 0.3f, 0, 2.0f);
  dl->ChannelsMerge();
  ImGui::Dummy(ImVec2(0, pad));
  keep.insert(keep.begin(), {top.y, br.y, KeepTogether::kQuestionBox});
}

}  // namespace

float DrawStepTitle(const AppState& s, const Fonts& fonts, float width, float max_h) {
  const ShownStep st = StepTextNow(s);
  if (st.title.empty()) return 0;
  const float y0 = ImGui::GetCursorPosY();
  // In the heading font where its lines fit `max_h`, else in the text's (Ctrl + ×5 on a 1280×720
  // laptop wrapped "s2 · A larger maximum: old numerator and denominator rescale together" onto three
  // heading lines, and the third was cut).
  ImFont* font = fonts.large;
  ImGui::PushFont(font);
  std::vector<std::string> lines = WrapLines(st.title, width);
  if (static_cast<float>(lines.size()) * ImGui::GetTextLineHeightWithSpacing() > max_h && fonts.text && fonts.text != font) {
    ImGui::PopFont();
    ImGui::PushFont(font = fonts.text);
    lines = WrapLines(st.title, width);
  }
  for (const auto& line : lines) Said(line);
  ImGui::PopFont();
  return ImGui::GetCursorPosY() - y0;
}

std::vector<KeepTogether> DrawStepText(AppState& s, const Fonts& fonts, const TextPageGuide* guide) {
  const ShownStep st = StepTextNow(s);
  std::vector<KeepTogether> keep;
  if (st.title.empty()) return keep;
  // Scrubbed away from the step's own event (a step owns the stretch up to the next step's mark): the
  // text still describes that event, so say which, with a way back (a helper read MASK/k3's text
  // about tile (2,2) while the diagram showed tile (4,2)).
  if (const std::string line = AwayFromStepLine(s); !line.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
    ImGui::PushStyleColor(ImGuiCol_Button, IM_COL32(0, 0, 0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_ButtonTextAlign, ImVec2(0, 0.5f));
    if (ImGui::Button(line.c_str()))
      SetEvent(s, s.model.lesson->EventOf(s.ui.step));  // keeps what the class typed or picked
    SaidItem(line, TextRole::kHint);
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(2);
  }
  if (EditedNow(s)) {  // the editor changed this step's numbers: say so, with the way back
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(93, 64, 55, 255));  // brown: not "wrong" (purple), not "written" (red)
    Wrapped(T(s, view::Str::edited_badge));
    ImGui::PopStyleColor();
    if (ImGui::SmallButton(T(s, view::Str::edit_revert).c_str())) RevertEdit(s);
    SaidItem(T(s, view::Str::edit_revert), TextRole::kHint);
  }
  // The body sets the question up, so it comes first; then the question, open or answered, in one
  // place: the reveal adds its answer inside the box (the box once moved on reveal, and the picture
  // jumped). With the question first, a body longer than a page put its set-up after the question's
  // last page, where PageDown revealed: the class read it only after the answer (N50/w1, RC-T3/b0).
  // Now PageDown walks the body's pages, then the question's, then reveals; "further" (shown after the
  // reveal) follows the box.
  const bool big = s.options.projector || s.ui.presenter;  // read from the back of the room
  // Paged: a whole pixel from line to line. (ImGui truncates the cursor toward zero, so the lines above
  // the screen's top — a later page's — stepped a pixel more each than the same lines on screen, and
  // N49/m1's pages in en after Ctrl + ×3 flipped between two layouts every frame.)
  if (big) ImGui::PushFont(fonts.text);
  const float line_h = ImGui::GetFontSize(), gap = ImGui::GetStyle().ItemSpacing.y;
  const float whole = std::floor(line_h + gap) - line_h >= 0.5f * gap ? std::floor(line_h + gap) : std::ceil(line_h + gap);
  if (guide) ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, whole - line_h));
  PagedWrapped(st.body, guide);
  if (big) ImGui::PopFont();
  if (!st.predict.empty()) {
    ImGui::Spacing();
    PredictBox(s, fonts, st, keep, guide);
  }
  if (!st.further.empty()) {
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(55, 71, 79, 255));
    if (big) ImGui::PushFont(fonts.text);  // the worked numbers live here (RC-T3/b2's 2,1,4): as large as the body
    PagedWrapped(T(s, view::Str::further) + " \u2014 " + st.further, guide);
    if (big) ImGui::PopFont();
    ImGui::PopStyleColor();
  }
  if (guide) ImGui::PopStyleVar();
  return keep;
}

void DrawTeacherNotes(const AppState& s, const Fonts& fonts) {
  const auto* st = s.CurrentStep();
  if (!st) return;
  (void)fonts;
  ImGui::Spacing();
  // Folded: its Q&A answers stay off the screen. A live class's student never gets them (the teacher's
  // rehearsed questions and answers).
  if (!s.ui.student.joined && ImGui::CollapsingHeader(T(s, view::Str::teacher_notes).c_str()))
    Wrapped(Fill(s, st->teacher_notes.In(s.options.lang)));
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
  Wrapped(T(s, view::Str::source) + ": " + Fill(s, st->source.In(s.options.lang)));
  ImGui::PopStyleColor();
}

void DrawPresenterNotes(AppState& s, const Fonts& fonts, double elapsed_s) {
  const auto* st = s.CurrentStep();
  const int minutes = static_cast<int>(elapsed_s) / 60, seconds = static_cast<int>(elapsed_s) % 60;
  ImGui::Text("%02d:%02d", minutes, seconds);
  ImGui::SameLine();
  if (!st) {
    Wrapped(T(s, view::Str::no_lesson_notes));
    return;
  }
  const auto& L = s.model.lesson->lesson;
  if (s.ui.blank) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWrongColor);
    Wrapped(T(s, view::Str::notes_blank));
    ImGui::PopStyleColor();
  }
  if (s.InCourse())
    ImGui::TextDisabled(
        "%s", view::UiFormat(view::Str::card_lesson_of, s.options.lang,
                             {std::to_string(s.ui.course_lesson + 1), std::to_string(s.model.course->LessonCount())})
                  .c_str());
  if (s.InCourse()) ImGui::SameLine();
  ImGui::TextDisabled("%s %d / %zu  \u00b7  %s%s", T(s, view::Str::step).c_str(), s.ui.step + 1, L.steps.size(),
                      st->id.c_str(), s.OnTitleCard() ? (" " + T(s, view::Str::notes_title_card)).c_str() : "");
  Heading(fonts, Fill(s, st->title.In(s.options.lang)));
  ImGui::Separator();
  ImGui::PushFont(fonts.text);
  Wrapped(Fill(s, st->teacher_notes.In(s.options.lang)));
  ImGui::PopFont();
  // The open question's answer, for the teacher's eyes only (the class sees it after the reveal): a
  // helper teaching MASK/k1 had no way to check a student's "6" privately.
  // Folded: on one mirrored screen the notes window opens over the projected lesson, and an answer
  // shown at once would be the class's too (a helper saw it there before the reveal).
  if (st->predict && st->answer) {
    ImGui::Separator();
    if (ImGui::CollapsingHeader((T(s, view::Str::notes_answer) + "##answer" + st->id).c_str())) {
      Wrapped("? " + Fill(s, st->predict->In(s.options.lang)));
      Wrapped("\u2192 " + Fill(s, st->answer->In(s.options.lang)));
    }
  }
  // A live class: the count joined, the open question's answers so far and the class's controls,
  // which the projected screen never shows (issue 30).
  DrawClassControls(s);
  ImGui::Separator();
  if (s.ui.step + 1 < static_cast<int>(L.steps.size())) {
    const auto& next = L.steps[s.ui.step + 1];
    ImGui::TextDisabled("%s", T(s, view::Str::next_step).c_str());
    Wrapped(next.id + "  " + next.title.In(s.options.lang));
  } else if (s.InCourse() && s.ui.course_lesson + 1 < s.model.course->LessonCount()) {
    const auto& next = s.model.course->outlines[static_cast<size_t>(s.ui.course_lesson + 1)];
    ImGui::TextDisabled("%s", T(s, view::Str::notes_next_lesson).c_str());
    Wrapped(next.id + "  " + next.title.In(s.options.lang));
  }
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
  Wrapped(T(s, view::Str::source) + ": " + Fill(s, st->source.In(s.options.lang)));
  ImGui::PopStyleColor();
  ImGui::Spacing();
  // The outline: the whole course (each lesson with its planned minutes, the open one with its
  // steps), or the lesson's steps. Titles begin with the step's short id ("k1 · …").
  const auto steps = [&] {
    for (int i = 0; i < static_cast<int>(L.steps.size()); ++i) {
      const std::string& title = L.steps[i].title.In(s.options.lang);
      const std::string label =
          (s.InCourse() ? "    " : "") + (title.empty() ? L.steps[i].id : title) + "##step" + std::to_string(i);
      if (ImGui::Selectable(label.c_str(), i == s.ui.step && !s.OnTitleCard())) GoToStep(s, i);
    }
  };
  if (!s.InCourse()) {
    ImGui::TextDisabled("%s", T(s, view::Str::steps).c_str());
    steps();
    return;
  }
  const auto& C = *s.model.course;
  ImGui::TextDisabled("%s  \u00b7  %s", T(s, view::Str::notes_course).c_str(),
                      C.course.title.In(s.options.lang).c_str());
  for (int k = 0; k < C.LessonCount(); ++k) {
    const auto& o = C.outlines[static_cast<size_t>(k)];
    const std::string minutes = view::UiFormat(view::Str::notes_minutes, s.options.lang,
                                               {std::to_string(C.course.lessons[static_cast<size_t>(k)].minutes)});
    const std::string label =
        std::to_string(k + 1) + ". " + o.title.In(s.options.lang) + "  (" + minutes + ")##lesson" + std::to_string(k);
    if (ImGui::Selectable(label.c_str(), k == s.ui.course_lesson && s.OnTitleCard()) && k != s.ui.course_lesson &&
        OpenCourseLesson(s, k, /*at_end=*/false))
      s.ui.title_card = true;
    if (k == s.ui.course_lesson) steps();
  }
}

}  // namespace bw::app
