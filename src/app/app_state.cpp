// AppState actions; see app_state.h.
#include "app/app_state.h"

#include <algorithm>
#include <fstream>

#include "data/json_file.h"

namespace bw::app {

void SetEvent(AppState& s, int event) {
  const auto* cur = s.Current();
  if (!cur) return;
  s.ui.event = std::clamp(event, 0, static_cast<int>(cur->run.events.size()) - 1);
}

void GoToStep(AppState& s, int step) {
  if (!s.model.lesson || s.model.lesson->steps.empty()) return;
  s.ui.step = std::clamp(step, 0, static_cast<int>(s.model.lesson->steps.size()) - 1);
  s.ui.event = s.model.lesson->EventOf(s.model.lesson->steps[s.ui.step]);
}

void StepBy(AppState& s, int delta) {
  if (s.CurrentStep()) GoToStep(s, s.ui.step + delta);
  else SetEvent(s, s.ui.event + delta);
}

bool OpenFile(AppState& s, const std::string& path) {
  try {
    const auto doc = data::ReadJsonFile(path);
    if (doc.is_object() && doc.contains("steps")) {
      data::Lesson lesson = data::LoadLesson(path);
      s.model.standalone.reset();
      s.model.lesson = std::move(lesson);
      GoToStep(s, 0);
    } else {
      data::LoadedScenario ls;
      ls.relative_path = path;
      ls.path = path;
      ls.scenario = data::ParseSingleQueryScenario(doc, path);
      ls.run = engine::RunSingleQuery(ls.scenario.problem);
      s.model.standalone = std::move(ls);
      s.ui.event = 0;
    }
    s.ui.error.clear();
    s.ui.fonts_dirty = true;  // new strings may need new glyphs
    return true;
  } catch (const data::LoadError& e) {
    s.ui.error = e.what();
  } catch (const std::exception& e) {
    s.ui.error = path + ": (document): " + e.what();
  }
  s.ui.fonts_dirty = true;  // the error line may name a path with new characters
  return false;
}

}  // namespace bw::app
