// Lesson file v1: ordered steps, each bound to a scenario and a position in the engine's trace.
//   { "$schema": "../schemas/lesson-v1.schema.json", "schema_version": 1, "id": "RC-T3",
//     "title": {"zh","en"},
//     "scenarios": {"worked": "scenarios/worked_214.json"},   — paths relative to the lesson file,
//                                                               never outside the lesson's folder
//     "steps": [ { "id": "RC-T3/b0", "scenario": "worked", "position": "start",
//                  "title", "body", "further", "teacher_notes", "source": {"zh","en"},
//                  "highlight": ["hbm.sp"], "predict": {"zh","en"}, "panel": "counters"
//                  — all three optional }, … ] }
// "position" names a trace event of the bound scenario ("start", "update:2", "tile:1,3", "end"…,
// every number 1-based): the grammar is data/position.h, which this loader applies; each scenario
// kind accepts some of its forms (view::ScenarioModel::PositionHelp).
// Text may hold placeholders such as {u}, {l}, {m}, {output}, {u_b@1}, {output|fraction}: see
// view/lesson_text.h and docs/placeholders.md (generated from view/placeholder_reference.cpp).
// Errors: LoadError (file, JSON path, reason). This loader checks the format (a position is a
// string of the grammar); view::LoadLessonModel also loads every scenario and checks that every
// position is in its scenario's trace.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "data/scenario.h"

namespace bw::data {

inline constexpr int kMaxSteps = 500;
// Each named scenario is loaded and run once: a lesson naming the largest allowed scenario under
// thousands of keys would take the app's memory and minutes. 64 is far more than any lesson needs.
inline constexpr int kMaxLessonScenarios = 64;

struct LessonStep {
  std::string id;            // "RC-T3/b0"
  std::string scenario;      // key into Lesson::scenarios
  std::string position;      // trace event, a string of data/position.h's grammar
  LocalText title, body, further, teacher_notes, source;
  // Optional. "highlight": ids of scene rects to emphasise ("hbm.sp", "grid.1,2", "expert.3"; the
  // lesson tests check each exists in the step's scene). "predict": a question students answer
  // before the next step reveals it (predict-then-reveal).
  std::vector<std::string> highlight;
  std::optional<LocalText> predict;
  // Optional, only with "predict": the answer, shown when the teacher reveals it (the first
  // PageDown, R or the Reveal button). Placeholders are filled from the engine like any text.
  std::optional<LocalText> answer;
  // Optional, only with "predict": what would give the answer away while the question is open,
  // hidden until it is revealed — ids of scene rects (the rect stays, its label reads "?" and every
  // text drawn inside it is left out: "sram.acc") and of side-panel sections (left out:
  // "accumulator", "blocks"), or "heatmap" (the P heatmap, view::kConcealHeatmap). view::LoadLessonModel
  // checks that each names one of them at the step's position.
  std::vector<std::string> conceal;
  // Optional. "panel": the id of the side-panel section the step is about ("accumulator",
  // "blocks", "counters", "compare", …; view::PanelSection::id). It is the one panel shown in
  // projector mode. view::LoadLessonModel checks that the step's scenario has it.
  std::string panel;
  // Optional, only with "predict": a checked exercise. Students type their answer (or pick a
  // choice) and it is checked before the answer is revealed.
  //   {"number": "output"}  — a quantity name of the step's scenario (lesson_text.h); the typed
  //     number is checked against the engine's value at the step's event: exactly when the engine
  //     has the value exactly (a typed fraction 160/7 must equal it; a typed decimal 22.857 must
  //     be it correctly rounded to the digits given, with at least 3 significant digits).
  //     view::LoadLessonModel checks that the scenario has this number at the step's position.
  //   {"choices": [{"zh","en"}, …], "correct": K}  — 2 to 8 choices; K is 1-based.
  struct Check {
    std::string number;               // quantity name, or "" for a choice question
    std::vector<LocalText> choices;   // empty for a number question
    int correct = 0;                  // 1-based index into choices
    // A number question's known wrong answers: a typed number equal to the engine's value of
    // `number` (by the same rule as the right answer) gets `hint` instead of a plain "not right"
    // (N50/w1: 65/3 is the plain mean of the block outputs). Placeholders filled like the step's text.
    struct Mistake {
      std::string number;
      LocalText hint;
    };
    std::vector<Mistake> mistakes;
  };
  std::optional<Check> check;
};

// Every text of `step` a reader may be shown, each with its JSON path under the step: "/title",
// "/body", "/further", "/teacher_notes", "/source", then "/predict", "/answer", each known mistake's
// "/check/mistakes/K/hint" and each "/check/choices/K" (K 0-based) where the step has them. The one
// list the loader's placeholder check (view::LoadLessonModel), the font atlas's strings
// (app::ShownTexts) and the lesson tests read.
struct StepText {
  std::string path;
  const LocalText* text = nullptr;
};
std::vector<StepText> StepTexts(const LessonStep& step);

struct ScenarioRef {
  std::string relative_path;     // as written in the lesson
  std::filesystem::path path;    // resolved, inside the lesson's folder (not yet loaded: see
                                 // view::LoadLessonModel, which loads it and checks positions)
};

struct Lesson {
  std::string file;
  std::string id;
  LocalText title;
  std::map<std::string, ScenarioRef> scenarios;
  std::vector<LessonStep> steps;

  int FindStep(const std::string& step_id) const;  // -1 if absent
};

Lesson LoadLesson(const std::filesystem::path& path);
// The same for `doc`, already read from `path` (a file is read once: view::OpenDocument).
Lesson ParseLesson(const nlohmann::json& doc, const std::filesystem::path& path);

}  // namespace bw::data
