// AppState: the one struct the app keeps, owned by main(). Split into options (what a user would
// expect to persist), transient interaction state, and the model (the loaded lesson / scenario and
// the engine runs computed at load time) — never a cached copy of engine results per frame.
#pragma once

#include <optional>
#include <string>

#include "data/lesson.h"
#include "view/scene.h"

namespace bw::app {

struct Options {
  std::string lang = "zh";       // "zh" or "en"
  bool projector = false;        // projector palette: white background, thick lines
  float font_px = 22.0f;         // base font size; everything is laid out in multiples of it
};

struct Transient {
  int step = 0;                  // lesson step index (lesson mode)
  int event = 0;                 // trace event index in the current scenario
  std::string error;             // last load error, one line (file: JSON path: reason); "" = none
  bool fonts_dirty = true;       // rebuild the atlas before the next frame
  std::string open_path;         // the Open… text field
};

struct Model {
  std::optional<data::Lesson> lesson;                 // lesson mode when set and no standalone
  std::optional<data::LoadedScenario> standalone;     // a scenario opened on its own
};

struct AppState {
  Options options;
  Transient ui;
  Model model;

  // The scenario (and its run) shown now, or nullptr when nothing is loaded.
  const data::LoadedScenario* Current() const {
    if (model.standalone) return &*model.standalone;
    if (model.lesson && !model.lesson->steps.empty())
      return &model.lesson->ScenarioOf(model.lesson->steps[ui.step]);
    return nullptr;
  }
  const data::LessonStep* CurrentStep() const {
    if (model.standalone || !model.lesson || model.lesson->steps.empty()) return nullptr;
    return &model.lesson->steps[ui.step];
  }
  view::Palette Palette() const { return options.projector ? view::ProjectorPalette() : view::ClassroomPalette(); }
};

// Actions the UI calls (model changes go through these, never through widgets directly).
void GoToStep(AppState& s, int step);                // clamps; jumps to the step's trace event
void StepBy(AppState& s, int delta);                 // lesson steps in lesson mode, events otherwise
void SetEvent(AppState& s, int event);               // clamps
// Opens a lesson (a document with "steps") or a scenario. On error: s.ui.error is set and the
// model is left exactly as it was. Returns true on success.
bool OpenFile(AppState& s, const std::string& path);

}  // namespace bw::app
