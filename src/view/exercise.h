// Checked exercises: a lesson step's "check" (data/lesson.h) — a number students type, checked
// against the engine's value at the step's event, or a choice — decided before the answer is
// revealed. The rule for a typed number:
//   - a fraction "a/b" (or an integer) is right when it equals the engine's value exactly
//     (160/7 and 320/14 are both right for 160/7); when the engine has no exact value, when it
//     lies within half a unit of the 12th significant digit;
//   - a decimal "22.857" is right when it is the engine's value correctly rounded to the digits
//     given (|typed − value| ≤ ½·10^−k for k decimals) and has at least 3 significant digits;
//     "23" for 160/7 is refused as too coarse, not as wrong.
// Full-width digits, "／", "．", a leading "≈" and the minus sign "−" are read too, so students
// typing with a Chinese input method are not refused.
#pragma once

#include <optional>
#include <string>

#include "engine/single_query.h"

namespace bw::view {

// A number the engine computed: its double value, and the exact rational when the run is exact.
struct ExpectedNumber {
  double value = 0;
  std::optional<engine::Rational> exact;
};

enum class CheckVerdict {
  kRight,
  kWrong,
  kUnreadable,    // not a number, a fraction or a decimal
  kTooCoarse,     // a correctly rounded decimal with fewer than 3 significant digits
};

CheckVerdict CheckTypedNumber(const std::string& typed, const ExpectedNumber& expected);

// The number a single-query quantity name stands for at `event` (the names of lesson_text.h that
// are one number: {output}, {reference}, {average}, {l}, {u}, {output_so_far}, {l@J}, {u@J},
// {l_b@J}, {u_b@J}, {local_output@J}, {alpha@J}, {beta@J}; vectors only when d_v = 1), or nullopt.
// m is a logarithm (ln 2), not a rational, and is not checkable.
std::optional<ExpectedNumber> SingleQueryNumber(const engine::SingleQueryRun& run, int event, const std::string& name);

// A typed answer with full-width digits and signs (a Chinese input method) and the minus sign in
// ASCII, its spaces and a leading ≈ / ~ dropped: what CheckTypedNumber and the class's histogram read.
std::string NormaliseTypedNumber(const std::string& typed);

// A quantity printed as a whole number ("1,234", "−12"): exact. nullopt for anything else.
std::optional<ExpectedNumber> WholeNumber(const std::string& formatted);

}  // namespace bw::view
