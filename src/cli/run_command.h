// `blockwise-cli run SCENARIO.json`: the per-block trace of a single-query scenario as text or JSON.
#pragma once

#include <CLI/CLI.hpp>

namespace bw::cli {

void AddRunCommand(CLI::App& app);

}  // namespace bw::cli
