// ScenarioModel: a loaded scenario of any kind together with its engine run(s), seen as what the
// app needs — a sequence of trace events to scrub, a diagram (Scene) per event, side-panel rows, and
// the placeholder values lesson prose uses. One implementation per scenario kind
// ("single_query", "attention", …); LoadScenarioModel dispatches on the file's "kind".
// Everything here is computed from the engine; the app only paints and lays out.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <variant>
#include <vector>

#include "data/attention_scenario.h"
#include "data/chart_scenario.h"
#include "data/decode_scenario.h"
#include "data/gpu_run_scenario.h"
#include "data/moe_scenario.h"
#include "data/position.h"
#include "data/ring_scenario.h"
#include "data/scenario.h"
#include "view/event_title.h"
#include "view/exercise.h"
#include "engine/numerics.h"
#include "view/lesson_text.h"
#include "view/scene.h"

namespace bw::view {

// One row of a side panel: a name and its value, already formatted.
struct PanelRow {
  std::string name, value;
  bool warning = false;   // a wrong value (a wrong merge, the wrong average): marked ×, never in red
  float bar = -1;         // 0–1: also drawn as a bar of this length (comparisons); < 0 = no bar
  // The row answers a comparison question (the right output, the wrong average): hidden while the
  // lesson step's predict question is unanswered. Values the trace has not reached yet are not
  // shown at all: each model prints NotYet() for them.
  bool answer = false;
  // … and so does its name ("rescale factor e^(m−m′)" answers RC-T3/b1's "what happens to the old
  // l and u?"): the whole row is left out while the question is open (app::PanelsNow).
  bool name_answers = false;
  // A number the step is about (m, l, u, the output, the right and the wrong mean): a projector draws
  // it in the large font (≥ 36 px em at 1080p, issue 29); the other rows in the text font.
  bool key = false;
  // A condition the engine names that is not a mistake (an all-masked row defined as 0, a token
  // dropped at an expert's capacity): marked "!" in brown, never the wrong purple ×.
  bool notice = false;
  // A NaN or ∞ in the value is explained in the value's own text (the engine's numerics event, named
  // where it happened): view::UnexplainedNaNs does not count it.
  bool cause_named = false;
};
struct PanelSection {
  std::string id;         // "accumulator", "blocks", "counters", …: what a lesson step's "panel" names
  std::string title;
  std::vector<PanelRow> rows;
  std::vector<std::string> columns;            // non-empty: rows are table rows, value split on '\t'
};

// Appends every string of `sections` (titles, column heads, each row's name and value) to `texts`:
// what a model's Texts() lists of its side panels at one event.
void AppendPanelTexts(const std::vector<PanelSection>& sections, std::vector<std::string>& texts);

// Marks on the timeline: block boundaries (for Shift+←/→) and named positions.
struct TimelineMark {
  int event = 0;
  std::string label;
};

// The attention probabilities P = softmax(S) as a matrix to draw as a heatmap, with the block the
// current event touches. `values` is owned by the model and lives as long as it does.
struct Heatmap {
  int rows = 0, cols = 0;          // P's size: the highlight and the legend count in its cells
  const float* values = nullptr;   // row-major (value_rows × value_cols), each in [0, 1]; 0 = masked or no weight
  // The size of `values` when it is a reduced copy of P (each cell the mean of a block of P's);
  // 0: rows × cols, P itself.
  int value_rows = 0, value_cols = 0;
  std::string title;
  // P holds NaN or ∞ (the reference's softmax): the title then names the numerics report, in the
  // UI's language (the app adds it: HeatmapAt takes no language).
  bool not_finite = false;
  int r0 = 0, r1 = 0, c0 = 0, c1 = 0;  // highlighted cells [r0, r1) × [c0, c1); empty when r0 == r1
  // P has not been computed yet at this event (the materialising reference before its pass 2):
  // the app says so instead of showing the picture, which would give the answer away.
  bool not_computed_yet = false;
  // P is being computed in the background (not_computed_yet is set too): it comes when it is done.
  bool computing = false;
  int ValueRows() const { return value_rows > 0 ? value_rows : rows; }
  int ValueCols() const { return value_cols > 0 ? value_cols : cols; }
};

class ScenarioModel {
 public:
  virtual ~ScenarioModel() = default;
  virtual std::string Kind() const = 0;          // "single_query", "attention", …
  virtual const data::LocalText& Title() const = 0;
  virtual const std::string& File() const = 0;
  virtual int EventCount() const = 0;            // ≥ 1
  virtual std::string EventLabel(int e) const = 0;   // short, e.g. "update:2", "read K_3"
  // What the timeline shows for event e, in `lang` ("合并块 2" / "merge block 2").
  std::string EventTitle(int e, const std::string& lang) const { return view::EventTitle(EventLabel(e), lang); }
  // The event a lesson position names ("start", "update:2", "tile:1,3", "end", "event:17"), or -1:
  // the string is read by the one grammar (data/position.h), then, when this kind accepts its form,
  // found by Find.
  int FindPosition(const std::string& position) const {
    const auto p = data::ParsePosition(position);
    return p && data::Accepts(AcceptedPositions(), *p) ? Find(*p) : -1;
  }
  // The positions this kind understands, with its ranges, for error messages and --position.
  std::string PositionHelp() const { return data::PositionHelp(AcceptedPositions()); }
  // The forms this kind accepts (with the largest numbers its trace has) …
  virtual std::vector<data::AcceptedPosition> AcceptedPositions() const = 0;
  // … and the event of a position of one of them, or -1 (a number past the trace's end).
  virtual int Find(const data::Position& position) const = 0;
  // The diagram at event e, laid out for `frame` (its box and the Ctrl ± text scale; scene.h).
  virtual Scene BuildScene(int e, const std::string& lang, const Palette& palette, const SceneFrame& frame) const = 0;
  // … at the default frame (tests, the CLI's dump, the font's glyph list).
  Scene BuildScene(int e, const std::string& lang, const Palette& palette) const { return BuildScene(e, lang, palette, SceneFrame{}); }
  virtual std::vector<PanelSection> Panels(int e, const std::string& lang) const = 0;
  virtual Quantities QuantitiesAt(int e) const = 0;
  // The engine's value of quantity `name` at event e as one number, for a checked exercise
  // (exercise.h), or nullopt when it is not one number there. By default a quantity printed as a
  // whole number (a count) is exact; kinds with exact rationals say more.
  virtual std::optional<ExpectedNumber> NumberAt(int e, const std::string& name) const {
    const auto q = QuantitiesAt(e);
    const auto it = q.find(name);
    return it == q.end() ? std::nullopt : WholeNumber(it->second);
  }
  // Events where a new block (or tile) starts: what Shift+←/→ jumps between.
  virtual std::vector<TimelineMark> BlockMarks() const = 0;
  // Every string this model can put on screen (for the font's glyph ranges).
  virtual std::vector<std::string> Texts() const = 0;
  // P as a heatmap at event e, when the model has one.
  virtual std::optional<Heatmap> HeatmapAt(int) const { return std::nullopt; }
  // Results computed in the background (attention_model.h): Computing() while some are not there
  // yet (what they would fill in shows as not computed yet); Revision() changes when they arrive,
  // so a cache of what the model gave must be rebuilt.
  virtual bool Computing() const { return false; }
  virtual int Revision() const { return 0; }
  // The numerics report of the run the model shows (overflow, underflow, NaN …; engine/numerics.h),
  // when the kind has one.
  virtual const engine::NumericsReport* Numerics() const { return nullptr; }
  // The JSON Pointer of the file's input a numerics event names ("/V/2/0"), or "".
  virtual std::string InputPath(const engine::NumericsEvent&) const { return ""; }
};

// When an attention model runs its comparison (the reference, FA-2 and FA-1 untraced, the wrong
// merges, P for the heatmap and the check of the run's O): RunAttentionComparison in every mode, so
// the numbers are the same; only when they appear differs.
enum class ComparisonMode : std::uint8_t {
  kNow,         // in the constructor: every number there at once (tests, screenshots, the CLI)
  kBackground,  // on a thread of its own, started by the constructor, for problems of at least
                // kBackgroundScores scores (and without "backward"); smaller ones as kNow
  kOnRequest,   // only when FinishComparison() (or runs()) asks (tests of the state before)
};
// Problems this large (N_q · N_k) run their comparison in the background (N = 4096: the reference
// alone was 1.4 s of a 3.5 s start).
inline constexpr long long kBackgroundScores = 1024LL * 1024;

// How the models of an opened file are built, given by whoever opens it (the app keeps its own in
// AppState::model.options; the CLI and the tests take the default).
struct ModelOptions {
  ComparisonMode comparison = ComparisonMode::kNow;   // the app's window: kBackground
};

// A scenario file's contents, of whichever kind its "kind" names.
using ScenarioData = std::variant<data::SingleQueryScenario, data::AttentionScenario, data::MoeScenario, data::ChartScenario,
                                  data::DecodeScenario, data::RingScenario, data::GpuRunScenario>;
// The one dispatch on a scenario's "kind": parses `doc` (read from `file`) with its kind's loader.
// Throws data::LoadError (file, JSON path, reason).
ScenarioData ParseScenarioData(const nlohmann::json& doc, const std::string& file);
// The model for `data`, built under `options`.
std::shared_ptr<const ScenarioModel> MakeScenarioModel(ScenarioData data, const ModelOptions& options = {});
// Reads `path` and builds the model for its "kind". Throws data::LoadError (file, JSON path, reason).
std::shared_ptr<const ScenarioModel> LoadScenarioModel(const std::filesystem::path& path, const ModelOptions& options = {});
std::shared_ptr<const ScenarioModel> ParseScenarioModel(const nlohmann::json& doc, const std::string& file,
                                                        const ModelOptions& options = {});
// A new kind: implement ScenarioModel in its own file, add its data type to ScenarioData and its
// "kind" to ParseScenarioData, MakeScenarioModel's overload set follows (scenario_model.cpp).

}  // namespace bw::view
