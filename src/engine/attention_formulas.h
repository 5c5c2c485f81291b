// Analytic counter formulas for each algorithm, derived from the loop structure of the papers, not
// from running them: printed beside the measured counters and tested equal to them as integers.
// E.g. the reference (FlashAttention Algorithm 0) moves N_q·d + N_k·d + N_k·d_v + N_q·d_v + 4·N_q·N_k
// elements, i.e. 4Nd + 4N² when N_q = N_k = N and d_v = d (FlashAttention §3.2).
// Masks: none and causal (either alignment) have closed forms for every path; key padding and
// explicit masks skip data-dependent tiles, so only the untiled paths have formulas for them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/attention.h"

namespace bw::engine {

struct AttentionShape {
  std::int64_t n_q = 0, n_k = 0, d = 0, d_v = 0;
  bool logits_given = false;  // S read from HBM instead of Q, K (AttentionProblem::logits_given); d unused
  static AttentionShape Of(const AttentionProblem& p) { return {p.n_q(), p.n_k(), p.d(), p.d_v(), p.logits_given}; }
};

struct CounterFormula {
  Counters counters;               // what the formulas give, as exact integers
  std::vector<std::string> lines;  // "K reads = T_r·N_k·d = 16·1024·64 = 1048576 elements", …
  // The formula line for one tensor's reads / writes ("" when that count is 0).
  std::vector<std::string> read_formula = std::vector<std::string>(kTensorCount);
  std::vector<std::string> write_formula = std::vector<std::string>(kTensorCount);
  // The expression alone ("T_r*N_k*d"), for a view that writes the line in its own words.
  std::vector<std::string> read_expr = std::vector<std::string>(kTensorCount);
  std::vector<std::string> write_expr = std::vector<std::string>(kTensorCount);
};

// nullopt when no closed form exists (tiled path with a key-padding or explicit mask).
// `tiles` is ignored for the reference paths.
std::optional<CounterFormula> FormulaFor(Algorithm a, const AttentionShape& s, TileSizes tiles, const Mask& mask,
                                         Precision precision);

}  // namespace bw::engine
