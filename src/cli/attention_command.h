// `blockwise-cli attention SCENARIO.json`: runs a scenario file v2 (kind "attention") through the
// engine in the order it names (reference, flash2 or flash1; backward too when asked) and prints the
// counters beside their analytic formulas, the step trace and the output.
//   --trace-json FILE    every trace event with cumulative counters (and m, l, u for small runs)
//   --counters-csv FILE  measured counters and formulas, HBM traffic in elements and in bytes
//   --json               everything on stdout as JSON instead of text
// A bad file prints one line "error: <file>: <json path>: <reason>" and exits with status 2.
#pragma once

#include <CLI/CLI.hpp>

namespace bw::cli {

void AddAttentionCommand(CLI::App& app);

}  // namespace bw::cli
