// Lesson file v1 loader; see lesson.h for the format.
#include "data/lesson.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "data/json_file.h"
#include "data/position.h"

namespace bw::data {

namespace {

LocalText Text(const JsonReader& r, const nlohmann::json& step, const std::string& path, const char* key) {
  const std::string p = JsonPath(path, key);
  const LocalText t = r.Text(r.Require(step, path, key), p);
  if (t.zh.empty()) r.Fail(JsonPath(p, "zh"), "text is empty");
  if (t.en.empty()) r.Fail(JsonPath(p, "en"), "text is empty");
  return t;
}

constexpr int kMaxChoices = 8;

LessonStep::Check ReadCheck(const JsonReader& r, const nlohmann::json& c, const std::string& path, bool has_predict) {
  if (!has_predict) r.Fail(path, "a check needs a \"predict\" question");
  r.ExpectObject(c, path);
  r.Fields(c, path, {"number", "choices", "correct", "mistakes"});
  LessonStep::Check check;
  if (c.contains("number")) {
    if (c.contains("choices") || c.contains("correct"))
      r.Fail(path, "a check is either {\"number\"} or {\"choices\", \"correct\"}, not both");
    check.number = r.String(c["number"], JsonPath(path, "number"));
    if (check.number.empty()) r.Fail(JsonPath(path, "number"), "the quantity name is empty");
    if (c.contains("mistakes")) {
      const std::string mp = JsonPath(path, "mistakes");
      r.ExpectArray(c["mistakes"], mp, 1);
      if (c["mistakes"].size() > static_cast<size_t>(kMaxChoices))
        r.Fail(mp, std::to_string(c["mistakes"].size()) + " mistakes; the limit is " + std::to_string(kMaxChoices));
      for (size_t k = 0; k < c["mistakes"].size(); ++k) {
        const auto& m = c["mistakes"][k];
        const std::string kp = JsonPath(mp, k);
        r.ExpectObject(m, kp);
        r.Fields(m, kp, {"number", "hint"});
        LessonStep::Check::Mistake mistake;
        mistake.number = r.String(r.Require(m, kp, "number"), JsonPath(kp, "number"));
        if (mistake.number.empty()) r.Fail(JsonPath(kp, "number"), "the quantity name is empty");
        if (mistake.number == check.number) r.Fail(JsonPath(kp, "number"), "\"" + mistake.number + "\" is the right answer, not a mistake");
        mistake.hint = r.Text(r.Require(m, kp, "hint"), JsonPath(kp, "hint"));
        check.mistakes.push_back(std::move(mistake));
      }
    }
    return check;
  }
  if (c.contains("mistakes")) r.Fail(JsonPath(path, "mistakes"), "mistakes belong to a number question, not to choices");
  const auto& choices = r.Require(c, path, "choices");
  const std::string cp = JsonPath(path, "choices");
  r.ExpectArray(choices, cp, 2);
  if (choices.size() > static_cast<size_t>(kMaxChoices))
    r.Fail(cp, std::to_string(choices.size()) + " choices; the limit is " + std::to_string(kMaxChoices));
  for (size_t k = 0; k < choices.size(); ++k) {
    check.choices.push_back(r.Text(choices[k], JsonPath(cp, k)));
  }
  check.correct = static_cast<int>(r.Integer(r.Require(c, path, "correct"), JsonPath(path, "correct"), 1,
                                             static_cast<std::int64_t>(choices.size())));
  return check;
}

}  // namespace

std::vector<StepText> StepTexts(const LessonStep& step) {
  std::vector<StepText> out = {{"/title", &step.title},
                               {"/body", &step.body},
                               {"/further", &step.further},
                               {"/teacher_notes", &step.teacher_notes},
                               {"/source", &step.source}};
  if (step.predict) out.push_back({"/predict", &*step.predict});
  if (step.answer) out.push_back({"/answer", &*step.answer});
  if (step.check) {
    for (size_t k = 0; k < step.check->mistakes.size(); ++k)
      out.push_back({JsonPath(JsonPath("/check/mistakes", k), "hint"), &step.check->mistakes[k].hint});
    for (size_t k = 0; k < step.check->choices.size(); ++k) out.push_back({JsonPath("/check/choices", k), &step.check->choices[k]});
  }
  return out;
}

int Lesson::FindStep(const std::string& step_id) const {
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].id == step_id) return static_cast<int>(i);
  return -1;
}

Lesson LoadLesson(const std::filesystem::path& path) { return ParseLesson(ReadJsonFile(path), path); }

Lesson ParseLesson(const nlohmann::json& doc, const std::filesystem::path& path) {
  const std::string file = path.string();
  JsonReader r(file);
  r.ExpectObject(doc, "");
  r.Fields(doc, "", {"$schema", "schema_version", "id", "title", "scenarios", "steps"});
  r.SchemaVersion(doc, 1);

  Lesson lesson;
  lesson.file = file;
  lesson.id = r.String(r.Require(doc, "", "id"), "/id");
  if (lesson.id.empty()) r.Fail("/id", "the lesson id is empty");
  lesson.title = Text(r, doc, "", "title");

  const auto folder = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  const auto& scenarios = r.Require(doc, "", "scenarios");
  r.ExpectObject(scenarios, "/scenarios");
  if (scenarios.empty()) r.Fail("/scenarios", "expected at least one scenario");
  if (scenarios.size() > static_cast<size_t>(kMaxLessonScenarios))
    r.Fail("/scenarios", std::to_string(scenarios.size()) + " scenarios; the limit is " + std::to_string(kMaxLessonScenarios));
  for (const auto& [key, value] : scenarios.items()) {
    const std::string p = JsonPath("/scenarios", key);
    ScenarioRef ls;
    ls.relative_path = r.String(value, p);
    const std::filesystem::path rel(ls.relative_path);
    if (rel.is_absolute()) r.Fail(p, "scenario path must be relative to the lesson file");
    ls.path = folder / rel;
    std::error_code ec;
    const bool inside = InsideFolder(folder, ls.path, ec);
    if (ec) r.Fail(p, "scenario path cannot be resolved: " + ec.message());
    if (!inside) r.Fail(p, "scenario path \"" + ls.relative_path + "\" leaves the lesson's folder");
    lesson.scenarios.emplace(key, std::move(ls));
  }

  const auto& steps = r.Require(doc, "", "steps");
  r.ExpectArray(steps, "/steps", 1);
  if (steps.size() > static_cast<size_t>(kMaxSteps))
    r.Fail("/steps", std::to_string(steps.size()) + " steps; the limit is " + std::to_string(kMaxSteps));
  for (size_t i = 0; i < steps.size(); ++i) {
    const std::string sp = JsonPath("/steps", i);
    const auto& s = steps[i];
    r.ExpectObject(s, sp);
    r.Fields(s, sp, {"id", "scenario", "position", "title", "body", "further", "teacher_notes", "source", "highlight", "predict", "answer",
                     "panel", "check", "conceal"});
    LessonStep st;
    st.id = r.String(r.Require(s, sp, "id"), JsonPath(sp, "id"));
    if (st.id.empty()) r.Fail(JsonPath(sp, "id"), "the step id is empty");
    if (lesson.FindStep(st.id) >= 0) r.Fail(JsonPath(sp, "id"), "step id \"" + st.id + "\" is used twice");
    st.scenario = r.String(r.Require(s, sp, "scenario"), JsonPath(sp, "scenario"));
    if (!lesson.scenarios.count(st.scenario))
      r.Fail(JsonPath(sp, "scenario"), "no scenario named \"" + st.scenario + "\" in /scenarios");
    st.position = r.String(r.Require(s, sp, "position"), JsonPath(sp, "position"));
    if (!ParsePosition(st.position))
      r.Fail(JsonPath(sp, "position"), "\"" + st.position + "\" is no position (" + PositionForms() + ")");
    st.title = Text(r, s, sp, "title");
    st.body = Text(r, s, sp, "body");
    st.further = Text(r, s, sp, "further");
    st.teacher_notes = Text(r, s, sp, "teacher_notes");
    st.source = Text(r, s, sp, "source");
    // "highlight" and "conceal": arrays of distinct, non-empty ids.
    const auto ids = [&](const char* key) {
      std::vector<std::string> out;
      if (!s.contains(key)) return out;
      const auto& h = s[key];
      const std::string hp = JsonPath(sp, key);
      r.ExpectArray(h, hp);
      for (size_t k = 0; k < h.size(); ++k) {
        std::string id = r.String(h[k], JsonPath(hp, k));
        if (id.empty()) r.Fail(JsonPath(hp, k), std::string("a ") + key + " id is empty");
        if (std::find(out.begin(), out.end(), id) != out.end())
          r.Fail(JsonPath(hp, k), std::string(key) + " id \"" + id + "\" is listed twice");
        out.push_back(std::move(id));
      }
      return out;
    };
    st.highlight = ids("highlight");
    if (s.contains("predict")) st.predict = Text(r, s, sp, "predict");
    if (s.contains("conceal") && !st.predict) r.Fail(JsonPath(sp, "conceal"), "conceal needs a \"predict\" question");
    st.conceal = ids("conceal");
    if (s.contains("answer")) {
      if (!st.predict) r.Fail(JsonPath(sp, "answer"), "an answer needs a \"predict\" question");
      st.answer = Text(r, s, sp, "answer");
    }
    if (s.contains("check")) st.check = ReadCheck(r, s["check"], JsonPath(sp, "check"), st.predict.has_value());
    if (s.contains("panel")) {
      st.panel = r.String(s["panel"], JsonPath(sp, "panel"));
      if (st.panel.empty()) r.Fail(JsonPath(sp, "panel"), "a panel id is empty");
    }
    lesson.steps.push_back(std::move(st));
  }
  return lesson;
}

}  // namespace bw::data
