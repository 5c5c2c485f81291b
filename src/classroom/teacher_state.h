// What the teacher's screen shows, as the class protocol's TeacherState (issue 30): read from the
// app's one AppState, without a window, so that the desktop app and its tests publish the same thing.
#pragma once

#include <optional>

#include "classroom/class_message.h"
#include "session/answer_check.h"
#include "session/app_state.h"

namespace bw::classroom {

// The class settings the teacher holds beside the lesson (the notes window changes them).
struct ClassControls {
  bool pacing_lock = false;
  int round = 1;
  bool voting_closed = false;
};

// The lesson, step and trace position on the teacher's screen: course and lesson ids, the step id
// ("" on a title or end card, in the library, or with a scenario and no lesson), the position as
// "event:N" (1-based, data/position.h), whether the step's answer is revealed.
TeacherState TeacherStateOf(const app::AppState& s, const ClassControls& controls);

// A restarted teacher app resuming its class (the state file's teacher state): puts the screen back
// where the class was — the step (or the lesson's title card, the course's end card), its trace
// event and its reveal — so that the first state published after the restart changes nothing for the
// students. Returns false (the screen unchanged) when this app lacks that lesson or step.
bool RestoreTeacherState(app::AppState& s, const TeacherState& t);

// The question open on the teacher's screen (its step has a checked predict), else nullopt.
std::optional<app::StepQuestion> QuestionNow(const app::AppState& s);

}  // namespace bw::classroom
