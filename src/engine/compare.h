// Element-wise comparison of two result matrices (engine vs reference, CPU vs CUDA) that never
// hides a NaN: NaN and ±Inf are counted explicitly on each side; a NaN on either side is always a
// mismatch (NaN equals nothing, not even NaN — not folded away by fmax), ±Inf against a finite value
// or the other sign is a mismatch, and only +Inf vs +Inf (−Inf vs −Inf) agree, as in IEEE 754.
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
  std::int64_t mismatches = 0;         // pairs outside tolerance, any NaN, or of different class (Inf/finite)
  std::int64_t nonfinite_mismatches = 0;  // of those, pairs where either side is NaN or ±Inf
  std::int64_t nan_actual = 0, nan_expected = 0;
  std::int64_t pos_inf_actual = 0, pos_inf_expected = 0;
  std::int64_t neg_inf_actual = 0, neg_inf_expected = 0;
  double max_abs_error = 0.0;          // over finite pairs
  double max_rel_error = 0.0;          // |a − b| / |b| over finite pairs with b ≠ 0
  bool has_first_mismatch = false;
  std::int64_t first_row = -1, first_col = -1;   // first mismatch in row-major order
  double first_actual = 0.0, first_expected = 0.0;

  bool ok() const { return !shape_mismatch && mismatches == 0; }
  // One line: "3 elements, 1 mismatches (1 with NaN or ±Inf: never a match), max abs error over
  // finite pairs …, max rel error …, NaN 1/0; first at (0, 0): …" (non-finite counts only when > 0).
  std::string Summary() const;
};

// A finite pair (a, b) matches iff |a − b| ≤ abs_tol + rel_tol·|b|. Shapes must agree (else
// shape_mismatch, no elements compared).
CompareReport Compare(const Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>& actual,
                      const Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>& expected,
                      double abs_tol = 0.0, double rel_tol = 0.0);

}  // namespace bw::engine
