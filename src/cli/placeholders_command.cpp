// `blockwise-cli placeholders`; see placeholders_command.h.
#include "cli/placeholders_command.h"

#include <iostream>

#include "cli/or_exit2.h"
#include "data/load_error.h"
#include "view/document.h"
#include "view/lesson_text.h"
#include "view/placeholder_reference.h"

namespace bw::cli {

PositionTarget ResolvePositionTarget(const std::string& file, const std::string& position, const std::string& key,
                                     const std::string& step) {
  const view::OpenedDocument doc = view::OpenDocument(file);
  if (doc.course) throw data::LoadError(file, "", "a course lists lessons; give one lesson file (placeholders belong to a lesson's scenarios)");
  PositionTarget t;
  t.position = position;
  if (doc.lesson) {
    const view::LessonModel& m = *doc.lesson;
    const auto& steps = m.lesson.steps;
    if (!key.empty()) {
      const auto it = m.scenarios.find(key);
      if (it == m.scenarios.end()) {
        std::string keys;
        for (const auto& [k, s] : m.scenarios) keys += (keys.empty() ? "" : ", ") + k;
        throw data::LoadError(file, "/scenarios", "no scenario \"" + key + "\" (the lesson's keys: " + keys + ")");
      }
      t.key = key;
      t.model = it->second;
    } else {
      size_t i = 0;
      if (!step.empty()) {
        const auto named = [&](const std::string& id) {
          return id == step || (id.size() > step.size() && id.compare(id.size() - step.size(), step.size(), step) == 0 &&
                                id[id.size() - step.size() - 1] == '/');
        };
        while (i < steps.size() && !named(steps[i].id)) ++i;
        if (i == steps.size()) throw data::LoadError(file, "/steps", "no step \"" + step + "\" in lesson \"" + m.lesson.id + "\"");
      }
      t.key = steps[i].scenario;
      t.model = m.scenarios.at(t.key);
      if (t.position.empty()) {
        t.position = steps[i].position;
        t.event = m.step_events[i];
      }
    }
  } else {
    t.model = doc.scenario;
  }
  if (t.event < 0) {
    if (t.position.empty()) t.position = "end";
    t.event = t.model->FindPosition(t.position);
    if (t.event < 0)
      throw data::LoadError(file, "", "no position \"" + t.position + "\" in this trace (use " + t.model->PositionHelp() + ")");
  }
  return t;
}

namespace {

void Print(const PositionTarget& t) {
  const std::string kind = t.model->Kind();
  std::cout << "# " << t.model->File() << (t.key.empty() ? "" : " (lesson key \"" + t.key + "\")") << ", kind " << kind << ", at \""
            << t.position << "\" (event " << t.event + 1 << "/" << t.model->EventCount() << ")\n";
  std::cout << "# name\ttaken\tvalue\tmeaning\n";
  size_t undocumented = 0;
  for (const auto& [name, value] : t.model->QuantitiesAt(t.event)) {
    const view::PlaceholderDoc* doc = view::FindPlaceholderDoc(kind, name);
    undocumented += doc == nullptr;
    std::cout << "{" << name << "}\t" << (doc ? doc->when : "?") << "\t" << value << "\t" << (doc ? doc->meaning : "(not in the reference)") << "\n";
    if (value.find("\u2248") != std::string::npos)
      std::cout << "{" << name << "|fraction}\t\t" << *view::LookupPlaceholder({{name, value}}, name + "|fraction") << "\n"
                << "{" << name << "|decimal}\t\t" << *view::LookupPlaceholder({{name, value}}, name + "|decimal") << "\n";
  }
  if (!t.key.empty())
    std::cout << "# In another step of the lesson, {" << t.key << "/NAME} gives NAME of this scenario at its end.\n";
  if (undocumented) std::cout << "# " << undocumented << " names are not in the reference (docs/placeholders.md): a Blockwise bug\n";
}

}  // namespace

void AddPlaceholdersCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("placeholders",
                                 "List the {placeholders} a lesson's or scenario's text can use at a position, with their values and meanings "
                                 "(--reference: the whole reference, docs/placeholders.md)");
  auto file = std::make_shared<std::string>();
  auto position = std::make_shared<std::string>();
  auto key = std::make_shared<std::string>();
  auto step = std::make_shared<std::string>();
  auto reference = std::make_shared<bool>(false);
  cmd->add_option("file", *file, "A lesson or scenario JSON file");
  cmd->add_option("--position", *position, "A trace position: start, end, update:2, tile:1,2, event:17 … (default: a scenario's end, a step's own)");
  cmd->add_option("--scenario", *key, "In a lesson: the scenario with this key (default: the first step's)");
  cmd->add_option("--step", *step, "In a lesson: this step's scenario, at its position unless --position is given (e.g. b2 or RC-T3/b2)");
  cmd->add_flag("--reference", *reference, "Print the whole reference as Markdown (docs/placeholders.md is this output)");
  cmd->callback([=]() {
    if (*reference) {
      std::cout << view::PlaceholderReferenceMarkdown();
      return;
    }
    if (file->empty()) throw CLI::ValidationError("file", "give a lesson or scenario file, or --reference");
    OrExit2(*file, [&] { Print(ResolvePositionTarget(*file, *position, *key, *step)); });
  });
}

}  // namespace bw::cli
