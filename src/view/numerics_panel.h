// The numerics report (engine/numerics.h) as the app and the CLI show it: one labelled row per
// event, in zh and en, 1-based, with the JSON path of an input that does not fit the working
// precision; a hint per kind saying what the number beside it means; and the shared check that no
// "NaN" reaches the screen without the report naming its cause (used by the corpus test and the
// fuzz targets, case-insensitive — issue 17 item 8).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "data/attention_scenario.h"
#include "data/scenario.h"
#include "engine/compare.h"
#include "engine/numerics.h"
#include "view/scenario_model.h"
#include "view/ui_text.h"

namespace bw::view {

// JSON Pointer of the input an event names, e.g. "/V/2/0" or "/logits/0"; "" when it names none.
using EventPathFn = std::function<std::string(const engine::NumericsEvent&)>;

// The JSON Pointer of the file's input an event names: "/V/2/0", "/logits/0/1" (attention logits are
// run as Q = logits, K = I), "/scale", "/logits/3" or "/weights/3" (single query); "" for none.
EventPathFn InputPaths(const data::AttentionScenario& sc);
EventPathFn InputPaths(const data::SingleQueryScenario& sc);

// The table's name and hint for each kind (a switch: a new kind without its strings is a warning).
Str NumericsName(engine::NumericsKind k);
Str NumericsHint(engine::NumericsKind k);
// "exp overflow" / "指数上溢", …
const std::string& NumericsKindName(engine::NumericsKind k, const std::string& lang);
// Where and what, 1-based: "S = +∞ · row 1, key 2 · tile (1,2)"; zh "S = +∞ · 第 1 行，第 2 个键 · 分块 (1,2)".
std::string NumericsWhere(const engine::NumericsEvent& e, const std::string& lang, const EventPathFn& path = {});

// The panel section: a title with the count, one warning row per event (kept events; a last row
// counts the dropped ones), then one hint per kind present. nullopt when the report is empty.
std::optional<PanelSection> NumericsSection(const engine::NumericsReport& rep, const std::string& lang,
                                            const EventPathFn& path = {});
// The models' hook: inserts NumericsSection right after the first section (the one holding the
// numbers it is about), when the report is not empty.
void AddNumericsSection(std::vector<PanelSection>& sections, const engine::NumericsReport& rep, const std::string& lang,
                        const EventPathFn& path = {});

// A comparison's cell: the max |Δ| over finite pairs, or "NaN ×3" / "±∞ ×1" when a pair holds a
// non-finite value — never a bare 0 beside a NaN.
std::string CompareCell(const engine::CompareReport& rep);

// Whether `text` shows a NaN ("NaN", "nan", "-nan", "NAN": case-insensitive).
bool ShowsNaN(const std::string& text);
// Every quantity and panel value of model `m` (events 0, stride, 2·stride, … and the last) that
// shows a NaN while the model's numerics report is empty — a NaN nobody explains. Empty = fine.
std::vector<std::string> UnexplainedNaNs(const ScenarioModel& m, int stride = 1);

}  // namespace bw::view
