// What the main window shows now, as text, from one place: the step's text (filled from the engine
// at the current position, its answer held back while a predict question is open), the side panels
// (answers held back likewise; in projector mode only the panel the step is about), and the
// diagram's labels. The panels draw these, --dump-scene writes them, tests read them.
#pragma once

#include <string>
#include <vector>

#include "session/app_state.h"

namespace bw::app {

struct ShownStep {
  std::string title, body;
  std::string predict;   // the question, or "" when the step asks none
  std::string reveal;    // how to reveal the answer ("PageDown / R …"), while the question is open
  std::string answer;    // the step's answer, once revealed ("" before, or when it has none)
  std::string further;   // "" while the question is open: the explanation would answer it
};
ShownStep StepTextNow(const AppState& s);

// The scenario's panel sections at the current event. Rows marked `answer` show a placeholder while
// the step's predict question is open. In projector mode only the section the step names (its
// "panel", else the first) is kept: diagram + one panel + the step text.
std::vector<view::PanelSection> PanelsNow(const AppState& s);

// The diagram at the current event. Its answer records (the balance's mean and midpoint) are left
// out while the step's predict question is open, as the panels' answer rows are.
view::Scene SceneNow(const AppState& s);
// Leaves out a scene's answer records while the step's question is open (SceneNow does this).
void DropAnswers(view::Scene& scene, const AppState& s);

// The step's question is open and its "conceal" names `id` (a scene rect, a panel section, or
// view::kConcealHeatmap: the P heatmap beside the diagram).
bool ConcealedNow(const AppState& s, const std::string& id);

// What the current step says now, its placeholders filled: its body, its question, and its answer
// once revealed ("" outside a lesson).
std::string StepSaysNow(const AppState& s);
// Whether `text` holds a number (two digits or more: "288", "1/3", "0.3333") that `said` quotes:
// a number the step is about, which a projector draws at the key size (issue 29).
bool QuotesANumberOf(const std::string& said, const std::string& text);
// Projector: marks the scene's texts that hold a number the step quotes as key (SceneNow does this).
void MarkQuotedNumbers(view::Scene& scene, const AppState& s);

// Every string the main window shows now (step text, panels, diagram labels, timeline label).
std::vector<std::string> VisibleTexts(const AppState& s);
// The same, each with where it is drawn: "step text", "step title", "step question", "step answer",
// "panel <section id>", "diagram <rect or text id>", "diagram arrow", "timeline".
struct VisibleText {
  std::string where;
  std::string text;
  bool rect_label = false;   // a label, not a value: a diagram rectangle's label or sublabel ("K/V 3"), a panel row's name
};
std::vector<VisibleText> VisibleTextsWhere(const AppState& s);

// The numbers written in `text`: runs of digits with a '.' or '/' between digits ("160/7", "22.857",
// "0.5"), with a sign right before ("-", U+2212). Not a number: one right after a letter, '@' or '_'
// (the 3 of "l@3", "K_12").
std::vector<std::string> NumbersIn(const std::string& text);

// A question whose answer is on screen while it is open. Every question: a number its answer quotes
// that its title, body, question and choices do not (two digits or more, not a single-query input)
// drawn outside the step text (N23/c1's choice question showed its answer's SRAM count in a panel;
// only number questions were looked at). And a checked number question (issue 32: a lesson that
// asks at its last position, where the output is drawn, gives its answer away and loads "ok"): for
// each number question of the open lesson, at its step with the question open, in zh and en, in
// the window and in projector mode, the first number the engine draws (the diagram, the panels, the
// timeline: VisibleTextsWhere less the step's own texts, which are the author's to read) that the
// question's own check would take as right. Not looked at: a label whose numbers, two or more, all
// equal a single-query scenario's input weights or values ("w 3, 1 · v 30, 40": on screen from the
// start); a number of one digit, except in a panel's value or a free diagram text where it is the
// text's only number or a count with its word after it ("6 computed, 3 skipped": a count question's
// answer) — never in a label ("K/V 3", block 2's row). Moves the lesson to its first step; keeps the language and mode.
struct AnswerShown {
  int step = 0;
  std::string step_id;     // "N50/w1"
  std::string number;      // the check's quantity ("output"); "" for a number the step's answer quotes
  std::string token;       // what is drawn: "160/7"
  std::string where;       // VisibleText::where
  std::string text;        // the whole text it is in
  std::string lang;        // "zh" or "en" (the first that shows it)
  bool projector = false;
};
std::vector<AnswerShown> AnswersShownBeforeReveal(AppState& s);
// Scrubbed away from the current step's own event: the line above its text that says which event
// the text is about (with a way back); "" at the step's event or outside a lesson.
std::string AwayFromStepLine(const AppState& s);

// Every string the current model can show: the UI table, the lesson's texts in both languages, its
// scenarios', the course's and the library's (the font atlas's glyph ranges, the glyph tests).
std::vector<std::string> ShownTexts(const AppState& s);

}  // namespace bw::app
