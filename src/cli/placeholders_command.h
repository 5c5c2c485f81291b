// `blockwise-cli placeholders FILE [--position P] [--scenario KEY | --step ID]`: every {name} the
// scenario offers to lesson text at that position (default: a scenario's end; a lesson's step's own
// position), with its value there, when it is taken (position, final, input) and what it means, from
// the one table in view/placeholder_reference.h. `placeholders --reference` prints that table as
// docs/placeholders.md. Exit 2 when the file does not load or the position, key or step is unknown.
#pragma once

#include <CLI/CLI.hpp>

namespace bw::cli {

void AddPlaceholdersCommand(CLI::App& app);

}  // namespace bw::cli
