// `blockwise-cli attention SCENARIO.json`: runs a scenario file v2 (kind "attention") in the order it
// names (reference, flash2, flash1; backward when asked); prints counters beside their formulas,
// the trace and the output. --trace-json FILE: every event with cumulative counters (and m, l, u);
// --counters-csv FILE: counters and formulas, HBM traffic in elements and bytes; --json: all as JSON.
// A bad file prints one line "error: <file>: <json path>: <reason>" and exits with status 2.
#pragma once

#include <CLI/CLI.hpp>

namespace bw::cli {

void AddAttentionCommand(CLI::App& app);

}  // namespace bw::cli
