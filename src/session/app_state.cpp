// AppState actions; see app_state.h. (Opening, watching, reloading and editing documents:
// app_documents.cpp.)
#include "session/app_state.h"
#include "session/replay_clock.h"
#include "session/answer_check.h"
#include "session/shown.h"

#include <algorithm>
#include <utility>

namespace bw::app {

namespace {

// A new step is shown: its question is open (unless the class has seen its answer already: going
// back to a revealed step shows the answer again) and nothing is typed.
void NewStep(AppState& s) {
  if (LessonStatus(s) || s.ui.status_of_step) ClearStatus(s);
  s.ui.status_of_step = false;
  s.ui.text_page = 0;
  s.ui.text_page_top = {0.0f};
  s.ui.text_page_stem = {0};
  s.ui.question_last_page = 0;
  s.ui.to_answer_page = false;
  s.ui.revealed = s.ui.revealed_steps.count(s.ui.step) > 0;
  s.ui.answer_typed.fill('\0');
  s.ui.answer_choice = 0;
  s.ui.answer_verdict = -1;
  s.ui.answer_mistake = -1;
}

}  // namespace

std::optional<view::Str> LessonStatus(const AppState& s) {
  if (s.ui.status.empty()) return std::nullopt;
  return s.ui.status_lesson;
}

void SetStatus(AppState& s, std::string text) {
  s.ui.status = std::move(text);
  s.ui.status_lesson.reset();
}

void SetLessonStatus(AppState& s, view::Str k) {
  s.ui.status = view::UiText(k, s.options.lang);
  s.ui.status_lesson = k;
}

void ClearStatus(AppState& s) { SetStatus(s, std::string()); }

void ClearLessonStatus(AppState& s, view::Str k) {
  if (LessonStatus(s) == k) ClearStatus(s);
}

void SetEvent(AppState& s, int event) {
  const auto* cur = s.Current();
  if (!cur) return;
  s.ui.title_card = false;  // any move in the trace shows the lesson
  s.ui.end_card = false;
  s.ui.event = std::clamp(event, 0, cur->EventCount() - 1);
  if (s.InLesson()) {
    const int owner = s.model.lesson->OwnerStep(s.ui.step, s.ui.event);
    if (owner != s.ui.step) {
      s.ui.step = owner;
      NewStep(s);
    }
  }
}

void GoToStep(AppState& s, int step) {
  if (!s.InLesson()) return;
  s.ui.title_card = false;
  s.ui.end_card = false;
  s.ui.show_library = false;  // a step is shown (the notes window's outline, a lesson opened): not the start screen
  s.ui.step = std::clamp(step, 0, static_cast<int>(s.model.lesson->lesson.steps.size()) - 1);
  s.ui.event = s.model.lesson->EventOf(s.ui.step);
  NewStep(s);
}

void StepLesson(AppState& s, int delta) {
  if (!s.InLesson()) return StepEvent(s, delta);
  s.ui.playing = false;
  if (s.OnEndCard()) {  // after the last step: PageUp goes back to it (its last page), PageDown stays
    if (delta < 0) s.ui.end_card = false;
    return;
  }
  if (s.OnTitleCard()) {  // the card stands before the lesson's first step
    if (delta > 0) {
      s.ui.title_card = false;
      if (LessonStatus(s)) ClearStatus(s);  // "the course's first lesson" is stale on its first step
    } else if (s.ui.course_lesson > 0) {
      OpenCourseLesson(s, s.ui.course_lesson - 1, /*at_end=*/true);
    } else {
      SetLessonStatus(s, view::Str::course_start);
    }
    return;
  }
  if (delta > 0 && s.PredictPending()) {
    // A question longer than a page (Ctrl +): its choices are all seen before the answer.
    if (s.ui.text_page >= 0 && s.ui.text_page < s.ui.question_last_page &&
        s.ui.text_page + 1 < static_cast<int>(s.ui.text_page_top.size())) {
      ++s.ui.text_page;
      return;
    }
    return Reveal(s);
  }
  // The step's text in pages: its next (last) page before the next (last) step.
  const int pages = static_cast<int>(s.ui.text_page_top.size());
  if (delta > 0 && s.ui.text_page >= 0 && s.ui.text_page + 1 < pages) {
    ++s.ui.text_page;
    return;
  }
  if (delta < 0 && s.ui.text_page != 0 && pages > 1) {
    s.ui.text_page = (s.ui.text_page < 0 ? pages - 1 : s.ui.text_page) - 1;
    return;
  }
  const int last = static_cast<int>(s.model.lesson->lesson.steps.size()) - 1;
  if (delta > 0 && s.ui.step == last) {
    if (s.InCourse() && s.ui.course_lesson + 1 < s.model.course->LessonCount()) {
      if (OpenCourseLesson(s, s.ui.course_lesson + 1, /*at_end=*/false)) s.ui.title_card = true;
      return;
    }
    // The clicker at the end: the course's end card (it says so, and what PageUp does), or for a lesson
    // on its own a line that says so — never nothing.
    if (s.InCourse()) s.ui.end_card = true;
    else SetLessonStatus(s, view::Str::lesson_end);
    return;
  }
  if (delta < 0 && s.ui.step == 0 && s.InCourse()) {
    s.ui.title_card = true;
    return;
  }
  GoToStep(s, s.ui.step + delta);
  if (delta < 0) s.ui.text_page = -1;  // back into a step: its text's last page
}

void Reveal(AppState& s) {
  if (s.OnTitleCard()) return;  // the first step's question is not on screen yet
  // A student in a class whose teacher locked pacing sees the answer when the teacher reveals it.
  if (s.ui.student.joined && !s.ui.student.ended && s.ui.student.following && s.ui.student.pacing_lock) return;
  if (s.CurrentStep() && s.CurrentStep()->predict && !s.ui.revealed) {
    s.ui.revealed = true;
    s.ui.to_answer_page = true;  // the text turns to the page the answer begins on (as drawn)
    s.ui.revealed_steps.insert(s.ui.step);
    // "Not right yet: think again (or ask for the reveal)" is stale once the answer is shown.
    if (s.ui.answer_verdict != static_cast<int>(view::CheckVerdict::kRight)) s.ui.answer_verdict = s.ui.answer_mistake = -1;
  }
  ClearLessonStatus(s, view::Str::play_question_open);
}

void CancelPresenterConfirm(AppState& s) {
  if (!s.ui.presenter_confirm) return;
  s.ui.presenter_confirm = false;
  ClearLessonStatus(s, view::Str::presenter_one_screen);
}

void TogglePresenter(AppState& s, int monitors) {
  // Blanked on one screen (a mirrored projector): the class sees whatever this screen shows, so F5
  // neither opens the notes nor says why not over the black picture (a walk-through saw the warning
  // appear there); B first, then F5. (Closing them stays one key.)
  if (!s.ui.presenter && monitors <= 1 && s.ui.blank) return;
  if (!s.ui.presenter && monitors <= 1 && !s.ui.presenter_confirm) {
    s.ui.presenter_confirm = true;
    SetLessonStatus(s, view::Str::presenter_one_screen);
    return;
  }
  ClearLessonStatus(s, view::Str::presenter_one_screen);
  s.ui.presenter_confirm = false;
  s.ui.presenter = !s.ui.presenter;
}

bool AnswersGoToTheClass(const AppState& s) {
  const auto& c = s.ui.student;
  return c.joined && !c.ended && c.following && c.question_open && s.CurrentStep() && !s.OnTitleCard() &&
         s.CurrentStep()->id == c.step && !s.ui.revealed;
}

namespace {

// A following student's answer goes to the class; whether it was right shows at the teacher's reveal.
void SendToClass(AppState& s, std::string answer) {
  auto& c = s.ui.student;
  c.sent_question = s.CurrentStep()->id;
  c.sent_round = c.round;
  c.sent_answer = std::move(answer);
  c.answer_pending = true;
  s.ui.answer_verdict = s.ui.answer_mistake = -1;
}

}  // namespace

void CheckTypedAnswer(AppState& s) {
  const auto* st = s.CurrentStep();
  if (!st || !st->check || st->check->number.empty()) return;
  if (AnswersGoToTheClass(s)) {
    const std::string typed(s.ui.answer_typed.data());
    if (!typed.empty()) SendToClass(s, typed);
    return;
  }
  // The rule the class server counts the room's answers with (answer_check.h): the engine's value at
  // the step's own event, a known wrong answer (the plain mean 65/3 for 160/7) named by the same rule.
  const auto q = QuestionOf(*s.model.lesson, s.ui.step);
  if (!q) return;
  const auto a = CheckNumberAnswer(*q, std::string(s.ui.answer_typed.data()));
  s.ui.answer_verdict = static_cast<int>(a.verdict);
  s.ui.answer_mistake = a.mistake;
  if (a.verdict == view::CheckVerdict::kRight) Reveal(s);
}

std::string MistakeHint(const AppState& s) {
  const auto* st = s.CurrentStep();
  if (!st || !st->check || s.ui.answer_mistake < 0 || s.ui.answer_mistake >= static_cast<int>(st->check->mistakes.size())) return "";
  const auto& L = *s.model.lesson;
  const int e = L.EventOf(s.ui.step);   // filled where it was checked: the step's own event
  const auto& tmpl = st->check->mistakes[static_cast<size_t>(s.ui.answer_mistake)].hint.In(s.options.lang);
  return L.Fill(tmpl, s.ui.event == e ? s.frame.Quantities(s) : L.ScenarioOf(s.ui.step).QuantitiesAt(e)).text;
}

std::string VerdictLine(const AppState& s, bool* wrong_out) {
  if (wrong_out) *wrong_out = false;
  const auto* st = s.CurrentStep();
  if (!st || !st->check || s.ui.answer_verdict < 0 || s.ui.answer_verdict > 3) return "";
  static constexpr view::Str kVerdictKeys[] = {view::Str::check_right, view::Str::check_wrong, view::Str::check_unreadable,
                                               view::Str::check_coarse};
  const auto& lang = s.options.lang;
  const bool choice = !st->check->choices.empty();
  const bool right = s.ui.answer_verdict == static_cast<int>(view::CheckVerdict::kRight);
  const bool wrong = s.ui.answer_verdict == static_cast<int>(view::CheckVerdict::kWrong);
  if (const std::string hint = MistakeHint(s); wrong && !hint.empty()) {
    if (wrong_out) *wrong_out = true;
    return "\u00d7 " + hint;
  }
  return view::UiText(choice && wrong   ? view::Str::check_choice_wrong
                      : choice && right ? view::Str::check_choice_right
                                        : kVerdictKeys[s.ui.answer_verdict],
                      lang);
}

void CheckChoice(AppState& s, int choice) {
  const auto* st = s.CurrentStep();
  if (!st || !st->check || st->check->choices.empty()) return;
  if (choice < 1 || choice > static_cast<int>(st->check->choices.size())) return;
  s.ui.answer_choice = choice;
  if (AnswersGoToTheClass(s)) return SendToClass(s, std::to_string(choice));
  const bool right = choice == st->check->correct;
  s.ui.answer_verdict = static_cast<int>(right ? view::CheckVerdict::kRight : view::CheckVerdict::kWrong);
  if (right) Reveal(s);
}

void TogglePlay(AppState& s) {
  if (TimelineScrubsGpu(s)) return ToggleGpuReplay(s);  // Space plays what the timeline shows
  const auto* cur = s.Current();
  if (!cur) return;
  if (s.ui.playing) {
    s.ui.playing = false;
    return;
  }
  if (s.ui.event + 1 >= cur->EventCount()) {
    if (!s.InLesson()) return SetEvent(s, 0);
    GoToStep(s, s.ui.step);
  }
  s.ui.playing = true;
}

bool PlayTick(AppState& s) {
  const auto* cur = s.Current();
  if (!cur || s.ui.event + 1 >= cur->EventCount()) {
    s.ui.playing = false;
    return false;
  }
  const int step = s.ui.step;
  // A question still open stays on screen: playing stops at the step's last event instead of
  // carrying the class into the next step before the answer was shown (PageDown or R reveals it).
  if (s.PredictPending() && s.model.lesson->OwnerStep(step, s.ui.event + 1) != step) {
    s.ui.playing = false;
    SetLessonStatus(s, view::Str::play_question_open);
    return false;
  }
  // Playing never jumps over steps: the next event may belong to a step further on in the lesson
  // (steps bound to this scenario elsewhere, LessonModel::OwnerStep); then it stops here, and
  // PageDown goes on in the lesson's order (Space on MASK/k4 ran into k6, past k5, a review found).
  if (const int next = s.InLesson() ? s.model.lesson->OwnerStep(step, s.ui.event + 1) : step; next != step && next != step + 1) {
    s.ui.playing = false;
    return false;
  }
  SetEvent(s, s.ui.event + 1);
  if (s.ui.step != step || s.ui.event + 1 >= cur->EventCount()) s.ui.playing = false;
  return true;
}

void StepEvent(AppState& s, int delta) {
  const auto* cur = s.Current();
  // → at the end of this scenario's trace while the lesson goes on in another scenario (N50/w3 → s1):
  // say so instead of stopping silently.
  if (cur && delta > 0 && s.ui.event + 1 >= cur->EventCount() && s.InLesson() &&
      s.ui.step + 1 < static_cast<int>(s.model.lesson->lesson.steps.size())) {
    const auto& next = s.model.lesson->lesson.steps[static_cast<size_t>(s.ui.step + 1)];
    SetStatus(s, view::UiFormat(view::Str::trace_end_next, s.options.lang, {next.id}));
    s.ui.status_of_step = true;
    return;
  }
  SetEvent(s, s.ui.event + delta);
}

void StepBlock(AppState& s, int delta) {
  const auto* cur = s.Current();
  if (!cur) return;
  const auto marks = cur->BlockMarks();
  if (delta > 0) {
    for (const auto& m : marks)
      if (m.event > s.ui.event) return SetEvent(s, m.event);
    SetEvent(s, cur->EventCount() - 1);
  } else {
    for (auto it = marks.rbegin(); it != marks.rend(); ++it)
      if (it->event < s.ui.event) return SetEvent(s, it->event);
    SetEvent(s, 0);
  }
}

void ScaleFont(AppState& s, float factor) {
  s.options.font_px = std::clamp(s.options.font_px * factor, 10.0f, 96.0f);
  s.ui.fonts_dirty = true;
  s.ui.settings_dirty = true;
}

}  // namespace bw::app
