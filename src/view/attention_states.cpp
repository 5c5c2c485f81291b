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
  for (const auto& ev : trace.events())
    if (ev.kind == EventKind::kWrite && ev.tensor != Tensor::kCount) written_[static_cast<size_t>(ev.tensor)] = true;
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
  for (int t = 0; t < engine::kTensorCount; ++t) {
    const bool row = RowSide(static_cast<Tensor>(t));
    st.blocks[static_cast<size_t>(t)].assign(static_cast<size_t>(row ? t_r_ : t_c_),
                                             written_[static_cast<size_t>(t)] ? TileState::kNotWritten : TileState::kPending);
  }
  // m and l are one "m,l" column (FA-1 keeps them in HBM): the forward always shows it "not written" first.
  for (Tensor t : {Tensor::km, Tensor::kl}) std::fill(st.blocks[static_cast<size_t>(t)].begin(), st.blocks[static_cast<size_t>(t)].end(), TileState::kNotWritten);
  return st;
}

void TileStateTrack::Apply(TileStates& st, int x, bool now) const {
  const auto set_block = [](std::vector<TileState>& v, std::int32_t idx, TileState s) {
    if (idx >= 0 && idx < static_cast<std::int32_t>(v.size())) v[idx] = s;
    else if (idx < 0) std::fill(v.begin(), v.end(), s);
  };
  const auto& ev = (*trace_)[static_cast<size_t>(x)];
  const auto block_of = [&](Tensor t) -> std::vector<TileState>& { return st.blocks[static_cast<size_t>(t)]; };
  const auto index = [&](Tensor t) { return RowSide(t) ? ev.i : ev.j; };
  switch (ev.kind) {
    case EventKind::kRead:
      if (ev.tensor == Tensor::kS && ev.i >= 0 && ev.j >= 0) {   // a tile of given logits (tiled orders)
        // On chip from its read until its merge (which then marks it done), as a computed tile is.
        if (ev.i < t_r_ && ev.j < t_c_) st.grid[static_cast<size_t>(ev.i * t_c_ + ev.j)] = TileState::kInSram;
      } else if (ev.tensor == Tensor::kS) {   // given logits are never written: an input, read and done
        st.s_full = now ? TileState::kInSram : written_[static_cast<size_t>(Tensor::kS)] ? TileState::kWritten : TileState::kProcessed;
      }
      else if (ev.tensor == Tensor::kP) st.p_full = now ? TileState::kInSram : TileState::kWritten;
      else if (ev.tensor != Tensor::kCount && !written_[static_cast<size_t>(ev.tensor)])   // inputs only
        set_block(block_of(ev.tensor), index(ev.tensor), now ? TileState::kInSram : TileState::kProcessed);
      break;
    case EventKind::kWrite:
      if (ev.tensor == Tensor::kS) st.s_full = TileState::kWritten;
      else if (ev.tensor == Tensor::kP) st.p_full = TileState::kWritten;
      else if (ev.tensor == Tensor::km || ev.tensor == Tensor::kl) {   // one "m,l" column
        set_block(block_of(Tensor::km), ev.i, TileState::kWritten);
        set_block(block_of(Tensor::kl), ev.i, TileState::kWritten);
      } else if (ev.tensor != Tensor::kCount) {
        set_block(block_of(ev.tensor), index(ev.tensor), TileState::kWritten);
      }
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

std::vector<BackwardOnChip> BackwardOnChipAt(const engine::AttentionTrace& tr) {
  std::vector<BackwardOnChip> out;
  out.reserve(tr.size());
  BackwardOnChip c;
  for (const auto& ev : tr.events()) {
    if (ev.kind == EventKind::kRead && ev.tensor == Tensor::kK) c.j = ev.j;
    if (ev.kind == EventKind::kRead && ev.tensor == Tensor::kQ) c.i = ev.i, c.p_recomputed = false;
    if (ev.kind == EventKind::kComputeGrads) c.p_recomputed = true;
    BackwardOnChip shown = c;
    if (ev.kind == EventKind::kSkipTile) shown.i = -1, shown.p_recomputed = false;   // nothing loaded
    if (ev.kind == EventKind::kWrite && (ev.tensor == Tensor::kdK || ev.tensor == Tensor::kdV)) shown.j = ev.j;
    out.push_back(shown);
    if (ev.kind == EventKind::kWrite && ev.tensor == Tensor::kdQ && ev.i >= 0) c.i = -1, c.p_recomputed = false;
    if (ev.kind == EventKind::kWrite && ev.tensor == Tensor::kdV) c.j = -1;
  }
  return out;
}

}  // namespace bw::view
