// `blockwise-cli check`; see check_command.h.
#include "cli/check_command.h"

#include <iostream>
#include <set>
#include <nlohmann/json.hpp>

#include "cli/numerics_report.h"
#include "data/json_file.h"
#include "session/app_state.h"
#include "session/shown.h"
#include "view/document.h"
#include "view/lesson_model.h"
#include "view/scenario_model.h"
#include "view/single_query_model.h"

namespace bw::cli {

namespace {

struct Checked {
  std::string summary;
  // Every scenario loaded whose numerics report is not empty.
  std::vector<std::shared_ptr<const view::ScenarioModel>> numerics;
  // Files given logits, not weights: their numbers are decimals (issue 32: "exactness is a trap").
  std::set<std::string> logits;
  // Number questions whose answer is drawn while they are open, with their lesson file.
  std::vector<std::pair<std::string, app::AnswerShown>> answers_shown;
};

// Opens `lesson_path` as the app does and looks for answers on screen before their reveal.
void LookForShownAnswers(const std::string& lesson_path, Checked& c) {
  app::AppState s;
  if (!app::OpenFile(s, lesson_path) || !s.model.lesson) return;  // (loaded already: it does not fail here)
  for (auto& a : app::AnswersShownBeforeReveal(s)) c.answers_shown.emplace_back(lesson_path, std::move(a));
}

// What the app's OpenFile does (view::OpenDocument), without the window.
Checked Check(const std::string& path) {
  Checked c;
  const auto note = [&](const std::shared_ptr<const view::ScenarioModel>& m) {
    if (const auto* rep = m->Numerics(); rep && !rep->empty()) c.numerics.push_back(m);
    if (const auto* sq = dynamic_cast<const view::SingleQueryModel*>(m.get()); sq && sq->run().problem.score_kind == engine::ScoreKind::kLogits)
      c.logits.insert(m->File());
  };
  const view::OpenedDocument doc = view::OpenDocument(path);
  if (doc.course) {  // a course: every lesson loaded as the app loads it when the clicker reaches it
    const view::CourseModel& cm = *doc.course;
    size_t steps = 0;
    for (const auto& l : cm.course.lessons) {
      const view::LessonModel m = view::LoadLessonModel(l.path);
      for (const auto& [key, sc] : m.scenarios) note(sc);
      steps += m.lesson.steps.size();
      LookForShownAnswers(l.path.string(), c);
    }
    c.summary = "course \"" + cm.course.id + "\", " + std::to_string(cm.LessonCount()) + " lessons, " + std::to_string(steps) +
                " steps, " + std::to_string(cm.TotalMinutes()) + " minutes planned";
    return c;
  }
  if (doc.lesson) {
    const view::LessonModel& m = *doc.lesson;
    for (const auto& [key, sc] : m.scenarios) note(sc);
    LookForShownAnswers(path, c);
    c.summary = "lesson \"" + m.lesson.id + "\", " + std::to_string(m.lesson.steps.size()) + " steps, " +
                std::to_string(m.scenarios.size()) + " scenarios";
    return c;
  }
  const auto& m = doc.scenario;
  note(m);
  c.summary = "scenario (" + m->Kind() + "), " + std::to_string(m->EventCount()) + " trace events";
  return c;
}

}  // namespace

void AddCheckCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("check", "Load course, lesson or scenario files as the app would (a course: every lesson it lists); print ok or the one-line error");
  auto files = std::make_shared<std::vector<std::string>>();
  cmd->add_option("files", *files, "Course, lesson or scenario JSON files")->required();
  auto strict = std::make_shared<bool>(false);
  cmd->add_flag("--strict", *strict, "Exit with status 4 when a file loads but its numerics report is not empty");
  cmd->callback([files, strict]() {
    bool all_ok = true, any_numerics = false, any_answer_shown = false;
    for (const auto& f : *files) {
      try {
        const Checked c = Check(f);  // before printing: a failure prints nothing on stdout
        // A question whose answer is drawn while it is open loads, but gives itself away: one error
        // line each, in place of "ok".
        for (const auto& [file, a] : c.answers_shown)
          if (a.number.empty())   // a number the step's answer quotes (any question)
            std::cerr << "error: " << file << ": " << data::JsonPath(data::JsonPath("/steps", static_cast<size_t>(a.step)), "answer") << ": "
                      << a.step_id << "'s answer quotes " << a.token << ", which is on screen while the question is open ("
                      << a.where << ": \"" << a.text << "\"; " << a.lang << (a.projector ? ", projector" : "")
                      << "): conceal what shows it, or ask at an earlier position (docs/authoring.md)\n";
          else
            std::cerr << "error: " << file << ": " << data::JsonPath(data::JsonPath("/steps", static_cast<size_t>(a.step)), "check") << "/number: "
                      << a.step_id << " asks for " << a.number << ", and its answer " << a.token << " is on screen while the question is open ("
                      << a.where << ": \"" << a.text << "\"; " << a.lang << (a.projector ? ", projector" : "")
                      << "): conceal what shows it, or ask at an earlier position (docs/authoring.md)\n";
        if (c.answers_shown.empty())
          std::cout << "ok: " << f << ": " << c.summary
                    << (c.numerics.empty() ? "" : "; numerics: see the warnings (overflow, underflow or NaN)") << "\n";
        for (const auto& file : c.logits)
          std::cerr << "note: " << file << ": /logits: the weights are e^logit, so its numbers are decimals; give \"weights\" "
                    << "(integers or fractions) for exact answers (docs/authoring.md)\n";
        for (const auto& m : c.numerics)
          PrintNumericsWarnings(std::cerr, m->File(), *m->Numerics(), [&m](const engine::NumericsEvent& ev) { return m->InputPath(ev); });
        any_answer_shown = any_answer_shown || !c.answers_shown.empty();
        any_numerics = any_numerics || !c.numerics.empty();
      } catch (const data::LoadError& e) {
        std::cerr << "error: " << e.what() << "\n";
        all_ok = false;
      } catch (const std::exception& e) {  // an engine refusal: still one line naming the file
        std::cerr << "error: " << data::LoadError(f, "", e.what()).what() << "\n";
        all_ok = false;
      }
    }
    if (!all_ok) throw CLI::RuntimeError(2);
    if (any_answer_shown) throw CLI::RuntimeError(kAnswerShownExit);
    if (*strict && any_numerics) throw CLI::RuntimeError(kStrictExit);
  });
}

}  // namespace bw::cli
