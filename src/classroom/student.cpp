// The student's side of a live class; see student.h.
#include "classroom/student.h"

#include <algorithm>
#include <cstdlib>
#include <variant>

#include "classroom/teacher_state.h"
#include "view/ui_text.h"

namespace bw::classroom {

namespace {

std::string Key(const TeacherState& t) {
  return t.lesson + "\n" + t.step + "\n" + t.card + "\n" + std::to_string(t.event) + "\n" + (t.revealed ? "1" : "0");
}

void Line(app::AppState& s, view::Str k, std::vector<std::string> args = {}) {
  s.ui.student.line = view::UiFormat(k, s.options.lang, args);
}

TeacherState Stored(const app::AppState& s) {
  const auto& c = s.ui.student;
  TeacherState t;
  t.lesson = c.lesson;
  t.step = c.step;
  t.card = c.card;
  t.event = c.event;
  t.revealed = c.revealed;
  t.pacing_lock = c.pacing_lock;
  t.round = c.round;
  return t;
}

// The verdict of this device's answer, shown once the teacher revealed (the desktop's check).
void VerdictOfSent(app::AppState& s) {
  auto& c = s.ui.student;
  const auto* st = s.CurrentStep();
  if (!st || c.sent_question != st->id || c.sent_answer.empty()) return;
  const auto q = app::QuestionOf(*s.model.lesson, s.ui.step);
  if (!q) return;
  if (q->number) {
    const auto a = app::CheckNumberAnswer(*q, c.sent_answer);
    s.ui.answer_verdict = static_cast<int>(a.verdict);
    s.ui.answer_mistake = a.mistake;
    const size_t n = std::min(c.sent_answer.size(), s.ui.answer_typed.size() - 1);
    std::fill(s.ui.answer_typed.begin(), s.ui.answer_typed.end(), '\0');
    std::copy_n(c.sent_answer.begin(), n, s.ui.answer_typed.begin());
  } else {
    const int choice = std::atoi(c.sent_answer.c_str());
    s.ui.answer_choice = choice;
    s.ui.answer_verdict = static_cast<int>(app::CheckChoiceAnswer(*q, choice).verdict);
  }
}

}  // namespace

std::string ShownKey(const app::AppState& s) { return Key(TeacherStateOf(s, {})); }

void Connected(app::AppState& s, const std::string& code) {
  auto& c = s.ui.student;
  c.connected = true;
  c.code = code;
  c.line.clear();
}

void Disconnected(app::AppState& s) {
  s.ui.student.connected = false;
}

bool ApplyTeacherState(app::AppState& s, const TeacherState& t) {
  auto& c = s.ui.student;
  // Reveal refuses a locked class's student: the teacher's own reveal is applied with the lock lifted.
  c.pacing_lock = false;
  bool ok = true;
  const TeacherState now = TeacherStateOf(s, {});
  if (t.card == "library") {
    s.ui.show_library = true;
  } else if (t.card == "title" || t.card == "end") {
    if (now.card != t.card || now.lesson != t.lesson) {
      ok = !t.lesson.empty() && app::GoToStepId(s, t.lesson);   // a course lesson's id: its title card
      if (ok && t.card == "end") {
        app::GoToStep(s, static_cast<int>(s.model.lesson->lesson.steps.size()) - 1);
        s.ui.end_card = s.InCourse();
      }
    }
  } else if (now.step != t.step || !now.card.empty()) {
    ok = app::GoToStepId(s, t.step);
  }
  if (!ok) {
    Line(s, view::Str::student_no_step, {t.step.empty() ? t.lesson : t.step});
  } else if (t.card.empty()) {
    if (s.ui.event != t.event) app::SetEvent(s, t.event);
    if (t.revealed && !s.ui.revealed) {
      app::Reveal(s);
      VerdictOfSent(s);
    } else if (!t.revealed && s.ui.revealed) {   // revealed while exploring: hidden again in class
      s.ui.revealed = false;
      s.ui.revealed_steps.erase(s.ui.step);
    }
    if (c.line == view::UiFormat(view::Str::student_no_step, s.options.lang, {t.step})) c.line.clear();
  }
  c.pacing_lock = t.pacing_lock;
  c.applied = ShownKey(s);
  return ok;
}

bool OnServerFrame(app::AppState& s, std::string_view text) {
  auto& c = s.ui.student;
  ServerMessage m;
  try {
    m = ParseServerMessage(text);
  } catch (const data::LoadError& e) {
    Line(s, view::Str::student_refused, {e.what()});
    return false;
  }
  if (const auto* w = std::get_if<WelcomeReceived>(&m)) {
    c.joined = true;
    c.ended = false;
    c.following = w->following;
    c.line.clear();
  } else if (const auto* st = std::get_if<StateReceived>(&m)) {
    if (st->seq <= c.seq) return true;   // a repeat, or older than what this screen has
    c.seq = st->seq;
    const TeacherState& t = st->state;
    const bool new_question = t.step != c.step || t.round != c.round;
    c.lesson = t.lesson;
    c.step = t.step;
    c.card = t.card;
    c.event = t.event;
    c.revealed = t.revealed;
    c.round = t.round;
    c.question_open = st->question_open;
    if (new_question && c.sent_question != t.step) c.answer_pending = false;
    if (t.pacing_lock && !c.following) c.following = true;   // the server put everyone back too
    if (c.following) ApplyTeacherState(s, t);
    c.pacing_lock = t.pacing_lock;
  } else if (std::holds_alternative<ClassFullReceived>(m)) {
    c.ended = true;
    Line(s, view::Str::student_class_full);
  } else if (const auto* r = std::get_if<RefusedReceived>(&m)) {
    Line(s, view::Str::student_refused, {r->reason});
  } else if (std::holds_alternative<EndedReceived>(m)) {
    c.ended = true;
    c.following = false;
    Line(s, view::Str::student_ended);
  }
  return true;
}

void AfterInput(app::AppState& s) {
  auto& c = s.ui.student;
  if (!c.joined || c.ended || !c.following || c.seq == 0 || c.applied.empty()) return;
  if (ShownKey(s) == c.applied) return;
  if (c.pacing_lock) {
    ApplyTeacherState(s, Stored(s));
    Line(s, view::Str::student_locked);
    return;
  }
  Detach(s);
}

void Detach(app::AppState& s) {
  auto& c = s.ui.student;
  if (!c.joined || c.ended || !c.following) return;
  if (c.pacing_lock) return Line(s, view::Str::student_locked);
  c.following = false;
  c.want_detach = true;
  c.want_follow = false;
  c.line.clear();
}

void Follow(app::AppState& s) {
  auto& c = s.ui.student;
  if (!c.joined || c.ended || c.following) return;
  c.following = true;
  c.want_follow = true;
  c.want_detach = false;
  c.line.clear();
  if (c.seq > 0) ApplyTeacherState(s, Stored(s));   // at once; the server's reply confirms it
}

std::vector<std::string> TakeOutbox(app::AppState& s) {
  auto& c = s.ui.student;
  std::vector<std::string> out;
  if (!c.connected || !c.joined) return out;
  if (c.want_detach) out.push_back(DetachMessageText());
  if (c.want_follow) out.push_back(FollowMessageText());
  c.want_detach = c.want_follow = false;
  if (c.answer_pending) {
    out.push_back(AnswerMessageText({c.sent_question, c.sent_round, c.sent_answer}));
    c.answer_pending = false;
  }
  return out;
}

PageQuestion QuestionForPage(const app::AppState& s) {
  PageQuestion q;
  const auto* st = s.CurrentStep();
  const auto& c = s.ui.student;
  if (st && c.joined && s.ui.revealed && c.sent_question == st->id && !s.OnTitleCard()) {
    q.step = st->id;
    q.verdict = app::VerdictLine(s, &q.wrong);
  }
  if (!app::AnswersGoToTheClass(s) || !st->check || st->check->number.empty()) return q;
  q.typed = true;
  q.step = st->id;
  q.round = c.round;
  if (c.sent_question == st->id && c.sent_round == c.round) q.sent = c.sent_answer;
  return q;
}

bool AnswerFromPage(app::AppState& s, const std::string& text) {
  if (!QuestionForPage(s).typed || text.empty()) return false;
  auto& field = s.ui.answer_typed;
  std::fill(field.begin(), field.end(), '\0');
  std::copy_n(text.begin(), std::min(text.size(), field.size() - 1), field.begin());
  app::CheckTypedAnswer(s);
  return s.ui.student.answer_pending;
}

}  // namespace bw::classroom
