// LessonModel loading; see lesson_model.h.
#include "view/lesson_model.h"

#include <algorithm>

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

int LessonModel::OwnerStep(int current, int event) const {
  const auto& steps = lesson.steps;
  const std::string& scenario = steps[static_cast<size_t>(current)].scenario;
  // `better(i, owner)`: i's mark is the better claim (later, or as late and i is the current step).
  int owner = -1, first = -1;
  for (int i = 0; i < static_cast<int>(steps.size()); ++i) {
    if (steps[static_cast<size_t>(i)].scenario != scenario) continue;
    const int mark = step_events[static_cast<size_t>(i)];
    if (first < 0 || mark < step_events[static_cast<size_t>(first)] || (mark == step_events[static_cast<size_t>(first)] && i == current))
      first = i;
    if (mark > event) continue;
    if (owner < 0 || mark > step_events[static_cast<size_t>(owner)] || (mark == step_events[static_cast<size_t>(owner)] && i == current))
      owner = i;
  }
  return owner < 0 ? first : owner;
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
    if (!st.panel.empty()) {
      std::string ids;
      bool found = false;
      for (const auto& sec : sc.Panels(e, "en")) {
        found |= sec.id == st.panel;
        ids += (ids.empty() ? "" : ", ") + sec.id;
      }
      if (!found)
        r.Fail(data::JsonPath(data::JsonPath("/steps", i), "panel"),
               "the scenario \"" + st.scenario + "\" has no panel \"" + st.panel + "\" at this step (panels: " + ids + ")");
    }
    if (!st.conceal.empty() && e >= 0) {
      // Each id names a scene rect or a side-panel section at the step's position.
      const Scene scene = sc.BuildScene(e, "en", ClassroomPalette());
      const auto panels = sc.Panels(e, "en");
      for (size_t k = 0; k < st.conceal.size(); ++k) {
        const std::string& id = st.conceal[k];
        const bool section = std::any_of(panels.begin(), panels.end(), [&](const PanelSection& p) { return p.id == id; });
        if (section || scene.FindRect(id) || (id == kConcealHeatmap && sc.HeatmapAt(e))) continue;
        std::string rects, sections;
        for (size_t q = 0; q < scene.rects.size() && q < 8; ++q) rects += (q ? ", " : "") + scene.rects[q].id;
        if (scene.rects.size() > 8) rects += ", …";
        for (const auto& p : panels) sections += (sections.empty() ? "" : ", ") + p.id;
        r.Fail(data::JsonPath(data::JsonPath(data::JsonPath("/steps", i), "conceal"), k),
               "the scenario \"" + st.scenario + "\" has no scene rect or panel \"" + id + "\" at this step (rects: " + rects +
                   "; panels: " + sections + ")");
      }
    }
    const std::string cp = data::JsonPath(data::JsonPath("/steps", i), "check");
    const auto no_number = [&](const std::string& path, const std::string& name) {
      r.Fail(path, "the scenario \"" + st.scenario + "\" has no single number \"" + name + "\" at position \"" + st.position +
                       "\" to check against");
    };
    if (st.check && !st.check->number.empty() && !sc.NumberAt(e, st.check->number)) no_number(data::JsonPath(cp, "number"), st.check->number);
    if (st.check)
      for (size_t k = 0; k < st.check->mistakes.size(); ++k)
        if (!sc.NumberAt(e, st.check->mistakes[k].number))
          no_number(data::JsonPath(data::JsonPath(data::JsonPath(cp, "mistakes"), k), "number"), st.check->mistakes[k].number);
  }
  return m;
}

}  // namespace bw::view
