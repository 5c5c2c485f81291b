// Online-softmax state (m, l, u) and its merge — the heart of FlashAttention's exactness.
// Source: FlashAttention (Dao et al. 2022) §3.1 "Tiling"; FlashAttention-2 (Dao 2023) §3.1.1,
// Algorithm 1 lines 8–10. Notation: m = running max of the logits, l = Σ e^{s−m} (the paper's ℓ),
// u = Σ e^{s−m}·v (the un-normalised output, Õ in FlashAttention-2). The answer is o = u / l.
#pragma once

#include <Eigen/Core>
#include <limits>

namespace bw::engine {

// State of one query row over the keys seen so far. u has d_v elements.
// The empty state (no key seen, or all keys masked) is m = −∞, l = 0, u = 0.
struct SoftmaxState {
  double m = -std::numeric_limits<double>::infinity();
  double l = 0.0;
  Eigen::VectorXd u;

  static SoftmaxState Empty(Eigen::Index d_v) { return {-std::numeric_limits<double>::infinity(), 0.0, Eigen::VectorXd::Zero(d_v)}; }
  bool IsEmpty() const { return l == 0.0; }
};

// Rescale factor e^{m − m'} for a part whose running max was m, when the new max is m'.
// An empty part (m = −∞) gets factor 0, never e^{−∞ − (−∞)} = NaN. Requires m ≤ m'.
double RescaleFactor(double m, double m_new);

// What the merge did, for the trace and the accumulator panel.
struct MergeFactors {
  double m_new;        // m' = max(m, m_b)
  double alpha;        // e^{m − m'}: multiplies the old (l, u)
  double beta;         // e^{m_b − m'}: multiplies the block's (l_b, u_b)
};

// m' = max(m, m_b);  l' = e^{m−m'}·l + e^{m_b−m'}·l_b;  u' = e^{m−m'}·u + e^{m_b−m'}·u_b.
// Merging two empty states yields the empty state (no NaN). a.u and b.u must have the same size.
SoftmaxState Merge(const SoftmaxState& a, const SoftmaxState& b, MergeFactors* factors = nullptr);

// FlashAttention-4's conditional rescale (Zadouri et al. 2025, "FlashAttention-4", §3 "online softmax
// with conditional rescaling"; τ = log 256 there, in log2 units): the running state keeps its
// reference m unless the block's max exceeds it by more than τ. A block whose max grows by at most τ
// is merged with α = 1 and β = e^{m_b − m} (≤ e^τ, so nothing overflows) and m stays: the rescale of
// (l, u) is skipped. o = u / l is unchanged — u and l share the one reference — only m is a stale
// upper bound's stand-in. *skipped says whether this merge skipped a rescale the plain merge makes
// (m_b > m, the state not empty). τ ≥ 0, finite; τ = 0 is Merge.
SoftmaxState MergeConditional(const SoftmaxState& a, const SoftmaxState& b, double tau, MergeFactors* factors, bool* skipped);

// o = u / l; an empty state (l = 0: every key masked) has no defined output and returns zeros —
// callers flag such rows rather than show a NaN.
Eigen::VectorXd Output(const SoftmaxState& s);

}  // namespace bw::engine
