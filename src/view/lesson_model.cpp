// LessonModel loading; see lesson_model.h.
#include "view/lesson_model.h"

#include <algorithm>
#include <cctype>

#include "data/attention_scenario.h"
#include "data/json_file.h"
#include "data/scenario.h"
#include "view/attention_model.h"
#include "view/single_query_model.h"

#include <optional>
#include <set>
#include <vector>

namespace bw::view {

FilledText LessonModel::Text(int step, const data::LocalText data::LessonStep::*field, const std::string& lang) const {
  const auto& st = lesson.steps[step];
  return Fill((st.*field).In(lang), ScenarioOf(step).QuantitiesAt(step_events[step]));
}

FilledText LessonModel::Fill(const std::string& tmpl, const Quantities& q) const {
  std::map<std::string, std::vector<std::string>> wanted;   // scenario key → names
  for (const auto& name : PlaceholderNames(tmpl))
    if (const auto slash = name.find('/'); slash != std::string::npos)
      wanted[name.substr(0, slash)].push_back(PlaceholderBase(name.substr(slash + 1)));
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

namespace {

// Every placeholder of step i's texts names a quantity its scenario has at the step's event (a
// {KEY/NAME} one: scenario KEY at its end), and every '{' is closed: a lesson with {m@99999999999},
// {} or an unclosed {m passed `check` and the class saw the raw braces (issue 31). Quantities are
// formatted only for steps whose texts hold placeholders, once per step.
void CheckPlaceholders(const data::JsonReader& r, const LessonModel& m, size_t i, int e) {
  const auto& st = m.lesson.steps[i];
  const ScenarioModel& sc = *m.scenarios.at(st.scenario);
  std::optional<Quantities> here;
  std::map<std::string, Quantities> at_end;
  const std::string step_path = data::JsonPath("/steps", i);
  const auto check_at = [&](const data::LocalText& text, const std::string& at) {
    for (const char* lang : {"zh", "en"}) {
      const std::string& t = text.In(lang);
      if (t.find('{') == std::string::npos) continue;
      const std::string path = data::JsonPath(at, lang);
      for (size_t k = 0; k < t.size(); ++k) {
        if (t[k] != '{') continue;
        if (k + 1 < t.size() && t[k + 1] == '{') { ++k; continue; }
        if (t.find('}', k) == std::string::npos)
          r.Fail(path, "a '{' with no closing '}' (placeholders are {name}; write {{ for a literal brace)");
      }
      for (const std::string& name : PlaceholderNames(t)) {
        const auto slash = name.find('/');
        bool known = false;
        std::string where = "scenario \"" + st.scenario + "\" at this step";
        const Quantities* offered = nullptr;
        if (slash == std::string::npos) {
          if (!here) here = sc.QuantitiesAt(e);
          known = LookupPlaceholder(*here, name).has_value();
          offered = &*here;
        } else {
          const std::string key = name.substr(0, slash);
          where = "scenario \"" + key + "\" at its end";
          const auto it = m.scenarios.find(key);
          if (it == m.scenarios.end()) r.Fail(path, "placeholder {" + name + "}: the lesson has no scenario \"" + key + "\"");
          auto [q, fresh] = at_end.try_emplace(key);
          if (fresh) q->second = it->second->QuantitiesAt(it->second->EventCount() - 1);
          known = LookupPlaceholder(q->second, name.substr(slash + 1)).has_value();
          offered = &q->second;
        }
        if (known) continue;
        const std::string local = slash == std::string::npos ? name : name.substr(slash + 1);
        const std::string base = PlaceholderBase(local);
        const std::string shown = "{" + name.substr(0, 60) + (name.size() > 60 ? "\u2026" : "") + "}";
        if (base != local && offered->count(base))
          r.Fail(path, "placeholder " + shown + ": no form \"" + local.substr(base.size() + 1).substr(0, 30) +
                           "\" (the forms are |fraction and |decimal; docs/placeholders.md)");
        std::vector<std::string> names;
        for (const auto& [n, v] : *offered) names.push_back(n);
        const std::string near = NearestName(names, base);
        r.Fail(path, "unknown placeholder " + shown + ": the " + where + " has no such quantity" +
                         (near.empty() ? "" : "; did you mean {" + (slash == std::string::npos ? "" : name.substr(0, slash + 1)) + near + "}?") +
                         " (`blockwise-cli placeholders` lists the " + std::to_string(names.size()) +
                         " it offers; docs/placeholders.md; write {{ for a literal brace)");
      }
    }
  };
  // Every text the step can show, a known mistake's hint and a choice among them (a typo in a hint
  // passed `check` and the student saw "{avrage|fraction?}": issue 32's re-walk).
  for (const auto& t : data::StepTexts(st)) check_at(*t.text, step_path + t.path);
}

}  // namespace

LessonModel LoadLessonModel(const std::filesystem::path& path, const ModelOptions& options) {
  return LoadLessonModel(data::LoadLesson(path), options);
}

LessonModel LoadLessonModel(data::Lesson lesson, const ModelOptions& options) {
  LessonModel m;
  m.lesson = std::move(lesson);
  const data::JsonReader r(m.lesson.file);
  // Every scenario is loaded and run now, so a lesson shares one file's budget: its attention
  // scenarios' multiply-adds per pass and scores together (attention_scenario.h), its single-query
  // scenarios' block values (scenario.h), checked before any of them runs. A file named by several
  // keys is loaded, run and counted once.
  std::map<std::filesystem::path, std::shared_ptr<const ScenarioModel>> by_path;
  std::vector<std::pair<std::filesystem::path, data::AttentionScenario>> attention;
  std::set<std::filesystem::path> seen;
  std::vector<std::pair<std::filesystem::path, data::SingleQueryScenario>> single;
  std::int64_t work = 0, scores = 0, block_values = 0;
  for (const auto& [key, ref] : m.lesson.scenarios) {
    const std::string at = data::JsonPath("/scenarios", key);
    if (!seen.insert(ref.path).second) continue;
    std::optional<data::AttentionScenario> sc;
    std::optional<data::SingleQueryScenario> sq;
    try {
      ScenarioData data = ParseScenarioData(data::ReadJsonFile(ref.path), ref.path.string());
      if (auto* a = std::get_if<data::AttentionScenario>(&data)) sc = std::move(*a);
      else if (auto* q = std::get_if<data::SingleQueryScenario>(&data)) sq = std::move(*q);
      else by_path[ref.path] = MakeScenarioModel(std::move(data), options);
    } catch (const data::LoadError& e) {
      r.Fail(at, std::string("scenario does not load: ") + e.what());
    }
    if (sq) {
      block_values += data::BlockValues(sq->problem);
      if (block_values > data::kMaxBlockValues)
        r.Fail(at, "the lesson's single-query scenarios hold " + std::to_string(block_values) + " block values together (blocks x d_v, each file once); the limit is " +
                       std::to_string(data::kMaxBlockValues) + ", as for one file: the app runs them all when the lesson opens");
      single.emplace_back(ref.path, std::move(*sq));
    }
    if (!sc) continue;
    work += data::MultiplyAdds(sc->problem);
    scores += sc->problem.n_q() * sc->problem.n_k();
    if (work > data::kMaxMultiplyAdds)
      r.Fail(at, "the lesson's attention scenarios need " + std::to_string(work) + " multiply-adds per pass together (N_q x N_k x (d + d_v), each file once); the limit is " +
                     std::to_string(data::kMaxMultiplyAdds) + ", as for one file: the app runs them all when the lesson opens");
    if (scores > data::kMaxScoreElements)
      r.Fail(at, "the lesson's attention scenarios hold " + std::to_string(scores) + " scores together (N_q x N_k, each file once); the limit is " +
                     std::to_string(data::kMaxScoreElements) + ", as for one file: the app runs them all when the lesson opens");
    attention.emplace_back(ref.path, std::move(*sc));
  }
  for (auto& [path, sc] : single) by_path[path] = MakeScenarioModel(std::move(sc), options);
  for (auto& [path, sc] : attention) by_path[path] = MakeScenarioModel(std::move(sc), options);
  for (const auto& [key, ref] : m.lesson.scenarios) m.scenarios[key] = by_path.at(ref.path);
  for (size_t i = 0; i < m.lesson.steps.size(); ++i) {
    const auto& st = m.lesson.steps[i];
    const auto& sc = *m.scenarios.at(st.scenario);
    const int e = sc.FindPosition(st.position);
    if (e < 0)
      r.Fail(data::JsonPath(data::JsonPath("/steps", i), "position"),
             "the trace of \"" + st.scenario + "\" has no position \"" + st.position + "\" (use " + sc.PositionHelp() + ")");
    m.step_events.push_back(e);
    CheckPlaceholders(r, m, i, e);
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
    if (!st.highlight.empty()) {
      // Each names a rect of the step's scene ("hbm.O" did nothing: the id is "hbm.o"; issue 32).
      const Scene scene = sc.BuildScene(e, "en", ClassroomPalette());
      for (size_t k = 0; k < st.highlight.size(); ++k) {
        const std::string& id = st.highlight[k];
        if (scene.FindRect(id)) continue;
        std::string near;   // the same id in other letter case, else the rects with its first part
        const auto lower = [](std::string t) {
          for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          return t;
        };
        for (const auto& rect : scene.rects)
          if (lower(rect.id) == lower(id)) near = rect.id;
        std::string rects;
        int listed = 0;
        for (const auto& rect : scene.rects)
          if (rect.id.substr(0, rect.id.find('.')) == id.substr(0, id.find('.')) && listed++ < 8) rects += (rects.empty() ? "" : ", ") + rect.id;
        r.Fail(data::JsonPath(data::JsonPath(data::JsonPath("/steps", i), "highlight"), k),
               "the scenario \"" + st.scenario + "\" has no scene rect \"" + id + "\" at this step" +
                   (near.empty() ? "" : "; did you mean \"" + near + "\"?") + (rects.empty() ? "" : " (rects here: " + rects + ")"));
      }
    }
    if (!st.conceal.empty() && e >= 0) {
      // Each id names a scene rect or a side-panel section at the step's position.
      const Scene scene = sc.BuildScene(e, "en", ClassroomPalette());
      const auto panels = sc.Panels(e, "en");
      for (size_t k = 0; k < st.conceal.size(); ++k) {
        const std::string& id = st.conceal[k];
        const bool section = std::any_of(panels.begin(), panels.end(), [&](const PanelSection& p) { return p.id == id; });
        if (section || scene.FindRect(id) || (id == kConcealHeatmap && sc.HeatmapAt(e)) || (id == kConcealStrip && HasMergeStrip(scene)))
          continue;
        std::string rects, sections;
        for (size_t q = 0; q < scene.rects.size() && q < 8; ++q) rects += (q ? ", " : "") + scene.rects[q].id;
        if (scene.rects.size() > 8) rects += ", …";
        for (const auto& p : panels) sections += (sections.empty() ? "" : ", ") + p.id;
        std::string others;
        std::vector<std::string> names;   // every id that would do, for "did you mean"
        for (const auto& rc : scene.rects) names.push_back(rc.id);
        for (const auto& p : panels) names.push_back(p.id);
        if (sc.HeatmapAt(e)) {
          others += std::string("; also: ") + kConcealHeatmap;
          names.push_back(kConcealHeatmap);
        }
        if (HasMergeStrip(scene)) {
          others += std::string(others.empty() ? "; also: " : ", ") + kConcealStrip;
          names.push_back(kConcealStrip);
        }
        const std::string near = NearestName(names, id);
        r.Fail(data::JsonPath(data::JsonPath(data::JsonPath("/steps", i), "conceal"), k),
               "the scenario \"" + st.scenario + "\" has no scene rect or panel \"" + id + "\" at this step" +
                   (near.empty() ? "" : "; did you mean \"" + near + "\"?") + " (rects: " + rects + "; panels: " + sections + others + ")");
      }
    }
    const std::string cp = data::JsonPath(data::JsonPath("/steps", i), "check");
    const auto no_number = [&](const std::string& path, const std::string& name) {
      std::vector<std::string> numbers;   // the names here that are one number, for "did you mean"
      for (const auto& [n, v] : sc.QuantitiesAt(e))
        if (sc.NumberAt(e, n)) numbers.push_back(n);
      const std::string near = NearestName(numbers, name);
      std::string some;
      for (size_t k = 0; k < numbers.size() && k < 12; ++k) some += (k ? ", " : "") + numbers[k];
      if (numbers.size() > 12) some += ", \u2026";
      r.Fail(path, "the scenario \"" + st.scenario + "\" has no single number \"" + name + "\" at position \"" + st.position +
                       "\" to check against" + (near.empty() ? "" : "; did you mean \"" + near + "\"?") +
                       (some.empty() ? "" : " (single numbers here: " + some + ")"));
    };
    if (st.check && !st.check->number.empty() && !sc.NumberAt(e, st.check->number)) no_number(data::JsonPath(cp, "number"), st.check->number);
    if (st.check)
      for (size_t k = 0; k < st.check->mistakes.size(); ++k)
        if (!sc.NumberAt(e, st.check->mistakes[k].number))
          no_number(data::JsonPath(data::JsonPath(data::JsonPath(cp, "mistakes"), k), "number"), st.check->mistakes[k].number);
  }
  return m;
}

bool HasMergeStrip(const Scene& scene) {
  return std::any_of(scene.texts.begin(), scene.texts.end(), [](const SceneText& t) { return t.id.rfind("strip.", 0) == 0; });
}

}  // namespace bw::view
