// Element-wise comparison (compare.h) that classifies every value as NaN, +Inf, −Inf or finite
// before subtracting, so a NaN can never disappear inside fmax/fmin; errors are measured over
// finite pairs only and the first mismatch is kept in row-major order.
#include "engine/compare.h"

#include <cmath>
#include <sstream>

namespace bw::engine {

namespace {
enum class Cls { kFinite, kNaN, kPosInf, kNegInf };
Cls Classify(double x) {
  if (std::isnan(x)) return Cls::kNaN;
  if (std::isinf(x)) return x > 0 ? Cls::kPosInf : Cls::kNegInf;
  return Cls::kFinite;
}
}  // namespace

CompareReport Compare(const Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>& actual,
                      const Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>& expected,
                      double abs_tol, double rel_tol) {
  CompareReport rep;
  rep.rows = expected.rows();
  rep.cols = expected.cols();
  if (actual.rows() != expected.rows() || actual.cols() != expected.cols()) {
    rep.shape_mismatch = true;
    return rep;
  }
  for (std::int64_t r = 0; r < expected.rows(); ++r) {
    for (std::int64_t c = 0; c < expected.cols(); ++c) {
      const double a = actual(r, c), b = expected(r, c);
      const Cls ca = Classify(a), cb = Classify(b);
      ++rep.elements;
      rep.nan_actual += ca == Cls::kNaN;
      rep.nan_expected += cb == Cls::kNaN;
      rep.pos_inf_actual += ca == Cls::kPosInf;
      rep.pos_inf_expected += cb == Cls::kPosInf;
      rep.neg_inf_actual += ca == Cls::kNegInf;
      rep.neg_inf_expected += cb == Cls::kNegInf;
      bool mismatch;
      if (ca == Cls::kNaN || cb == Cls::kNaN || ca != cb) {
        mismatch = true;  // NaN vs anything (NaN included), Inf vs finite, +Inf vs −Inf
        ++rep.nonfinite_mismatches;
      } else if (ca != Cls::kFinite) {
        mismatch = false;  // +Inf vs +Inf, −Inf vs −Inf
      } else {
        const double err = std::abs(a - b);
        if (err > rep.max_abs_error) rep.max_abs_error = err;
        if (b != 0.0 && err / std::abs(b) > rep.max_rel_error) rep.max_rel_error = err / std::abs(b);
        mismatch = err > abs_tol + rel_tol * std::abs(b);
      }
      if (mismatch) {
        if (!rep.has_first_mismatch) {
          rep.has_first_mismatch = true;
          rep.first_row = r;
          rep.first_col = c;
          rep.first_actual = a;
          rep.first_expected = b;
        }
        ++rep.mismatches;
      }
    }
  }
  return rep;
}

std::string CompareReport::Summary() const {
  std::ostringstream os;
  if (shape_mismatch) return "shape mismatch (expected " + std::to_string(rows) + "x" + std::to_string(cols) + ")";
  os.precision(17);
  os << elements << " elements, " << mismatches << " mismatches";
  if (nonfinite_mismatches) os << " (" << nonfinite_mismatches << " with NaN or ±Inf: never a match)";
  os << ", max abs error over finite pairs " << max_abs_error
     << ", max rel error " << max_rel_error;
  // Non-finite counts (actual/expected) only when there are some: a clean summary names no NaN.
  if (nan_actual || nan_expected) os << ", NaN " << nan_actual << "/" << nan_expected;
  if (pos_inf_actual || pos_inf_expected) os << ", +Inf " << pos_inf_actual << "/" << pos_inf_expected;
  if (neg_inf_actual || neg_inf_expected) os << ", -Inf " << neg_inf_actual << "/" << neg_inf_expected;
  const auto num = [](double x) -> std::string {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "+Inf" : "-Inf";
    std::ostringstream t;
    t.precision(17);
    t << x;
    return t.str();
  };
  if (has_first_mismatch)
    os << "; first at (" << first_row << ", " << first_col << "): " << num(first_actual) << " vs " << num(first_expected);
  return os.str();
}

}  // namespace bw::engine
