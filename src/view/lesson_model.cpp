// LessonModel loading; see lesson_model.h.
#include "view/lesson_model.h"

#include "data/json_file.h"

namespace bw::view {

FilledText LessonModel::Text(int step, const data::LocalText data::LessonStep::*field, const std::string& lang) const {
  const auto& st = lesson.steps[step];
  return FillPlaceholders((st.*field).In(lang), ScenarioOf(step).QuantitiesAt(step_events[step]));
}

LessonModel LoadLessonModel(const std::filesystem::path& path) {
  LessonModel m;
  m.lesson = data::LoadLesson(path);
  const data::JsonReader r(path.string());
  for (const auto& [key, ref] : m.lesson.scenarios) {
    try {
      m.scenarios[key] = LoadScenarioModel(ref.path);
    } catch (const data::LoadError& e) {
      r.Fail(data::JsonPath("/scenarios", key), std::string("scenario does not load: ") + e.what());
    }
  }
  for (size_t i = 0; i < m.lesson.steps.size(); ++i) {
    const auto& st = m.lesson.steps[i];
    const auto& sc = *m.scenarios.at(st.scenario);
    const int e = sc.FindPosition(st.position);
    if (e < 0)
      r.Fail(data::JsonPath(data::JsonPath("/steps", i), "position"),
             "the trace of \"" + st.scenario + "\" has no position \"" + st.position + "\" (use " + sc.PositionHelp() + ")");
    m.step_events.push_back(e);
  }
  return m;
}

}  // namespace bw::view
