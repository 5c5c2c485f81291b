// Backward attention: FlashAttention-2 Algorithm 2 (recompute P tile by tile from Q, K and the
// saved logsumexp L; outer loop over K/V blocks j, inner over Q blocks i) and the materialising
// backward of FlashAttention Algorithm 3 (reads the stored P, writes and re-reads dP and dS).
// With S = scale·QKᵀ:  dV = Pᵀ dO,  dP = dO Vᵀ,  dS = P ∘ (dP − D) with D = rowsum(dO ∘ O),
// dQ = scale·dS K,  dK = scale·dSᵀ Q  (the papers fold the scale into Q; we keep it explicit).
#include <algorithm>
#include <cmath>

#include "engine/attention.h"
#include "engine/attention_kernels.h"

namespace bw::engine {
namespace {

using detail::kNegInf;
using detail::Mat;
using detail::MaskGeometry;
using detail::Recorder;
using detail::Vec;
using I64 = std::int64_t;

void CheckdO(const AttentionProblem& p, const AttentionMatrix& dO) {
  if (p.logits_given)
    throw ValidationError("backward: needs Q and K; with logits given there is no dQ or dK to compute");
  if (dO.rows() != p.n_q() || dO.cols() != p.d_v())
    throw ValidationError("dO: is " + std::to_string(dO.rows()) + "x" + std::to_string(dO.cols()) +
                          ", must be N_q x d_v = " + std::to_string(p.n_q()) + "x" + std::to_string(p.d_v()));
}

// [SECTION] FlashAttention-2 Algorithm 2 ---------------------------------------------------------

template <typename T>
BackwardResult RecomputeImpl(const AttentionProblem& p, const AttentionResult& fwd, const AttentionMatrix& dO_in,
                             const RunOptions& opt) {
  // Q: (N_q, d)  K: (N_k, d)  V: (N_k, d_v)  O, dO: (N_q, d_v)  L, D: (N_q)
  const I64 n_q = p.n_q(), n_k = p.n_k(), d = p.d(), d_v = p.d_v();
  const I64 B_r = opt.tiles.B_r, B_c = opt.tiles.B_c;
  const I64 T_r = CeilDiv(n_q, B_r), T_c = CeilDiv(n_k, B_c);
  const I64 b = sizeof(T);
  BackwardResult res;
  detail::StartRun<T>(res, p, opt, Algorithm::kBackwardRecompute, opt.tiles);
  Recorder rec(res.counters, opt.record_trace ? &res.trace : nullptr);
  const Mat<T> Q = p.Q.cast<T>(), K = p.K.cast<T>(), V = p.V.cast<T>();
  const Mat<T> O = fwd.O.cast<T>(), dO = dO_in.cast<T>();
  const Vec<T> L = fwd.L.cast<T>();
  const T scale = static_cast<T>(p.EffectiveScale());
  const MaskGeometry mg(p.mask, n_q, n_k);

  // line 4: D = rowsum(dO ∘ O), written to HBM
  rec.Emit(EventKind::kRead, Tensor::kO, -1, -1, n_q * d_v, 0);
  rec.Emit(EventKind::kRead, Tensor::kdO, -1, -1, n_q * d_v, 0);
  const Vec<T> D = (dO.array() * O.array()).rowwise().sum().matrix();
  rec.Emit(EventKind::kComputeFull, Tensor::kD, -1, -1, 0, 0);
  rec.Emit(EventKind::kWrite, Tensor::kD, -1, -1, n_q, 0);
  // line 3: dQ = 0 in HBM
  Mat<T> dQ = Mat<T>::Zero(n_q, d), dK = Mat<T>::Zero(n_k, d), dV = Mat<T>::Zero(n_k, d_v);
  rec.Emit(EventKind::kInitialise, Tensor::kdQ, -1, -1, 0, 0);
  rec.Emit(EventKind::kWrite, Tensor::kdQ, -1, -1, n_q * d, 0);

  Mat<T> S, dP, PdO, dSK;
  for (I64 j = 0; j < T_c; ++j) {                               // line 5
    const I64 c0 = j * B_c, c = std::min(B_c, n_k - c0);
    const std::int32_t jj = static_cast<std::int32_t>(j);
    const bool column_skipped = n_q == 0 || mg.TileFullyMasked(0, n_q, c0, c0 + c);
    const I64 kv = 2 * c * (d + d_v) * b;                        // K_j, V_j, dK_j, dV_j on chip
    if (!column_skipped) {                                       // line 6 (unless no tile needs them)
      rec.Emit(EventKind::kRead, Tensor::kK, -1, jj, c * d, c * d * b);
      rec.Emit(EventKind::kRead, Tensor::kV, -1, jj, c * d_v, kv);  // line 7: dK_j = dV_j = 0 on chip
    }
    auto dKj = dK.middleRows(c0, c);
    auto dVj = dV.middleRows(c0, c);
    for (I64 i = 0; i < T_r; ++i) {                             // line 8
      const I64 r0 = i * B_r, r = std::min(B_r, n_q - r0);
      const std::int32_t ii = static_cast<std::int32_t>(i);
      if (column_skipped || mg.TileFullyMasked(r0, r0 + r, c0, c0 + c)) {
        rec.Emit(EventKind::kSkipTile, Tensor::kCount, ii, jj, 0, column_skipped ? 0 : kv);
        continue;
      }
      // line 9: load Q_i, dO_i, L_i, D_i (and dQ_i, line 15). The paper also lists O_i, which is
      // not used once D is formed: not loaded, not counted.
      const I64 blk = kv + r * (2 * d + d_v + 2) * b;
      rec.Emit(EventKind::kRead, Tensor::kQ, ii, jj, r * d, kv + r * d * b);
      rec.Emit(EventKind::kRead, Tensor::kdO, ii, jj, r * d_v, kv + r * (d + d_v) * b);
      rec.Emit(EventKind::kRead, Tensor::kL, ii, jj, r, kv + r * (d + d_v + 1) * b);
      rec.Emit(EventKind::kRead, Tensor::kD, ii, jj, r, kv + r * (d + d_v + 2) * b);
      rec.Emit(EventKind::kRead, Tensor::kdQ, ii, jj, r * d, blk);
      const auto Qi = Q.middleRows(r0, r);
      const auto dOi = dO.middleRows(r0, r);
      // lines 10–11: S_ij = scale·Q_i K_jᵀ (masked), P_ij = exp(S_ij − L_i)
      const bool masked = detail::ComputeScores(S, Qi, K.middleRows(c0, c), scale, mg, r0, c0);
      for (I64 a = 0; a < r; ++a) {
        const T La = L[r0 + a];
        if (La == kNegInf<T>)
          S.row(a).setZero();  // fully masked row: P = 0, no e^{−∞+∞}
        else
          detail::ExpShiftedRow(S.row(a), La, masked);
      }
      const Mat<T>& P = S;
      dVj.noalias() += P.transpose() * dOi;                            // line 12
      dP.noalias() = dOi * V.middleRows(c0, c).transpose();            // line 13
      for (I64 a = 0; a < r; ++a) dP.row(a).array() = P.row(a).array() * (dP.row(a).array() - D[r0 + a]);  // line 14: dS
      dQ.middleRows(r0, r).noalias() += scale * (dP * K.middleRows(c0, c));   // line 15
      dKj.noalias() += scale * (dP.transpose() * Qi);                          // line 16
      rec.Emit(EventKind::kComputeGrads, Tensor::kCount, ii, jj, 0, blk + 2 * r * c * b, 0,
               2 * r * c * (3 * d + 2 * d_v), r * c);
      rec.Emit(EventKind::kWrite, Tensor::kdQ, ii, jj, r * d, blk);
    }
    rec.Emit(EventKind::kWrite, Tensor::kdK, -1, jj, c * d, column_skipped ? 0 : kv);   // line 18
    rec.Emit(EventKind::kWrite, Tensor::kdV, -1, jj, c * d_v, column_skipped ? 0 : kv);
  }
  res.counters.hbm_scratch_bytes = n_q * b;  // D
  res.dQ = dQ.template cast<double>();
  res.dK = dK.template cast<double>();
  res.dV = dV.template cast<double>();
  if (rec.tracing()) res.trace.Finish(res.counters);
  return res;
}

// [SECTION] FlashAttention Algorithm 3 (materialising) -------------------------------------------

template <typename T>
BackwardResult ReferenceBackwardImpl(const AttentionProblem& p, const AttentionMatrix& dO_in, const RunOptions& opt) {
  // P, dP, dS: (N_q, N_k) all held in HBM
  const I64 n_q = p.n_q(), n_k = p.n_k(), d = p.d(), d_v = p.d_v();
  const I64 b = sizeof(T);
  // P as the reference forward (RunReference pass 2) stored it in HBM; forming it here is not counted.
  const Mat<T> Q = p.Q.cast<T>(), K = p.K.cast<T>(), V = p.V.cast<T>(), dO = dO_in.cast<T>();
  const T scale = static_cast<T>(p.EffectiveScale());
  const MaskGeometry mg(p.mask, n_q, n_k);
  Mat<T> P(n_q, n_k);
  {
    Mat<T> row;
    for (I64 r = 0; r < n_q; ++r) {
      row = scale * (Q.row(r) * K.transpose());
      mg.ApplyToTile(row, r, 0);
      const T m = n_k > 0 ? row.maxCoeff() : kNegInf<T>;
      if (m == kNegInf<T>) {
        P.row(r).setZero();
        continue;
      }
      P.row(r) = row;
      detail::ExpShiftedRow(P.row(r), m, p.mask.kind != MaskKind::kNone);
      P.row(r) /= P.row(r).sum();
    }
  }

  BackwardResult res;
  detail::StartRun<T>(res, p, opt, Algorithm::kBackwardReference, {});
  Recorder rec(res.counters, opt.record_trace ? &res.trace : nullptr);
  const I64 nn = n_q * n_k;
  // line 1: dV = Pᵀ dO
  rec.Emit(EventKind::kRead, Tensor::kP, -1, -1, nn, 0);
  rec.Emit(EventKind::kRead, Tensor::kdO, -1, -1, n_q * d_v, 0);
  const Mat<T> dV = P.transpose() * dO;
  rec.Emit(EventKind::kComputeFull, Tensor::kdV, -1, -1, 0, 0, 0, 2 * nn * d_v);
  rec.Emit(EventKind::kWrite, Tensor::kdV, -1, -1, n_k * d_v, 0);
  // line 2: dP = dO Vᵀ
  rec.Emit(EventKind::kRead, Tensor::kdO, -1, -1, n_q * d_v, 0);
  rec.Emit(EventKind::kRead, Tensor::kV, -1, -1, n_k * d_v, 0);
  const Mat<T> dP = dO * V.transpose();
  rec.Emit(EventKind::kComputeFull, Tensor::kdP, -1, -1, 0, 0, 0, 2 * nn * d_v);
  rec.Emit(EventKind::kWrite, Tensor::kdP, -1, -1, nn, 0);
  // line 3: dS_ij = P_ij (dP_ij − Σ_l P_il dP_il)
  rec.Emit(EventKind::kRead, Tensor::kP, -1, -1, nn, 0);
  rec.Emit(EventKind::kRead, Tensor::kdP, -1, -1, nn, 0);
  Mat<T> dS(n_q, n_k);
  for (I64 r = 0; r < n_q; ++r) {
    const T rowdot = P.row(r).dot(dP.row(r));
    dS.row(r).array() = P.row(r).array() * (dP.row(r).array() - rowdot);
  }
  rec.Emit(EventKind::kComputeFull, Tensor::kdS, -1, -1, 0, 0);
  rec.Emit(EventKind::kWrite, Tensor::kdS, -1, -1, nn, 0);
  // line 4: dQ = scale · dS K
  rec.Emit(EventKind::kRead, Tensor::kdS, -1, -1, nn, 0);
  rec.Emit(EventKind::kRead, Tensor::kK, -1, -1, n_k * d, 0);
  const Mat<T> dQ = scale * (dS * K);
  rec.Emit(EventKind::kComputeFull, Tensor::kdQ, -1, -1, 0, 0, 0, 2 * nn * d);
  rec.Emit(EventKind::kWrite, Tensor::kdQ, -1, -1, n_q * d, 0);
  // line 5: dK = scale · dSᵀ Q
  rec.Emit(EventKind::kRead, Tensor::kdS, -1, -1, nn, 0);
  rec.Emit(EventKind::kRead, Tensor::kQ, -1, -1, n_q * d, 0);
  const Mat<T> dK = scale * (dS.transpose() * Q);
  rec.Emit(EventKind::kComputeFull, Tensor::kdK, -1, -1, 0, 0, 0, 2 * nn * d);
  rec.Emit(EventKind::kWrite, Tensor::kdK, -1, -1, n_k * d, 0);

  res.counters.hbm_scratch_bytes = 3 * nn * b;  // P, dP, dS
  res.dQ = dQ.template cast<double>();
  res.dK = dK.template cast<double>();
  res.dV = dV.template cast<double>();
  if (rec.tracing()) res.trace.Finish(res.counters);
  return res;
}

}  // namespace

BackwardResult RunBackwardRecompute(const AttentionProblem& p, const AttentionResult& forward,
                                    const AttentionMatrix& dO, const RunOptions& opt) {
  Validate(p);
  Validate(opt.tiles);
  CheckdO(p, dO);
  if (forward.O.rows() != p.n_q() || forward.O.cols() != p.d_v() || forward.L.size() != p.n_q())
    throw ValidationError("forward: O must be N_q x d_v and L of length N_q (run a forward pass of this problem)");
  return opt.precision == Precision::kDouble ? RecomputeImpl<double>(p, forward, dO, opt)
                                             : RecomputeImpl<float>(p, forward, dO, opt);
}

BackwardResult RunBackwardReference(const AttentionProblem& p, const AttentionMatrix& dO, const RunOptions& opt) {
  Validate(p);
  CheckdO(p, dO);
  return opt.precision == Precision::kDouble ? ReferenceBackwardImpl<double>(p, dO, opt)
                                             : ReferenceBackwardImpl<float>(p, dO, opt);
}

}  // namespace bw::engine
