// The numerics report of one run: every non-finite or out-of-range value, named where it happens,
// so that no wrong number reaches the screen with a confident label (issue 12). Each run of the
// engine (single query, reference, FlashAttention-2, FlashAttention-1) fills one.
//
// Kinds (docs/reliability.md lists them with the cases that produce them):
//   exp overflow          e^s is +∞ in the working precision (raw mode: no max shift; s > ~709.78
//                         in double). Source: the reason for the max shift, FA-2 §3.1.1.
//   all weights underflow every e^s of a row (or block) that the mask allows is 0: l = 0 although
//                         nothing is masked (raw mode with very negative logits; float logits below
//                         the float range).
//   infinite score        S = scale·q·k is ±∞ (Q·K overflows the working precision) or a logit is.
//   NaN                   a NaN in l, u or O (∞ − ∞, 0·∞, ∞/∞), named with the first row it hits.
//   out of range          an input that does not fit the working precision: |x| above its largest
//                         finite value (becomes ±∞) or non-zero below its smallest subnormal (becomes 0).
//   accumulator overflow  l or u became ±∞ from finite terms (a sum past the largest finite value).
//   product overflow      a term itself, w·v (single query), became ±∞ from finite factors: the sum
//                         did not overflow, one weight times one value did (weights 1e308, value 3).
//
// Indices are stored 0-based (as the engine's loops); Describe() prints them 1-based, as the papers
// and the app do. At most kMaxNumericsEvents events are kept per run; `dropped` counts the rest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bw::engine {

enum class NumericsKind : std::uint8_t {
  kExpOverflow,
  kWeightsUnderflow,
  kInfiniteScore,
  kNaN,
  kOutOfRange,
  kAccumulatorOverflow,
  kProductOverflow,
};
inline constexpr NumericsKind kAllNumericsKinds[] = {NumericsKind::kExpOverflow, NumericsKind::kWeightsUnderflow,
                                                     NumericsKind::kInfiniteScore, NumericsKind::kNaN,
                                                     NumericsKind::kOutOfRange, NumericsKind::kAccumulatorOverflow,
                                                     NumericsKind::kProductOverflow};
// "exp_overflow", "weights_underflow", "infinite_score", "nan", "out_of_range", "accumulator_overflow",
// "product_overflow"
const char* ToString(NumericsKind k);

inline constexpr std::size_t kMaxNumericsEvents = 64;

struct NumericsEvent {
  NumericsKind kind = NumericsKind::kNaN;
  std::string quantity;     // what holds the value: "S", "e^s", "l", "u", "O", "Q", "K", "V", "logits", "weights"
  std::int64_t row = -1;    // query row (attention), −1 for the single query row / none
  std::int64_t col = -1;    // key (S), position (single query), element column (Q, K, V, O); −1 none
  std::int32_t i = -1;      // Q block (attention tiles); −1 none
  std::int32_t j = -1;      // K/V block (attention) or block (single query); −1 none
  double value = 0.0;       // the offending value as given (the input for out of range, else as computed)
  std::string precision;    // "double" or "float": the working precision it happened in
};

struct NumericsReport {
  std::vector<NumericsEvent> events;
  std::int64_t dropped = 0;  // events past kMaxNumericsEvents

  bool empty() const { return events.empty(); }
  std::int64_t size() const { return static_cast<std::int64_t>(events.size()) + dropped; }
  void Add(NumericsEvent e);
  // Whether some event names query row `row` (or the whole run: row −1 events name every row).
  bool NamesRow(std::int64_t row) const;
  std::int64_t Count(NumericsKind k) const;
};

// One line, English, 1-based: "exp overflow: e^s = +inf at position 1 (block 1), s = 1000 (double)".
std::string Describe(const NumericsEvent& e);

// Largest finite value and smallest positive subnormal of the working precision, by element size.
double LargestFinite(int element_bytes);
double SmallestSubnormal(int element_bytes);

}  // namespace bw::engine
