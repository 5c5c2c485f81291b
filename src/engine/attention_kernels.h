// Internal to the engine (not a public header): the tile-level building blocks shared by the runs
// and by trace replay, so a replayed (m, l, u) is bit-identical to the run's. Templated on the
// working precision T (double or float). Mask geometry answers "is this tile fully masked / fully
// allowed" in O(1) for none, causal and key padding (prefix sums), by scanning for explicit masks.
// Source: FA-2 (Dao 2023) Algorithm 1 lines 8–12; FA-1 (Dao et al. 2022) Algorithm 1 lines 9–13.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "engine/attention.h"
#include "engine/numerics.h"
#include "engine/tile_simd.h"

namespace bw::engine::detail {

template <typename T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <typename T>
inline constexpr T kNegInf = -std::numeric_limits<T>::infinity();

class MaskGeometry {
 public:
  MaskGeometry(const Mask& mask, std::int64_t n_q, std::int64_t n_k);
  // Ranges are [r0, r1) × [c0, c1), non-empty.
  bool TileFullyMasked(std::int64_t r0, std::int64_t r1, std::int64_t c0, std::int64_t c1) const;
  bool TileFullyAllowed(std::int64_t r0, std::int64_t r1, std::int64_t c0, std::int64_t c1) const;
  bool Allows(std::int64_t r, std::int64_t c) const { return mask_.Allows(r, c, n_q_, n_k_); }

  // Sets the masked entries of the tile S (rows r0…, cols c0…) to −∞.
  template <typename T>
  void ApplyToTile(Mat<T>& S, std::int64_t r0, std::int64_t c0) const {
    const std::int64_t r = S.rows(), c = S.cols();
    if (r == 0 || c == 0 || TileFullyAllowed(r0, r0 + r, c0, c0 + c)) return;
    switch (mask_.kind) {
      case MaskKind::kNone: return;
      case MaskKind::kCausal:
        for (std::int64_t a = 0; a < r; ++a) {
          // allowed iff c0 + b ≤ r0 + a + δ  →  b ≤ r0 + a + δ − c0
          const std::int64_t first_masked = std::max<std::int64_t>(0, r0 + a + offset_ - c0 + 1);
          for (std::int64_t b = first_masked; b < c; ++b) S(a, b) = kNegInf<T>;
        }
        return;
      case MaskKind::kKeyPadding:
        for (std::int64_t b = 0; b < c; ++b)
          if (!mask_.key_keep[static_cast<std::size_t>(c0 + b)]) S.col(b).setConstant(kNegInf<T>);
        return;
      case MaskKind::kExplicit:
        for (std::int64_t a = 0; a < r; ++a)
          for (std::int64_t b = 0; b < c; ++b)
            if (!mask_.keep(r0 + a, c0 + b)) S(a, b) = kNegInf<T>;
        return;
    }
  }

 private:
  const Mask& mask_;
  std::int64_t n_q_, n_k_, offset_;
  std::vector<std::int64_t> kept_prefix_;  // key padding: kept keys in [0, c)
};

// Eigen's allFinite(), with the vectorised check (tile_simd.h) for float matrices and vectors.
template <typename M>
bool AllFinite(const M& m) {
  if constexpr (std::is_same_v<M, Mat<float>> || std::is_same_v<M, Vec<float>>) return AllFiniteF32(m.data(), m.size());
  else return m.allFinite();
}

// row ← e^{row − shift}. Eigen's vectorised exp clamps its argument, so e^{−∞} comes out as a
// denormal (≈ 1e−308 in double), not 0: when the tile may hold masked (−∞) entries they are set to
// exactly 0, so a masked key never contributes. `row` is an Eigen row view (written through).
// Float rows (contiguous) go to the run-time-chosen SIMD kernel (tile_simd.h), same contract.
template <typename T, typename Row>
void ExpShiftedRow(Row row, T shift, bool may_have_masked) {
  if constexpr (std::is_same_v<T, float> && Row::InnerStrideAtCompileTime == 1) {
    ExpShiftedF32(row.data(), row.size(), shift, may_have_masked);
    return;
  }
  if (may_have_masked)
    row = (row.array() == kNegInf<T>).select(T(0), (row.array() - shift).exp()).matrix();
  else
    row = (row.array() - shift).exp().matrix();
}

// PV ← P̃ · V_j where a zero weight contributes nothing whatever V holds: a masked key's value may
// be ±∞ in the working precision (1e300 in float) and 0·∞ would be NaN (issue 12, case 5). With a
// finite V_j this is the plain product (so a masked key's finite value leaves O bit-identical).
template <typename T, typename VBlock>
void MultiplyPV(Mat<T>& PV, const Mat<T>& P, const VBlock& Vj) {
  // P·V: float with at most 1024 keys (a tile) through the SIMD kernel, else Eigen — the same
  // product for Vj and for Vz below, so a masked key's value never changes O's bits.
  const auto product = [&](const auto& V) {
    if constexpr (std::is_same_v<T, float> && std::is_same_v<std::decay_t<decltype(V)>, Mat<float>>) {
      if (P.cols() <= 1024) {
        PV.resize(P.rows(), V.cols());
        GemmF32(P.data(), P.cols(), V.data(), V.cols(), PV.data(), PV.cols(), P.rows(), V.cols(), P.cols());
        return;
      }
    }
    PV.noalias() = P * V;
  };
  if (AllFinite(Vj)) {
    product(Vj);
    return;
  }
  // Rows of V_j that no row of P̃ weighs (masked for the whole tile) are set to 0: the same product
  // as with any finite value there, so O stays bit-identical whatever a masked key's V holds.
  Mat<T> Vz = Vj;
  for (std::int64_t b = 0; b < P.cols(); ++b)
    if ((P.col(b).array() == T(0)).all()) Vz.row(b).setZero();
  if (AllFinite(Vz)) {
    product(Vz);
    return;
  }
  // A used key holds ±∞: sum only the non-zero weights, so 0·∞ never makes a NaN.
  PV.setZero(P.rows(), Vz.cols());
  for (std::int64_t a = 0; a < P.rows(); ++a)
    for (std::int64_t b = 0; b < P.cols(); ++b)
      if (P(a, b) != T(0)) PV.row(a) += P(a, b) * Vz.row(b);
}

// Where the numerics report of a run is written from inside the kernels (numerics.h): the report,
// the tile (i, j) being worked on, and the working precision's name. report == nullptr: not recorded
// (trace replay recomputes tiles and must not report twice).
struct NumericsSink {
  NumericsReport* report = nullptr;
  std::int32_t i = -1, j = -1;
  const char* precision = "double";
};

// Scores of the tile (rows r0…, cols c0…) that are ±∞ or NaN although the mask allows the pair:
// Q·K (times scale) overflowed the working precision, or an input did. Call before masking.
template <typename T>
void CheckScores(const Mat<T>& S, std::int64_t r0, std::int64_t c0, const MaskGeometry& mg, const NumericsSink& sink) {
  if (!sink.report || AllFinite(S)) return;
  for (std::int64_t a = 0; a < S.rows(); ++a)
    for (std::int64_t b = 0; b < S.cols(); ++b) {
      const T x = S(a, b);
      if (std::isfinite(x) || !mg.Allows(r0 + a, c0 + b)) continue;
      sink.report->Add({std::isnan(x) ? NumericsKind::kNaN : NumericsKind::kInfiniteScore, "S", r0 + a, c0 + b, sink.i,
                        sink.j, static_cast<double>(x), sink.precision});
    }
}

// After a merge: rows of l or of the accumulator (u, or O for FA-1) that are no longer finite, each
// row reported once (`reported`, indexed by query row).
template <typename T>
void CheckAccumulator(const Vec<T>& l, const Mat<T>& acc, std::int64_t r0, std::vector<std::uint8_t>& reported,
                      const char* acc_name, const NumericsSink& sink) {
  if (!sink.report || (AllFinite(l) && AllFinite(acc))) return;
  for (std::int64_t a = 0; a < l.size(); ++a) {
    auto& done = reported[static_cast<std::size_t>(r0 + a)];
    if (done) continue;
    const auto add = [&](const char* q, std::int64_t col, T x) {
      sink.report->Add({std::isnan(x) ? NumericsKind::kNaN : NumericsKind::kAccumulatorOverflow, q, r0 + a, col, sink.i,
                        sink.j, static_cast<double>(x), sink.precision});
      done = 1;
    };
    if (!std::isfinite(l[a])) {
      add("l", -1, l[a]);
      continue;
    }
    for (std::int64_t c = 0; c < acc.cols(); ++c)
      if (!std::isfinite(acc(a, c))) {
        add(acc_name, c, acc(a, c));
        break;
      }
  }
}

// (m, l, u) of the rows of one Q block, plus the last merge's m_prev and α = e^{m_prev − m}.
// FA-1 keeps the normalised O in `acc` instead of u.
template <typename T>
struct RowState {
  Vec<T> m, l, m_prev, alpha, tile_max;
  Mat<T> acc;
  void Reset(std::int64_t rows, std::int64_t d_v) {
    m.setConstant(rows, kNegInf<T>);
    l.setZero(rows);
    m_prev.setConstant(rows, kNegInf<T>);
    alpha.setOnes(rows);
    tile_max.setConstant(rows, kNegInf<T>);
    acc.setZero(rows, d_v);
  }
};

// FA-2 Algorithm 1 lines 8–10 (and the wrong variants): merges tile S (r, c), already scaled and
// masked, into st; S is overwritten by P̃. Vj: (c, d_v). PV: scratch. Exps: r·c + r (counted by caller).
template <typename T, typename VBlock>
void MergeTileFlash2(RowState<T>& st, Mat<T>& S, const VBlock& Vj, Mat<T>& PV, MergeVariant v, bool masked) {
  const std::int64_t r = S.rows(), c = S.cols();
  constexpr bool kFloat = std::is_same_v<T, float>;  // float rows: the SIMD row kernels (tile_simd.h)
  for (std::int64_t a = 0; a < r; ++a) {
    T rowmax = kNegInf<T>;
    if constexpr (kFloat) rowmax = RowMaxF32(S.row(a).data(), c);
    else if (c > 0) rowmax = S.row(a).maxCoeff();
    const T m_old = st.m[a];
    const T m_new = std::max(m_old, rowmax);
    st.m_prev[a] = m_old;
    st.tile_max[a] = rowmax;
    // The average-of-outputs variant normalises each tile by its own max; the others by m'.
    const T shift = v == MergeVariant::kAverageBlockOutputs ? rowmax : m_new;
    if (shift == kNegInf<T>) {  // nothing allowed in this row (yet): P̃ = 0, no e^{−∞+∞}
      S.row(a).setZero();
      st.alpha[a] = T(1);
      continue;
    }
    ExpShiftedRow(S.row(a), shift, masked);
    st.alpha[a] = m_old == kNegInf<T> ? T(0) : std::exp(m_old - m_new);
    st.m[a] = m_new;
  }
  MultiplyPV(PV, S, Vj);
  for (std::int64_t a = 0; a < r; ++a) {
    if (st.m[a] == kNegInf<T>) continue;
    T rowsum;
    if constexpr (kFloat) rowsum = SumF32(S.row(a).data(), c);
    else rowsum = S.row(a).sum();
    if (v == MergeVariant::kAverageBlockOutputs) {
      if (rowsum > T(0)) {
        st.acc.row(a) += PV.row(a) / rowsum;
        st.l[a] += T(1);
      }
      continue;
    }
    if (st.m_prev[a] == kNegInf<T>) {  // first contribution: every variant starts the same
      st.l[a] = rowsum;
      st.acc.row(a) = PV.row(a);
      continue;
    }
    const T alpha = st.alpha[a];
    switch (v) {
      case MergeVariant::kCorrect:
        st.l[a] = alpha * st.l[a] + rowsum;
        if constexpr (kFloat) AxpbyF32(alpha, st.acc.row(a).data(), PV.row(a).data(), st.acc.cols());
        else st.acc.row(a) = alpha * st.acc.row(a) + PV.row(a);
        break;
      case MergeVariant::kNoRescale:
        st.l[a] += rowsum;
        st.acc.row(a) += PV.row(a);
        break;
      case MergeVariant::kRescaleLOnly:
        st.l[a] = alpha * st.l[a] + rowsum;
        st.acc.row(a) += PV.row(a);
        break;
      case MergeVariant::kRescaleUOnly:
        st.l[a] += rowsum;
        st.acc.row(a) = alpha * st.acc.row(a) + PV.row(a);
        break;
      case MergeVariant::kInvertedFactorOnU:
        st.l[a] = alpha * st.l[a] + rowsum;
        st.acc.row(a) = std::exp(st.m[a] - st.m_prev[a]) * st.acc.row(a) + PV.row(a);
        break;
      case MergeVariant::kAverageBlockOutputs:
        break;
    }
  }
}

// FA-1 Algorithm 1 lines 9–12: st.acc holds the normalised O_i read from HBM. S (r, c) scaled and
// masked, overwritten by P̃ = e^{S − m̃}. Exps: r·c + 2r (counted by caller).
template <typename T, typename VBlock>
void MergeTileFlash1(RowState<T>& st, Mat<T>& S, const VBlock& Vj, Mat<T>& PV, bool masked) {
  const std::int64_t r = S.rows(), c = S.cols();
  for (std::int64_t a = 0; a < r; ++a) {
    const T tmax = c > 0 ? S.row(a).maxCoeff() : kNegInf<T>;  // m̃_ij
    st.tile_max[a] = tmax;
    st.m_prev[a] = st.m[a];
    if (tmax == kNegInf<T>) {
      S.row(a).setZero();
      continue;
    }
    ExpShiftedRow(S.row(a), tmax, masked);
  }
  MultiplyPV(PV, S, Vj);
  for (std::int64_t a = 0; a < r; ++a) {
    const T tmax = st.tile_max[a];
    if (tmax == kNegInf<T>) {
      st.alpha[a] = T(1);
      continue;
    }
    const T l_tilde = S.row(a).sum();
    const T m_old = st.m[a];
    const T m_new = std::max(m_old, tmax);
    const T a_old = m_old == kNegInf<T> ? T(0) : std::exp(m_old - m_new);  // e^{m_i − m_new}
    const T b_new = std::exp(tmax - m_new);                                 // e^{m̃_ij − m_new}
    const T l_new = a_old * st.l[a] + b_new * l_tilde;
    st.acc.row(a) = ((st.l[a] * a_old) * st.acc.row(a) + b_new * PV.row(a)) / l_new;
    st.l[a] = l_new;
    st.m[a] = m_new;
    st.alpha[a] = a_old;
  }
}

// Rows of the output for a finished FA-2 block: O = u / l (0 where l = 0), L = m + log l (−∞).
template <typename T>
void FinaliseFlash2(const RowState<T>& st, Eigen::Ref<Mat<T>> O, Eigen::Ref<Vec<T>> L) {
  for (std::int64_t a = 0; a < st.l.size(); ++a) {
    if (st.l[a] == T(0)) {
      O.row(a).setZero();
      L[a] = kNegInf<T>;
    } else {
      O.row(a) = st.acc.row(a) / st.l[a];
      L[a] = st.m[a] + std::log(st.l[a]);
    }
  }
}

// The checks and the mask of a freshly computed score tile S (rows r0…, cols c0…). Returns whether
// the tile may hold masked entries (false when every pair in it is allowed).
template <typename T>
bool FinishScores(Mat<T>& S, const MaskGeometry& mg, std::int64_t r0, std::int64_t c0, const NumericsSink& sink) {
  CheckScores(S, r0, c0, mg, sink);
  if (S.size() == 0 || mg.TileFullyAllowed(r0, r0 + S.rows(), c0, c0 + S.cols())) return false;
  mg.ApplyToTile(S, r0, c0);
  return true;
}

// Float tiles with K_jᵀ (d × c) already laid out: the SIMD kernel (tile_simd.h) sums Q_i K_jᵀ and
// then multiplies by the scale — the same two roundings as `S = Q_i K_jᵀ; S *= scale`.
inline bool ComputeScoresFromKt(Mat<float>& S, const Mat<float>& Qi, const Mat<float>& Kt, float scale,
                                const MaskGeometry& mg, std::int64_t r0, std::int64_t c0, const NumericsSink& sink = {}) {
  S.resize(Qi.rows(), Kt.cols());
  GemmF32(Qi.data(), Qi.cols(), Kt.data(), Kt.cols(), S.data(), S.cols(), S.rows(), S.cols(), Qi.cols(), scale);
  return FinishScores(S, mg, r0, c0, sink);
}

// Computes S = scale · Q_i K_jᵀ into S (resized) and masks it. Returns whether the tile may hold
// masked entries (false when every pair in it is allowed).
template <typename T, typename QBlock, typename KBlock>
bool ComputeScores(Mat<T>& S, const QBlock& Qi, const KBlock& Kj, T scale, const MaskGeometry& mg,
                   std::int64_t r0, std::int64_t c0, const NumericsSink& sink = {}) {
  if constexpr (std::is_same_v<T, float> && std::is_same_v<QBlock, Mat<float>> && std::is_same_v<KBlock, Mat<float>>) {
    thread_local Mat<float> Kt;
    Kt = Kj.transpose();
    return ComputeScoresFromKt(S, Qi, Kt, scale, mg, r0, c0, sink);
  } else {
    S.resize(Qi.rows(), Kj.rows());
    S.noalias() = Qi * Kj.transpose();
    S *= scale;
    return FinishScores(S, mg, r0, c0, sink);
  }
}

// Rows [r0, r0 + rows) of a (double) input matrix as a tile in the working precision T, as it is
// "loaded from HBM" (float: the vectorised conversion of tile_simd.h).
template <typename T>
void LoadRows(Mat<T>& tile, const AttentionMatrix& src, std::int64_t r0, std::int64_t rows) {
  if constexpr (std::is_same_v<T, float>) {
    tile.resize(rows, src.cols());
    CastToF32(src.data() + r0 * src.cols(), rows * src.cols(), tile.data());
  } else {
    tile = src.middleRows(r0, rows).template cast<T>();
  }
}

// Shared start of every run: the result's identity, the counters' element size and, when recording,
// the trace's shape and settings. R is AttentionResult or BackwardResult.
template <typename T, typename R>
void StartRun(R& res, const AttentionProblem& p, const RunOptions& opt, Algorithm a, TileSizes tiles) {
  res.algorithm = a;
  res.precision = sizeof(T) == 8 ? Precision::kDouble : Precision::kFloat;
  res.tiles = tiles;
  res.counters.element_bytes = static_cast<int>(sizeof(T));
  if (!opt.record_trace) return;
  AttentionTrace& tr = res.trace;
  tr.algorithm = a;
  tr.precision_bytes = static_cast<int>(sizeof(T));
  tr.merge_variant = static_cast<int>(opt.merge);
  tr.n_q = p.n_q();
  tr.n_k = p.n_k();
  tr.d = p.d();
  tr.d_v = p.d_v();
  tr.B_r = tiles.B_r;
  tr.B_c = tiles.B_c;
  tr.scale = p.EffectiveScale();
  tr.logits_given = p.logits_given;
  const bool keeps_state = a == Algorithm::kFlash2 || a == Algorithm::kFlash1;
  tr.Configure(opt.counter_snapshot_every, opt.state_snapshots_per_block, keeps_state ? CeilDiv(p.n_q(), tiles.B_r) : 0,
               keeps_state ? CeilDiv(p.n_k(), tiles.B_c) : 0);
}

// One trace event from its fields (what every Emit builds).
inline AttentionEvent MakeEvent(EventKind kind, Tensor t, std::int32_t i, std::int32_t j, std::int64_t elements,
                                std::int64_t sram, std::int32_t step = 0, std::int64_t flops = 0, std::int64_t exps = 0) {
  AttentionEvent e;
  e.kind = kind;
  e.tensor = t;
  e.i = i;
  e.j = j;
  e.step = step;
  e.elements = elements;
  e.flops = flops;
  e.exps = exps;
  e.sram_bytes = sram;
  return e;
}

// Appends events to the counters (always) and the trace (when recording).
class Recorder {
 public:
  Recorder(Counters& c, AttentionTrace* trace) : c_(c), trace_(trace) {}
  void Emit(const AttentionEvent& e) {
    if (trace_) trace_->Append(e, c_);
    ApplyEvent(e, c_);
  }
  void Emit(EventKind kind, Tensor t, std::int32_t i, std::int32_t j, std::int64_t elements,
            std::int64_t sram, std::int32_t step = 0, std::int64_t flops = 0, std::int64_t exps = 0) {
    Emit(MakeEvent(kind, t, i, j, elements, sram, step, flops, exps));
  }
  bool tracing() const { return trace_ != nullptr; }
  AttentionTrace* trace() const { return trace_; }

 private:
  Counters& c_;
  AttentionTrace* trace_;
};

template <typename T>
AttentionTrace::StateSnapshot Snapshot(const RowState<T>& st, std::int32_t last_j, std::int32_t steps) {
  AttentionTrace::StateSnapshot s;
  s.last_j = last_j;
  s.steps = steps;
  s.m = st.m.template cast<double>();
  s.l = st.l.template cast<double>();
  s.m_prev = st.m_prev.template cast<double>();
  s.alpha = st.alpha.template cast<double>();
  s.acc = st.acc.template cast<double>();
  return s;
}

}  // namespace bw::engine::detail
