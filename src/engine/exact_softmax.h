// The online-softmax state and merge in exact rationals, shared by the single-query lesson
// (single_query.h), split-KV decoding (split_kv.h) and ring attention (ring.h). ExactState (M = e^m,
// l, u) is declared in single_query.h; these are its operations. Source: FlashAttention-2 (Dao 2023)
// Algorithm 1 lines 8–10, with e^{m − m'} = M / M'.
#pragma once

#include <cstddef>
#include <vector>

#include "engine/single_query.h"

namespace bw::engine {

// The empty state: M = 0 (m = −∞), l = 0, u = 0 (d_v components).
ExactState ExactEmpty(std::size_t d_v);
// M' = max(M_a, M_b); l' = α l_a + β l_b; u' = α u_a + β u_b with α = M_a / M', β = M_b / M'
// (0 for an empty part). alpha / beta may be null. keep_reference: FlashAttention-4's skipped rescale
// (online_softmax.h, MergeConditional) — M' = M_a, α = 1, β = M_b / M_a; the caller decides when.
ExactState ExactMerge(const ExactState& a, const ExactState& b, Rational* alpha = nullptr, Rational* beta = nullptr,
                      bool keep_reference = false);
// u / l, or zeros for the empty state.
std::vector<Rational> ExactOutput(const ExactState& s);

}  // namespace bw::engine
