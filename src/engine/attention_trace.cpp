// Trace storage and random access: cumulative counters from snapshots every K events plus replay
// of event deltas; (m, l, u) of a Q block from its nearest state snapshot plus recomputation of the
// remaining tiles with the same kernels (attention_kernels.h) the run used.
#include <algorithm>
#include <sstream>

#include "engine/attention.h"
#include "engine/attention_kernels.h"

namespace bw::engine {

const char* ToString(EventKind k) {
  switch (k) {
    case EventKind::kRead: return "read";
    case EventKind::kWrite: return "write";
    case EventKind::kComputeS: return "compute_S";
    case EventKind::kSkipTile: return "skip";
    case EventKind::kUpdateMLU: return "update_mlu";
    case EventKind::kFinalise: return "finalise";
    case EventKind::kInitialise: return "initialise";
    case EventKind::kComputeFull: return "compute";
    case EventKind::kComputeGrads: return "compute_grads";
  }
  return "?";
}

// Block and tile numbers are printed 1-based (Q_1 … Q_{T_r}), as in the papers and the app; the
// event's i and j stay 0-based.
std::string Describe(const AttentionEvent& e, bool logits_given) {
  std::ostringstream os;
  const std::int32_t I = e.i + 1, J = e.j + 1;
  auto blk = [&](const char* name, std::int32_t idx) {
    os << name;
    if (idx >= 0) os << '_' << idx + 1;
  };
  switch (e.kind) {
    case EventKind::kRead:
    case EventKind::kWrite: {
      os << (e.kind == EventKind::kRead ? "read " : "write ");
      const Tensor t = e.tensor;
      const bool row_side = t == Tensor::kQ || t == Tensor::kO || t == Tensor::kL || t == Tensor::km ||
                            t == Tensor::kl || t == Tensor::kD || t == Tensor::kdO || t == Tensor::kdQ;
      if (t == Tensor::kS && e.i >= 0 && e.j >= 0)  // a tile of given logits (AttentionProblem::logits_given)
        os << "S_" << I << ',' << J;
      else
        blk(ToString(t), row_side ? e.i : (t == Tensor::kK || t == Tensor::kV || t == Tensor::kdK || t == Tensor::kdV) ? e.j : -1);
      os << " (" << e.elements << " elements)";
      break;
    }
    case EventKind::kComputeS:
      if (logits_given)
        os << "S_" << I << ',' << J << " on chip: masked, no Q K^T (logits given)";
      else
        os << "compute S_" << I << ',' << J << " = scale * Q_" << I << " K_" << J << "^T";
      break;
    case EventKind::kSkipTile: os << "skip tile (" << I << ',' << J << "): fully masked"; break;
    case EventKind::kUpdateMLU:
      os << "update m, l, u of Q_" << I << " with tile " << J << " (rescale by e^(m-m'))";
      break;
    case EventKind::kFinalise: os << "O_" << I << " = u / l, L_" << I << " = m + log l"; break;
    case EventKind::kInitialise: os << "initialise " << ToString(e.tensor) << " in HBM"; break;
    case EventKind::kComputeFull: os << "compute " << ToString(e.tensor); break;
    case EventKind::kComputeGrads:
      os << "recompute P_" << I << ',' << J << "; dV_" << J << " += P^T dO_" << I << "; dS; dQ_" << I
         << " += dS K_" << J << "; dK_" << J << " += dS^T Q_" << I;
      break;
  }
  return os.str();
}

void AttentionTrace::Configure(int counter_snapshot_every, int per_block, std::int64_t t_r, std::int64_t t_c) {
  every_ = std::max(1, counter_snapshot_every);
  state_stride_ = static_cast<int>(std::max<std::int64_t>(1, CeilDiv(t_c, std::max(1, per_block))));
  state_snapshots_.assign(static_cast<std::size_t>(t_r), {});
  events_.clear();
  counter_snapshots_.clear();
}

void AttentionTrace::Append(const AttentionEvent& e, const Counters& before) {
  if (events_.size() % static_cast<std::size_t>(every_) == 0) counter_snapshots_.push_back(before);
  events_.push_back(e);
}

void AttentionTrace::AddStateSnapshot(std::int32_t i, StateSnapshot s) {
  state_snapshots_[static_cast<std::size_t>(i)].push_back(std::move(s));
}

Counters AttentionTrace::CountersAt(std::size_t e) const {
  const std::size_t k = e / static_cast<std::size_t>(every_);
  Counters c = counter_snapshots_[k];
  for (std::size_t x = k * static_cast<std::size_t>(every_); x <= e; ++x) ApplyEvent(events_[x], c);
  c.hbm_scratch_bytes = final_.hbm_scratch_bytes;
  c.element_bytes = final_.element_bytes;
  return c;
}

std::size_t AttentionTrace::MemoryBytes() const {
  std::size_t bytes = events_.capacity() * sizeof(AttentionEvent) + counter_snapshots_.capacity() * sizeof(Counters);
  for (const auto& v : state_snapshots_)
    for (const auto& s : v)
      bytes += sizeof(StateSnapshot) + 8 * static_cast<std::size_t>(4 * s.m.size() + s.acc.size());
  return bytes;
}

namespace {

template <typename T>
BlockState Replay(const AttentionTrace& tr, const AttentionProblem& p, std::int32_t i, std::int32_t target,
                  const AttentionTrace::StateSnapshot* snap) {
  using detail::Mat;
  const std::int64_t r0 = i * tr.B_r, r = std::min(tr.B_r, tr.n_q - r0);
  detail::RowState<T> st;
  st.Reset(r, tr.d_v);
  std::int32_t last_j = -1, steps = 0;
  if (snap) {
    st.m = snap->m.cast<T>();
    st.l = snap->l.cast<T>();
    st.m_prev = snap->m_prev.cast<T>();
    st.alpha = snap->alpha.cast<T>();
    st.acc = snap->acc.cast<T>();
    last_j = snap->last_j;
    steps = snap->steps;
  }
  const detail::MaskGeometry mg(p.mask, tr.n_q, tr.n_k);
  const Mat<T> Qi = p.Q.middleRows(r0, r).cast<T>();
  const T scale = static_cast<T>(tr.scale);
  const auto merge = static_cast<MergeVariant>(tr.merge_variant);
  Mat<T> S, PV, Kj, Vj;
  for (std::int64_t j = last_j + 1; steps < target; ++j) {
    const std::int64_t c0 = j * tr.B_c, c = std::min(tr.B_c, tr.n_k - c0);
    if (mg.TileFullyMasked(r0, r0 + r, c0, c0 + c)) continue;
    Kj = p.K.middleRows(c0, c).cast<T>();
    Vj = p.V.middleRows(c0, c).cast<T>();
    const bool masked = detail::ComputeScores(S, Qi, Kj, scale, mg, r0, c0);
    if (tr.algorithm == Algorithm::kFlash2)
      detail::MergeTileFlash2(st, S, Vj, PV, merge, masked);
    else
      detail::MergeTileFlash1(st, S, Vj, PV, masked);
    ++steps;
    last_j = static_cast<std::int32_t>(j);
  }
  BlockState bs;
  bs.valid = true;
  bs.i = i;
  bs.last_j = last_j;
  bs.steps = steps;
  bs.row_begin = r0;
  bs.row_end = r0 + r;
  bs.m = st.m.template cast<double>();
  bs.l = st.l.template cast<double>();
  bs.m_prev = st.m_prev.template cast<double>();
  bs.alpha = st.alpha.template cast<double>();
  const Eigen::MatrixXd acc = st.acc.template cast<double>();
  if (tr.algorithm == Algorithm::kFlash2) {
    bs.u = acc;
    bs.O = Eigen::MatrixXd::Zero(r, tr.d_v);
    for (std::int64_t a = 0; a < r; ++a)
      if (bs.l[a] != 0.0) bs.O.row(a) = bs.u.row(a) / bs.l[a];
  } else {
    bs.O = acc;
    bs.u = bs.l.asDiagonal() * acc;
  }
  return bs;
}

}  // namespace

BlockState AttentionTrace::StateAt(const AttentionProblem& p, std::size_t e) const {
  const AttentionEvent& ev = events_.at(e);
  if ((algorithm != Algorithm::kFlash2 && algorithm != Algorithm::kFlash1) || ev.i < 0) return {};
  const auto& snaps = state_snapshots_[static_cast<std::size_t>(ev.i)];
  // The latest snapshot taken at or before this many merged tiles.
  auto it = std::upper_bound(snaps.begin(), snaps.end(), ev.step,
                             [](std::int32_t s, const StateSnapshot& x) { return s < x.steps; });
  const StateSnapshot* snap = it == snaps.begin() ? nullptr : &*(it - 1);
  return precision_bytes == 8 ? Replay<double>(*this, p, ev.i, ev.step, snap)
                              : Replay<float>(*this, p, ev.i, ev.step, snap);
}

}  // namespace bw::engine
