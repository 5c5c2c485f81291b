#include "classroom/teacher_state.h"

#include <string>

namespace bw::classroom {

TeacherState TeacherStateOf(const app::AppState& s, const ClassControls& controls) {
  TeacherState t;
  t.course = s.InCourse() ? s.model.course->course.id : "";
  t.lesson = s.InLesson() ? s.model.lesson->lesson.id : "";
  const bool on_step = s.CurrentStep() && !s.OnTitleCard() && !s.OnEndCard() && !s.ui.show_library;
  t.step = on_step ? s.CurrentStep()->id : "";
  t.card = s.ui.show_library ? "library" : s.OnTitleCard() ? "title" : s.OnEndCard() ? "end" : "";
  t.event = s.Current() ? s.ui.event : 0;
  t.position = "event:" + std::to_string(t.event + 1);
  t.revealed = on_step && s.ui.revealed;
  t.pacing_lock = controls.pacing_lock;
  t.round = controls.round;
  t.voting_closed = controls.voting_closed;
  return t;
}

bool RestoreTeacherState(app::AppState& s, const TeacherState& t) {
  if (t.card == "library" || (t.step.empty() && t.lesson.empty())) return false;
  if (!t.step.empty()) {
    if (!app::GoToStepId(s, t.step)) return false;
    if (s.Current() && t.event >= 0 && t.event < s.Current()->EventCount()) app::SetEvent(s, t.event);
    if (t.revealed && !s.ui.revealed) app::Reveal(s);
    return true;
  }
  if (!app::GoToStepId(s, t.lesson)) return false;   // a course lesson's id: its title card
  if (t.card == "end" && s.InLesson()) {
    app::GoToStep(s, static_cast<int>(s.model.lesson->lesson.steps.size()) - 1);
    s.ui.end_card = s.InCourse();
  }
  return true;
}

std::optional<app::StepQuestion> QuestionNow(const app::AppState& s) {
  if (!s.CurrentStep() || s.OnTitleCard() || s.OnEndCard() || s.ui.show_library) return std::nullopt;
  return app::QuestionOf(*s.model.lesson, s.ui.step);
}

}  // namespace bw::classroom
