// LessonModel loading; see lesson_model.h.
#include "view/lesson_model.h"

#include "data/json_file.h"

namespace bw::view {

FilledText LessonModel::Text(int step, const data::LocalText data::LessonStep::*field, const std::string& lang) const {
  const auto& st = lesson.steps[step];
  return Fill((st.*field).In(lang), ScenarioOf(step).QuantitiesAt(step_events[step]));
}

FilledText LessonModel::Fill(const std::string& tmpl, const Quantities& q) const {
  std::map<std::string, std::vector<std::string>> wanted;   // scenario key → names
  for (const auto& name : PlaceholderNames(tmpl))
    if (const auto slash = name.find('/'); slash != std::string::npos)
      wanted[name.substr(0, slash)].push_back(name.substr(slash + 1));
  if (wanted.empty()) return FillPlaceholders(tmpl, q);
  Quantities all = q;
  for (const auto& [key, names] : wanted) {
    const auto it = scenarios.find(key);
    if (it == scenarios.end()) continue;   // left unknown: {key/name?}
    const Quantities other = it->second->QuantitiesAt(it->second->EventCount() - 1);
    for (const auto& n : names)
      if (const auto v = other.find(n); v != other.end()) all[key + "/" + n] = v->second;
  }
  return FillPlaceholders(tmpl, all);
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
