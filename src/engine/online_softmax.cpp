// Online-softmax merge: see online_softmax.h for the notation and sources.
#include "engine/online_softmax.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace bw::engine {

double RescaleFactor(double m, double m_new) {
  if (m == -std::numeric_limits<double>::infinity()) return 0.0;  // empty part contributes nothing
  return std::exp(m - m_new);
}

SoftmaxState Merge(const SoftmaxState& a, const SoftmaxState& b, MergeFactors* factors) {
  assert(a.u.size() == b.u.size());
  const double m_new = std::max(a.m, b.m);
  const double alpha = RescaleFactor(a.m, m_new);
  const double beta = RescaleFactor(b.m, m_new);
  if (factors) *factors = {m_new, alpha, beta};
  SoftmaxState out;
  out.m = m_new;
  out.l = alpha * a.l + beta * b.l;
  out.u = alpha * a.u + beta * b.u;
  return out;
}

SoftmaxState MergeConditional(const SoftmaxState& a, const SoftmaxState& b, double tau, MergeFactors* factors, bool* skipped) {
  assert(a.u.size() == b.u.size());
  const bool skip = !a.IsEmpty() && !b.IsEmpty() && b.m > a.m && b.m - a.m <= tau;
  if (skipped) *skipped = skip;
  if (!skip) return Merge(a, b, factors);
  const double beta = std::exp(b.m - a.m);   // ≤ e^τ: the block's weights against the kept reference
  if (factors) *factors = {a.m, 1.0, beta};
  SoftmaxState out;
  out.m = a.m;
  out.l = a.l + beta * b.l;
  out.u = a.u + beta * b.u;
  return out;
}

Eigen::VectorXd Output(const SoftmaxState& s) {
  if (s.l == 0.0) return Eigen::VectorXd::Zero(s.u.size());
  return s.u / s.l;
}

}  // namespace bw::engine
