// LessonModel: a lesson file with every bound scenario loaded as a ScenarioModel and every step's
// position resolved to a trace event — what the app plays. Loading fails as a whole (LoadError
// naming the lesson file and the JSON path) if any scenario does not load or any position is unknown.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "data/lesson.h"
#include "view/scenario_model.h"

namespace bw::view {

// A step's "conceal" may name the P heatmap beside the diagram (where the scenario draws one): it
// shows "? (predict first)" while the question is open (MASK/k1: the mask in it counts the skipped tiles).
inline constexpr const char* kConcealHeatmap = "heatmap";
// It may name the merge strip under the single-query diagram (the merge's formulas with their values,
// scene texts "strip.*"): while the question is open one muted line stands where it was. Only when
// named: a question about something else leaves the strip on screen (issue 32 — RC-T3/b1 names it).
inline constexpr const char* kConcealStrip = "strip";
bool HasMergeStrip(const Scene& scene);

struct LessonModel {
  data::Lesson lesson;
  std::map<std::string, std::shared_ptr<const ScenarioModel>> scenarios;  // by the lesson's key
  std::vector<int> step_events;                                           // [step] → trace event

  const ScenarioModel& ScenarioOf(int step) const { return *scenarios.at(lesson.steps[step].scenario); }
  int EventOf(int step) const { return step_events[step]; }
  // The position drives everything: a step owns the stretch of its scenario's trace from its own
  // event to the next mark of any step bound to the same scenario, wherever the steps stand in the
  // lesson, so a position shows the same text however it was reached (MASK's k4 and k6 share a
  // scenario with k5 between them: dragging to one position showed k4's text coming from k4 and k6's
  // coming from k6, a helper found). The owner of `event` is the step of that scenario with the
  // greatest event ≤ `event` (`current` wins a tie, else the earliest step: two steps at one event
  // are told apart by PageDown, not by the scrubber), or, before all of them, the one with the
  // smallest event. `current` is the step shown now.
  int OwnerStep(int current, int event) const;
  // The step's text with its placeholders filled at the step's own event. Unknown placeholders are
  // listed in `unknown` (tests fail on them; the app shows them as {name?}).
  FilledText Text(int step, const data::LocalText data::LessonStep::*field, const std::string& lang) const;
  // Fills `tmpl` from `q` (the step's own scenario, at whatever event is shown) and, for a name
  // written {KEY/NAME}, from the lesson's scenario KEY at its last event ("end"): a step can quote
  // a second scenario's figures (RC-T3/b2 shows the two-block hand calculation beside its
  // three-block diagram). Only the scenarios the text names are asked.
  FilledText Fill(const std::string& tmpl, const Quantities& q) const;
};

// Reads the lesson at `path`, loads and runs its scenarios (each file once) under `options`, and
// checks every step against them. Throws data::LoadError.
LessonModel LoadLessonModel(const std::filesystem::path& path, const ModelOptions& options = {});
// The same for a lesson already read (data::ParseLesson, a course's outline): its file is not read again.
LessonModel LoadLessonModel(data::Lesson lesson, const ModelOptions& options = {});

}  // namespace bw::view
