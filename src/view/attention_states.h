// The state of every tile and HBM block of a full-attention run once trace event e has happened
// (pending, in SRAM now, processed, written, masked), for the scene. Kept as prefix snapshots every
// kEvery events, so a frame replays at most kEvery events instead of scanning from event 0.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/attention_trace.h"
#include "view/scene.h"

namespace bw::view {

// Row-side tensors (Q, O, L, m, l, D, dO, dQ) are indexed by the Q block i; the others by the K/V block j.
bool RowSide(engine::Tensor t);

struct TileStates {
  std::vector<TileState> grid;               // T_r × T_c, row-major
  std::vector<TileState> q, k, v, o, l, ml;  // per block
  TileState s_full = TileState::kPending, p_full = TileState::kPending;
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
  std::vector<TileStates> snapshots_;   // [k] = after events [0, k·kEvery), none "now"
};

}  // namespace bw::view
