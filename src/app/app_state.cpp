// AppState actions; see app_state.h.
#include "app/app_state.h"

#include <algorithm>

#include "data/json_file.h"

namespace bw::app {

void SetEvent(AppState& s, int event) {
  const auto* cur = s.Current();
  if (!cur) return;
  s.ui.event = std::clamp(event, 0, cur->EventCount() - 1);
}

void GoToStep(AppState& s, int step) {
  if (!s.InLesson()) return;
  s.ui.step = std::clamp(step, 0, static_cast<int>(s.model.lesson->lesson.steps.size()) - 1);
  s.ui.event = s.model.lesson->EventOf(s.ui.step);
}

void StepLesson(AppState& s, int delta) {
  if (s.InLesson()) GoToStep(s, s.ui.step + delta);
  else StepEvent(s, delta);
}

void StepEvent(AppState& s, int delta) { SetEvent(s, s.ui.event + delta); }

void StepBlock(AppState& s, int delta) {
  const auto* cur = s.Current();
  if (!cur) return;
  const auto marks = cur->BlockMarks();
  if (delta > 0) {
    for (const auto& m : marks)
      if (m.event > s.ui.event) return SetEvent(s, m.event);
    SetEvent(s, cur->EventCount() - 1);
  } else {
    for (auto it = marks.rbegin(); it != marks.rend(); ++it)
      if (it->event < s.ui.event) return SetEvent(s, it->event);
    SetEvent(s, 0);
  }
}

bool OpenFile(AppState& s, const std::string& path) {
  try {
    const auto doc = data::ReadJsonFile(path);
    if (doc.is_object() && doc.contains("steps")) {
      view::LessonModel lesson = view::LoadLessonModel(path);
      s.model.standalone.reset();
      s.model.lesson = std::move(lesson);
      GoToStep(s, 0);
    } else {
      s.model.standalone = view::ParseScenarioModel(doc, path);
      s.ui.event = 0;
    }
    s.ui.playing = false;
    s.ui.error.clear();
    s.ui.fonts_dirty = true;  // new strings may need new glyphs
    return true;
  } catch (const data::LoadError& e) {
    s.ui.error = e.what();
  } catch (const std::exception& e) {  // an engine refusal (ValidationError) or allocation failure
    s.ui.error = path + ": (document): " + e.what();
  }
  s.ui.fonts_dirty = true;  // the error line may name a path with new characters
  return false;
}

}  // namespace bw::app
