// The checked-exercise rule as plain data; see answer_check.h.
#include "session/answer_check.h"

namespace bw::app {

std::optional<StepQuestion> QuestionOf(const view::LessonModel& L, int step) {
  if (step < 0 || step >= static_cast<int>(L.lesson.steps.size())) return std::nullopt;
  const auto& st = L.lesson.steps[static_cast<size_t>(step)];
  if (!st.predict || !st.check) return std::nullopt;
  StepQuestion q;
  q.step_id = st.id;
  const int e = L.EventOf(step);  // the step's own event: where the lesson checked that the number exists
  const auto& model = L.ScenarioOf(step);
  if (!st.check->number.empty()) {
    q.number = model.NumberAt(e, st.check->number);
    if (!q.number) return std::nullopt;
    for (const auto& m : st.check->mistakes) q.mistakes.push_back({m.number, model.NumberAt(e, m.number)});
  } else {
    q.choices = static_cast<int>(st.check->choices.size());
    q.correct = st.check->correct;
  }
  return q;
}

AnswerCheck CheckNumberAnswer(const StepQuestion& q, const std::string& typed) {
  AnswerCheck a;
  if (!q.number) return a;
  a.verdict = view::CheckTypedNumber(typed, *q.number);
  // A known wrong answer (the plain mean 65/3 for 160/7) is named, by the same rule as the right one.
  if (a.verdict == view::CheckVerdict::kWrong)
    for (size_t k = 0; k < q.mistakes.size() && a.mistake < 0; ++k)
      if (q.mistakes[k].value && view::CheckTypedNumber(typed, *q.mistakes[k].value) == view::CheckVerdict::kRight)
        a.mistake = static_cast<int>(k);
  return a;
}

AnswerCheck CheckChoiceAnswer(const StepQuestion& q, int choice) {
  AnswerCheck a;
  if (q.number || choice < 1 || choice > q.choices) return a;
  a.verdict = choice == q.correct ? view::CheckVerdict::kRight : view::CheckVerdict::kWrong;
  return a;
}

}  // namespace bw::app
