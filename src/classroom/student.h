// The student's side of a live class (issue 30), without a network or a window: what the student's
// web edition does with the server's messages and what it sends back. The page's WebSocket (web/
// index.html) hands every frame it receives to OnServerFrame and sends what TakeOutbox returns; the
// state lives in AppState::ui.student (session/app_state.h).
// Rules (tests/classroom/student_test.cpp):
//   - while following, every state the teacher publishes puts the same lesson, step or card, trace
//     event and reveal on this screen (ApplyTeacherState); an older or repeated state is ignored;
//   - an answer is never shown before the teacher's reveal: following, a step the teacher has not
//     revealed is shown unrevealed even when this device revealed it while exploring;
//   - a move of the student's own while following (a key, the timeline, a click): with pacing locked
//     it is undone (the teacher's position again, a line says why); else the student is exploring
//     (a detach is sent) until "Back to the class" (a follow is sent; its reply is the current state);
//   - an answer to the open question goes to the class (session: AnswersGoToTheClass) and its verdict
//     shows at the teacher's reveal, by the same check as the desktop (CheckNumberAnswer / choice).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "classroom/class_message.h"
#include "session/app_state.h"

namespace bw::classroom {

// The page's connection to the class opened (code: the join code it joined with) or closed.
void Connected(app::AppState& s, const std::string& code);
void Disconnected(app::AppState& s);

// One frame from the server. A frame that is not a server message is ignored with a line in the
// class bar (returns false).
bool OnServerFrame(app::AppState& s, std::string_view text);

// Puts the teacher's position on this screen (the student's own language, size and fonts).
// Returns false when this edition lacks the teacher's lesson or step (the class bar says which).
bool ApplyTeacherState(app::AppState& s, const TeacherState& t);

// After the frame's input: a move of the student's own while following (see the rules above).
void AfterInput(app::AppState& s);

// "Explore on my own" / "Back to the class".
void Detach(app::AppState& s);
void Follow(app::AppState& s);

// The frames to send now (answers, follow, detach), in order; each parses with ParseStudentMessage.
std::vector<std::string> TakeOutbox(app::AppState& s);

// What is on this screen, as ApplyTeacherState compares it: lesson, step or card, event, reveal.
std::string ShownKey(const app::AppState& s);

// The page's own answer field (web/index.html): a phone's canvas raises no on-screen keyboard, so
// while the class's question asks for a number the page shows an HTML field for it.
struct PageQuestion {
  bool typed = false;     // an answer to the class's open question can be typed now (AnswersGoToTheClass)
  std::string step;       // its step id
  int round = 1;
  std::string sent;       // what this device sent for it this round ("" = nothing yet)
  // After the teacher's reveal: the verdict of what this device sent, as the step's own check row says
  // it (app::VerdictLine), for a phone whose page of text shows the answer instead.
  std::string verdict;
  bool wrong = false;     // the verdict names a wrong answer (the wrong purple)
};
PageQuestion QuestionForPage(const app::AppState& s);
// The page's field sent `text`: as if typed into the step's own field and checked (to the class).
// Returns false when no typed question is open (nothing is sent).
bool AnswerFromPage(app::AppState& s, const std::string& text);

}  // namespace bw::classroom
