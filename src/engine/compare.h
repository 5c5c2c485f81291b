// Element-wise comparison of two result matrices (engine vs reference, CPU vs CUDA) that never
// hides a NaN: NaN and ±Inf are counted explicitly on each side, NaN against a number (or against
// an Inf) is a mismatch — not folded away by fmax — while NaN vs NaN and +Inf vs +Inf agree.
// Reports the max absolute and relative error over finite pairs and the first differing position.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>

namespace bw::engine {

struct CompareReport {
  bool shape_mismatch = false;
  std::int64_t rows = 0, cols = 0;     // shape of `expected`
  std::int64_t elements = 0;           // pairs compared
  std::int64_t mismatches = 0;         // pairs outside tolerance, or of different class (NaN/Inf/finite)
  std::int64_t nan_actual = 0, nan_expected = 0;
  std::int64_t pos_inf_actual = 0, pos_inf_expected = 0;
  std::int64_t neg_inf_actual = 0, neg_inf_expected = 0;
  double max_abs_error = 0.0;          // over finite pairs
  double max_rel_error = 0.0;          // |a − b| / |b| over finite pairs with b ≠ 0
  bool has_first_mismatch = false;
  std::int64_t first_row = -1, first_col = -1;   // first mismatch in row-major order
  double first_actual = 0.0, first_expected = 0.0;

  bool ok() const { return !shape_mismatch && mismatches == 0; }
  std::string Summary() const;  // one line
};

// A finite pair (a, b) matches iff |a − b| ≤ abs_tol + rel_tol·|b|. Shapes must agree (else
// shape_mismatch, no elements compared).
CompareReport Compare(const Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>& actual,
                      const Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>& expected,
                      double abs_tol = 0.0, double rel_tol = 0.0);

}  // namespace bw::engine
