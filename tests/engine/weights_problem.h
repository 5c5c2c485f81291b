// Test helper shared by the engine tests: a single-query problem from integer weights and scalar
// values, with its exact copies (so the engine also runs in rationals).
#pragma once

#include <vector>

#include "engine/single_query.h"

namespace bw::engine::testing {

inline SingleQueryProblem WeightsProblem(std::vector<int> w, std::vector<int> v, std::vector<int> blocks, SoftmaxMode mode) {
  SingleQueryProblem p;
  p.score_kind = ScoreKind::kWeights;
  p.mode = mode;
  p.block_sizes = std::move(blocks);
  p.values.resize(static_cast<Eigen::Index>(v.size()), 1);
  std::vector<Rational> ew;
  std::vector<std::vector<Rational>> ev;
  for (size_t i = 0; i < w.size(); ++i) {
    p.scores.push_back(w[i]);
    p.values(static_cast<Eigen::Index>(i), 0) = v[i];
    ew.emplace_back(w[i]);
    ev.push_back({Rational(v[i])});
  }
  p.exact_weights = ew;
  p.exact_values = ev;
  return p;
}

}  // namespace bw::engine::testing
