// Lesson prose with numbers from the engine. A step's text holds placeholders that are filled
// from the bound scenario's run at the bound trace event; a literal number in prose would not be
// checked against anything, so lessons use these instead.
//   {m} {l} {u} {output_so_far}  running state at the step's event (exact when the scenario is)
//   {output} {reference} {average}  final blocked output, direct Σwv/Σw, the wrong mean of block outputs
//   {m_b@J} {l_b@J} {u_b@J} {local_output@J}  block J alone;  {m@J} {l@J} {u@J} {alpha@J} {beta@J}
//   after merging block J;  {blocks} {merged} {n} {weights} {values} {block_sizes} {mode}
// "{{" and "}}" stand for literal braces. In a lesson, {KEY/NAME} takes NAME from the lesson's
// scenario KEY at its end (LessonModel::Fill).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/single_query.h"

namespace bw::view {

using Quantities = std::map<std::string, std::string>;

// Every placeholder value at event `event` of `run` (0 ≤ event < run.events.size()): O(positions
// + blocks) formatted numbers.
Quantities QuantitiesAt(const engine::SingleQueryRun& run, int event);
// The part that does not grow with the file: the running state at `event`, the final, reference
// and averaged outputs, and the counts (no {…@J}, no {weights} {values} {block_sizes}).
Quantities StateQuantitiesAt(const engine::SingleQueryRun& run, int event);
// Block `block`'s own quantities ({m_b@J} … {beta@J}; 1 ≤ block ≤ run.BlockCount()) added to `q`.
void AddBlockQuantities(Quantities& q, const engine::SingleQueryRun& run, int block);

struct FilledText {
  std::string text;
  std::vector<std::string> unknown;   // placeholder names with no value (a lesson bug)
};
FilledText FillPlaceholders(const std::string& tmpl, const Quantities& q);
// The value of {name} in `q`. A name may end in a form (view/placeholder_reference.h): "|fraction"
// the exact fraction alone, "|decimal" the decimal alone. nullopt: no such quantity, or no such form.
std::optional<std::string> LookupPlaceholder(const Quantities& q, const std::string& name);
// The name in `names` nearest to `name` (edit distance at most a third of its length, 1 at least;
// else the shortest name that begins with it, for 3 characters or more), for "did you mean …?";
// "" when none is near.
std::string NearestName(const std::vector<std::string>& names, const std::string& name);
// `name` without its form ("output|decimal" → "output").
std::string PlaceholderBase(const std::string& name);
// Whether a wrapped line may end at the space at byte `at` of `text` (text[at] == ' '): not inside a
// formula nor between a number and its unit. No break next to an operator ("4 · 8 · 2", "40/3 ≈ 13.33",
// "M = 32", "α = e^(m−m')"), before a unit ("6.1 %", "3.35 TB/s", "80 GB") or a closing bracket, after
// an opening one, nor between the entries of a bracketed list of numbers ("(2, 2, 2)"). A teacher's
// walk-through saw "8 (6.1 | %)", "4 · 8 | · 2" and "40/3 ≈ | 13.33" split across lines. A run longer
// than a line still breaks (WrapLines falls back to such a space).
bool MayBreakAtSpace(std::string_view text, size_t at);
// Where a page may end inside `line`: the byte just after its last sentence end that more text follows
// (". ", "! ", "? " and their closing quotes or brackets; "。", "！", "？"; not "e.g." nor "i.e."), or
// std::string_view::npos when it has none.
size_t LastSentenceEnd(std::string_view line);
// The placeholder names in `tmpl`, in order ("{{" and "}}" are not placeholders).
std::vector<std::string> PlaceholderNames(const std::string& tmpl);

}  // namespace bw::view
