// The placeholder reference (issue 32): what every {name} a scenario offers to lesson text means.
// One table, read by `blockwise-cli placeholders` (the names a file offers at a position, with their
// values) and by the generated page docs/placeholders.md (PlaceholderReferenceMarkdown); a test
// keeps the page equal to the table and checks that every name a shipped scenario's QuantitiesAt
// produces has a row here, so a new quantity cannot ship undocumented.
#pragma once

#include <span>
#include <string>

namespace bw::view {

struct PlaceholderDoc {
  const char* kind;      // the scenario kind that offers it: "single_query", "attention", "moe", "chart", "decode", "ring", "gpu_run"
  const char* pattern;   // the name with its variable part in capitals: "m@J", "reads:TENSOR", "O[I,J]"
  const char* when;      // "position" (the value at the step's position), "final" (the whole run), "input"
  const char* meaning;   // English, one sentence
};

std::span<const PlaceholderDoc> PlaceholderDocs();

// The pattern a concrete name matches: digits after '@' become J, "[2,3]" becomes "[I,J]", what
// follows a ':' becomes the pattern's capitals (matched by FindPlaceholderDoc). "m@3" → "m@J".
const PlaceholderDoc* FindPlaceholderDoc(const std::string& kind, const std::string& name);

// The forms a placeholder takes: {name} as shown ("160/7 ≈ 22.86"), {name|fraction} the exact
// fraction alone ("160/7"), {name|decimal} the decimal alone ("22.86"). A value with no "≈" is the
// same in every form, except that a plain fraction ("2/5") gets its decimal in the decimal form.
inline constexpr const char* kPlaceholderForms[] = {"fraction", "decimal"};

// docs/placeholders.md, whole.
std::string PlaceholderReferenceMarkdown();

}  // namespace bw::view
