// `blockwise-cli check`; see check_command.h.
#include "cli/check_command.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "data/json_file.h"
#include "view/lesson_model.h"
#include "view/scenario_model.h"

namespace bw::cli {

namespace {

// The app's OpenFile dispatch (src/app/app_state.cpp), without the window.
std::string Check(const std::string& path) {
  const auto doc = data::ReadJsonFile(path);
  if (doc.is_object() && doc.contains("steps")) {
    const auto m = view::LoadLessonModel(path);
    return "lesson \"" + m.lesson.id + "\", " + std::to_string(m.lesson.steps.size()) + " steps, " +
           std::to_string(m.scenarios.size()) + " scenarios";
  }
  const auto m = view::ParseScenarioModel(doc, path);
  return "scenario (" + m->Kind() + "), " + std::to_string(m->EventCount()) + " trace events";
}

}  // namespace

void AddCheckCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("check", "Load lesson or scenario files as the app would; print ok or the one-line error");
  auto files = std::make_shared<std::vector<std::string>>();
  cmd->add_option("files", *files, "Lesson or scenario JSON files")->required();
  cmd->callback([files]() {
    bool all_ok = true;
    for (const auto& f : *files) {
      try {
        const std::string summary = Check(f);  // before printing: a failure prints nothing on stdout
        std::cout << "ok: " << f << ": " << summary << "\n";
      } catch (const data::LoadError& e) {
        std::cerr << "error: " << e.what() << "\n";
        all_ok = false;
      } catch (const std::exception& e) {  // an engine refusal: still one line naming the file
        std::cerr << "error: " << data::LoadError(f, "", e.what()).what() << "\n";
        all_ok = false;
      }
    }
    if (!all_ok) throw CLI::RuntimeError(2);
  });
}

}  // namespace bw::cli
