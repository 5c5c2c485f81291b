// `blockwise-cli placeholders FILE [--position P] [--scenario KEY | --step ID]`: every {name} the
// scenario offers to lesson text at that position (default: a scenario's end; a lesson's step's own
// position), with its value there, when it is taken (position, final, input) and what it means, from
// the one table in view/placeholder_reference.h. `placeholders --reference` prints that table as
// docs/placeholders.md. Exit 2 when the file does not load or the position, key or step is unknown.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "view/scenario_model.h"

namespace bw::cli {

void AddPlaceholdersCommand(CLI::App& app);

// The scenario and trace position a command about "what a step's text can name" works on (placeholders,
// lesson ids): in a lesson, the scenario of --scenario KEY or of --step ID (default: the first step's),
// at --position P or else the step's own position; in a scenario file, P or its end. Throws
// data::LoadError naming the file when it does not load or the key, step or position is unknown.
struct PositionTarget {
  std::shared_ptr<const view::ScenarioModel> model;
  std::string key;        // the lesson's scenario key, "" for a scenario file
  std::string position;   // as written, for the heading
  int event = -1;
};
PositionTarget ResolvePositionTarget(const std::string& file, const std::string& position, const std::string& key,
                                     const std::string& step);

}  // namespace bw::cli
