// Style(TileState, Palette): see scene.h.
#include "view/scene.h"

namespace bw::view {

TileStyle Style(TileState s, const Palette& p) {
  TileStyle t;
  switch (s) {
    case TileState::kPending: t.fill = p.pending; break;
    case TileState::kInSram: t.fill = p.in_sram; break;
    case TileState::kProcessed: t.fill = p.processed; break;
    case TileState::kMasked: t.fill = p.masked; break;
    case TileState::kWritten: t.fill = p.written; break;
    case TileState::kNotStored: t.fill = p.masked; break;
    case TileState::kNotWritten:
    case TileState::kNone: t.fill = p.not_written; break;
  }
  t.hatched = s == TileState::kMasked || s == TileState::kNotStored;
  t.dashed = s == TileState::kNotStored || s == TileState::kNotWritten;
  return t;
}

}  // namespace bw::view
