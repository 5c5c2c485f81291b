// See attention_states.h.
#include "view/attention_states.h"

#include <algorithm>

namespace bw::view {

using engine::EventKind;
using engine::Tensor;

bool RowSide(Tensor t) {
  return t == Tensor::kQ || t == Tensor::kO || t == Tensor::kL || t == Tensor::km || t == Tensor::kl ||
         t == Tensor::kD || t == Tensor::kdO || t == Tensor::kdQ;
}

TileStateTrack::TileStateTrack(const engine::AttentionTrace& trace, std::int64_t t_r, std::int64_t t_c)
    : trace_(&trace), t_r_(t_r), t_c_(t_c) {
  TileStates st = Initial();
  const int n = static_cast<int>(trace.size());
  snapshots_.reserve(static_cast<size_t>(n / kEvery + 1));
  for (int x = 0; x < n; ++x) {
    if (x % kEvery == 0) snapshots_.push_back(st);
    Apply(st, x, false);
  }
}

TileStates TileStateTrack::Initial() const {
  TileStates st;
  st.grid.assign(static_cast<size_t>(t_r_ * t_c_), TileState::kPending);
  st.q.assign(t_r_, TileState::kPending);
  st.o.assign(t_r_, TileState::kNotWritten);
  st.l.assign(t_r_, TileState::kNotWritten);
  st.ml.assign(t_r_, TileState::kNotWritten);
  st.k.assign(t_c_, TileState::kPending);
  st.v.assign(t_c_, TileState::kPending);
  return st;
}

void TileStateTrack::Apply(TileStates& st, int x, bool now) const {
  const auto set_block = [](std::vector<TileState>& v, std::int32_t idx, TileState s) {
    if (idx >= 0 && idx < static_cast<std::int32_t>(v.size())) v[idx] = s;
    else if (idx < 0) std::fill(v.begin(), v.end(), s);
  };
  const auto& ev = (*trace_)[static_cast<size_t>(x)];
  switch (ev.kind) {
    case EventKind::kRead:
      if (ev.tensor == Tensor::kQ) set_block(st.q, ev.i, now ? TileState::kInSram : TileState::kProcessed);
      if (ev.tensor == Tensor::kK) set_block(st.k, ev.j, now ? TileState::kInSram : TileState::kProcessed);
      if (ev.tensor == Tensor::kV) set_block(st.v, ev.j, now ? TileState::kInSram : TileState::kProcessed);
      if (ev.tensor == Tensor::kS) st.s_full = now ? TileState::kInSram : TileState::kWritten;
      if (ev.tensor == Tensor::kP) st.p_full = now ? TileState::kInSram : TileState::kWritten;
      break;
    case EventKind::kWrite:
      if (ev.tensor == Tensor::kO) set_block(st.o, ev.i, TileState::kWritten);
      if (ev.tensor == Tensor::kL) set_block(st.l, ev.i, TileState::kWritten);
      if (ev.tensor == Tensor::km || ev.tensor == Tensor::kl) set_block(st.ml, ev.i, TileState::kWritten);
      if (ev.tensor == Tensor::kS) st.s_full = TileState::kWritten;
      if (ev.tensor == Tensor::kP) st.p_full = TileState::kWritten;
      break;
    case EventKind::kComputeS:
    case EventKind::kUpdateMLU:
    case EventKind::kComputeGrads:
      if (ev.i >= 0 && ev.j >= 0 && ev.i < t_r_ && ev.j < t_c_)
        st.grid[static_cast<size_t>(ev.i * t_c_ + ev.j)] = now ? TileState::kInSram : TileState::kProcessed;
      break;
    case EventKind::kSkipTile:
      if (ev.i >= 0 && ev.j >= 0 && ev.i < t_r_ && ev.j < t_c_)
        st.grid[static_cast<size_t>(ev.i * t_c_ + ev.j)] = TileState::kMasked;
      break;
    default: break;
  }
}

TileStates TileStateTrack::At(int e) const {
  if (!trace_ || e < 0 || snapshots_.empty()) return Initial();
  e = std::min(e, static_cast<int>(trace_->size()) - 1);
  const int k = e / kEvery;
  TileStates st = snapshots_[static_cast<size_t>(k)];
  for (int x = k * kEvery; x <= e; ++x) Apply(st, x, x == e);
  return st;
}

}  // namespace bw::view
