// A step's checked exercise as plain data, and the one rule that checks an answer against it — the
// rule the desktop's CheckTypedAnswer applies, here for anyone holding the question without an
// AppState (the class server counts the room's answers with it, src/classroom/).
//   - a number question: view::CheckTypedNumber against the engine's value at the step's own event;
//     a wrong number equal (by the same rule) to one of the check's "mistakes" names that mistake
//     (the first that matches: N50/w1's 65/3 is "average", the plain mean of the block outputs);
//   - a choice question: right when it is the check's "correct" choice (1-based).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "view/exercise.h"
#include "view/lesson_model.h"

namespace bw::app {

struct StepQuestion {
  std::string step_id;                         // "N50/w1"
  // A number question: the engine's value of check.number at the step's event. nullopt: a choice question.
  std::optional<view::ExpectedNumber> number;
  int choices = 0;                             // a choice question: how many (2–8); 0 for a number question
  int correct = 0;                             // its right choice, 1-based
  struct Mistake {
    std::string name;                          // the quantity the check names ("average")
    std::optional<view::ExpectedNumber> value; // its value at the step's event (nullopt: the scenario has none)
  };
  std::vector<Mistake> mistakes;               // in the check's order
};

// The question of lesson step `step` (a predict step with a "check"), or nullopt when it has none
// (or a number the scenario does not have at that event).
std::optional<StepQuestion> QuestionOf(const view::LessonModel& lesson, int step);

struct AnswerCheck {
  view::CheckVerdict verdict = view::CheckVerdict::kUnreadable;
  int mistake = -1;   // index into StepQuestion::mistakes of the named mistake; −1 = none
};

// A typed number checked against a number question (kUnreadable for a choice question).
AnswerCheck CheckNumberAnswer(const StepQuestion& q, const std::string& typed);
// Choice `choice` (1-based) of a choice question: kRight or kWrong; kUnreadable outside 1..choices.
AnswerCheck CheckChoiceAnswer(const StepQuestion& q, int choice);

}  // namespace bw::app
