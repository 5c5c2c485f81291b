// The numerics report (engine/numerics.h) in the CLI: printed after every run (`run`, `attention`),
// as JSON with --json, and as warnings by `check`. With --strict a run whose report is not empty
// exits with kStrictExit, so a script can refuse results that hold an overflow, underflow or NaN.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "engine/numerics.h"
#include "view/numerics_panel.h"

namespace bw::cli {

inline constexpr int kStrictExit = 4;  // --strict and the numerics report is not empty
inline constexpr int kAnswerShownExit = 3;  // check: a lesson loads, but a question's answer is on screen before its reveal

// "numerics: none (every number finite and in range)" or "numerics: 3 events" and one line each,
// 1-based, with the JSON path of the input when the event names one.
void PrintNumerics(std::ostream& os, const engine::NumericsReport& rep, const view::EventPathFn& path = {});
// One line per event for `check`: "warning: FILE: numerics: <event>" (at most `max_lines`, then a count).
void PrintNumericsWarnings(std::ostream& os, const std::string& file, const engine::NumericsReport& rep,
                           const view::EventPathFn& path = {}, int max_lines = 5);
// [{"kind": "infinite_score", "quantity": "S", "row": 1, "col": 2, "tile": [1, 2], "value": "+inf",
//   "json_path": …, "text": …}] — indices 1-based (0 = none).
nlohmann::json NumericsJson(const engine::NumericsReport& rep, const view::EventPathFn& path = {});

}  // namespace bw::cli
