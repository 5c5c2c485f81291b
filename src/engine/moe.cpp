// Mixture-of-experts parameter accounting and top-k router; see moe.h.
#include "engine/moe.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace bw::engine {

namespace {

std::int64_t MulChecked(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw std::invalid_argument("MoE parameter count overflows 64 bits");
  return r;
}
std::int64_t AddChecked(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) throw std::invalid_argument("MoE parameter count overflows 64 bits");
  return r;
}

}  // namespace

MoeParameterCount CountParameters(const MoeConfig& c) {
  if (c.shared_params < 0) throw std::invalid_argument("shared_params is negative");
  if (c.expert_params < 0) throw std::invalid_argument("expert_params is negative");
  if (c.experts < 1) throw std::invalid_argument("an MoE layer needs at least one expert");
  if (c.top_k < 1 || c.top_k > c.experts)
    throw std::invalid_argument("top_k must be between 1 and the number of experts (" + std::to_string(c.experts) + ")");
  MoeParameterCount n;
  n.experts_total = MulChecked(c.experts, c.expert_params);
  n.experts_active = MulChecked(c.top_k, c.expert_params);
  n.total = AddChecked(c.shared_params, n.experts_total);
  n.active_per_token = AddChecked(c.shared_params, n.experts_active);
  n.idle_per_token = n.experts_total - n.experts_active;
  return n;
}

RouterResult RouteTopK(const RouterProblem& p) {
  const std::int64_t T = p.logits.rows(), E = p.logits.cols(), k = p.top_k;
  if (E < 1) throw std::invalid_argument("the router needs at least one expert (logits have no columns)");
  if (k < 1 || k > E) throw std::invalid_argument("top_k must be between 1 and " + std::to_string(E));
  if (p.capacity && *p.capacity < 0) throw std::invalid_argument("capacity is negative");
  if (!p.logits.allFinite()) throw std::invalid_argument("router logits must be finite");

  RouterResult r;
  r.tokens = T, r.experts = E, r.top_k = k, r.capacity = p.capacity;
  r.demand.assign(static_cast<size_t>(E), 0);
  r.accepted.assign(static_cast<size_t>(E), 0);
  r.dropped.assign(static_cast<size_t>(E), 0);
  std::vector<std::int64_t> order(static_cast<size_t>(E));
  for (std::int64_t t = 0; t < T; ++t) {
    std::iota(order.begin(), order.end(), 0);
    // Largest logit first; equal logits: lower expert index first (stable, deterministic).
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return p.logits(t, a) > p.logits(t, b); });
    TokenRoute route;
    route.experts.assign(order.begin(), order.begin() + k);
    // Gates: softmax over the selected logits, shifted by the largest (the first) for stability.
    const double top = p.logits(t, route.experts[0]);
    double sum = 0;
    for (auto e : route.experts) sum += std::exp(p.logits(t, e) - top);
    bool all_dropped = true;
    for (auto e : route.experts) {
      route.gates.push_back(std::exp(p.logits(t, e) - top) / sum);
      ++r.demand[static_cast<size_t>(e)];
      const bool drop = p.capacity && r.accepted[static_cast<size_t>(e)] >= *p.capacity;
      route.dropped.push_back(drop);
      if (drop) {
        ++r.dropped[static_cast<size_t>(e)];
        ++r.dropped_assignments;
      } else {
        ++r.accepted[static_cast<size_t>(e)];
        all_dropped = false;
      }
    }
    if (all_dropped) ++r.tokens_fully_dropped;
    r.routes.push_back(std::move(route));
  }
  r.assignments = T * k;
  r.max_demand = r.demand.empty() ? 0 : *std::max_element(r.demand.begin(), r.demand.end());
  if (r.assignments > 0) {
    std::int64_t num = r.max_demand * E, den = r.assignments;
    const std::int64_t g = std::gcd(num, den);
    r.imbalance_num = num / g, r.imbalance_den = den / g;
  }
  return r;
}

std::vector<std::int64_t> RouterResult::AcceptedAfter(std::int64_t t) const {
  std::vector<std::int64_t> a(static_cast<size_t>(experts), 0);
  for (std::int64_t x = 0; x <= t && x < tokens; ++x) {
    const auto& rt = routes[static_cast<size_t>(x)];
    for (size_t s = 0; s < rt.experts.size(); ++s)
      if (!rt.dropped[s]) ++a[static_cast<size_t>(rt.experts[s])];
  }
  return a;
}

std::vector<std::int64_t> RouterResult::DemandAfter(std::int64_t t) const {
  std::vector<std::int64_t> a(static_cast<size_t>(experts), 0);
  for (std::int64_t x = 0; x <= t && x < tokens; ++x)
    for (auto e : routes[static_cast<size_t>(x)].experts) ++a[static_cast<size_t>(e)];
  return a;
}

std::int64_t CapacityFromFactor(std::int64_t tokens, std::int64_t experts, std::int64_t top_k, std::int64_t num,
                                std::int64_t den) {
  if (den <= 0) throw std::invalid_argument("capacity factor denominator must be positive");
  if (num < 0) throw std::invalid_argument("capacity factor is negative");
  if (experts < 1) throw std::invalid_argument("at least one expert");
  if (tokens < 0 || top_k < 0) throw std::invalid_argument("negative token or k count");
  const std::int64_t n = MulChecked(MulChecked(num, tokens), top_k), d = MulChecked(den, experts);
  return n / d + (n % d != 0 ? 1 : 0);
}

}  // namespace bw::engine
