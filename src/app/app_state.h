// AppState: the one struct the app keeps, owned by main(). Split into options (persisted between
// runs), transient interaction state, and the model (the loaded lesson or scenario, with the engine
// runs computed at load time) — never a cached copy of engine results per frame.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "view/lesson_model.h"
#include "view/scenario_model.h"
#include "view/scene.h"

namespace bw::app {

struct Options {
  std::string lang = "zh";       // "zh" or "en"
  bool projector = false;        // projector palette: white background, thick lines
  float font_px = 22.0f;         // base font size; everything is laid out in multiples of it
  float play_speed = 4.0f;       // events per second while playing
};

struct Transient {
  int step = 0;                  // lesson step index (lesson mode)
  int event = 0;                 // trace event index in the current scenario
  bool playing = false;
  double last_advance = 0;       // glfwGetTime() of the last automatic step
  bool show_help = false;        // the '?' shortcut overlay
  std::string error;             // last load error, one line (file: JSON path: reason); "" = none
  bool fonts_dirty = true;       // rebuild the atlas before the next frame
};

struct Model {
  std::optional<view::LessonModel> lesson;              // lesson mode when set and no standalone
  std::shared_ptr<const view::ScenarioModel> standalone;  // a scenario opened on its own
};

struct AppState {
  Options options;
  Transient ui;
  Model model;

  bool InLesson() const { return !model.standalone && model.lesson && !model.lesson->lesson.steps.empty(); }
  // The scenario shown now, or nullptr when nothing is loaded.
  const view::ScenarioModel* Current() const {
    if (model.standalone) return model.standalone.get();
    if (InLesson()) return &model.lesson->ScenarioOf(ui.step);
    return nullptr;
  }
  const data::LessonStep* CurrentStep() const { return InLesson() ? &model.lesson->lesson.steps[ui.step] : nullptr; }
  view::Palette Palette() const { return options.projector ? view::ProjectorPalette() : view::ClassroomPalette(); }
};

// Actions the UI calls (model changes go through these, never through widgets directly).
void GoToStep(AppState& s, int step);      // clamps; jumps to the step's trace event
void StepLesson(AppState& s, int delta);   // next/previous lesson step (events, without a lesson)
void StepEvent(AppState& s, int delta);    // one trace event
void StepBlock(AppState& s, int delta);    // to the next/previous block boundary of the trace
void SetEvent(AppState& s, int event);     // clamps
// Opens a lesson (a document with "steps") or a scenario. On error: s.ui.error is set and the
// model is left exactly as it was. Returns true on success.
bool OpenFile(AppState& s, const std::string& path);

}  // namespace bw::app
