// What a live class (issue 30) adds to the teacher's windows, drawn from AppState::ui.live_class
// alone (app/live_class.h fills it from the class server and does what the teacher asks here), so
// that this file needs no network and compiles in both editions.
#pragma once

#include "app/fonts.h"
#include "session/app_state.h"

namespace bw::app {

// The notes window's class section, for the teacher's eyes only: URL, code, students, the current
// step's answers (this round, and a line per earlier round), the controls (lock pacing, vote again
// after discussion, close or reopen the vote, project the answers once revealed, export the
// results, end the class with a second click), the devices with Remove, the server's last log lines.
// A control only writes AppState::ui.live_class.want.
void DrawClassControls(AppState& s);

// The class's answers to the current step as anonymous bars (each answer, its count, ✓ or × and a
// named mistake), over the projected screen's lower right corner — only once the step is revealed
// and while the teacher projects them. Its numbers at the key size: 36 px em at 1080 rows
// (`scale` = display height / 1080).
void DrawClassAnswers(const AppState& s, const Fonts& fonts, float scale);

// Whether DrawClassAnswers draws now (a test of the rule: never before the reveal).
bool ClassAnswersShown(const AppState& s);

// Whether the join card (DrawJoinCard) is on the projected screen: a class runs, the screen is not
// blanked, and a title card, the end card or the library shows — or J asked.
bool JoinCardShown(const AppState& s);

// The join card, over the projected screen's lower right corner: the URL, the code, the QR code
// (AppState::ui.live_class.qr, encoded by live_class.cpp) and the count of students joined. Nothing
// while no class runs or the teacher hid it (J).
void DrawJoinCard(const AppState& s, float scale);

}  // namespace bw::app
