// The state of every tile and HBM block of a full-attention run once trace event e has happened
// (pending, in SRAM now, processed, written, masked), for the scene — forward and backward traces
// alike. Kept as prefix snapshots every kEvery events, so a frame replays at most kEvery events
// instead of scanning from event 0.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/attention_trace.h"
#include "view/scene.h"

namespace bw::view {

// Row-side tensors (Q, O, L, m, l, D, dO, dQ) are indexed by the Q block i; the others by the K/V block j.
bool RowSide(engine::Tensor t);

struct TileStates {
  std::vector<TileState> grid;   // T_r × T_c, row-major
  // Per tensor, per block (T_r blocks for row-side tensors, T_c for the others). A tensor the trace
  // writes starts "not written" and becomes "written"; an input starts "pending", is "in SRAM" at
  // the event that reads it and "processed" after.
  std::array<std::vector<TileState>, engine::kTensorCount> blocks;
  TileState s_full = TileState::kPending, p_full = TileState::kPending;   // the reference's whole S, P

  const std::vector<TileState>& Of(engine::Tensor t) const { return blocks[static_cast<size_t>(t)]; }
};

class TileStateTrack {
 public:
  static constexpr int kEvery = 256;
  TileStateTrack() = default;
  TileStateTrack(const engine::AttentionTrace& trace, std::int64_t t_r, std::int64_t t_c);
  // The states once event e has happened, event e itself shown as "in SRAM" (e < 0: before any).
  TileStates At(int e) const;

 private:
  TileStates Initial() const;
  void Apply(TileStates& st, int x, bool now) const;

  const engine::AttentionTrace* trace_ = nullptr;
  std::int64_t t_r_ = 1, t_c_ = 1;
  std::array<bool, engine::kTensorCount> written_{};   // tensors this trace writes
  std::vector<TileStates> snapshots_;                  // [k] = after events [0, k·kEvery), none "now"
};

// What FlashAttention-2 Algorithm 2 holds on chip at each backward event: K_j, V_j with dK_j, dV_j
// from "read K_j" to "write dV_j"; Q_i, dO_i, L_i, D_i, dQ_i from "read Q_i" to "write dQ_i"; the
// recomputed P_ij once the tile's gradients are computed.
struct BackwardOnChip {
  std::int32_t j = -1, i = -1;   // K/V block and Q block on chip, −1 = none
  bool p_recomputed = false;
};
std::vector<BackwardOnChip> BackwardOnChipAt(const engine::AttentionTrace& backward);

}  // namespace bw::view
