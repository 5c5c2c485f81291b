// Partial redraw: cell hashes of the draw data, the changed cells joined into rectangles, and the
// draw data cut to them (damage.h).
#include "app/damage.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>

namespace bw::app {
namespace {

// Order-dependent combination of a cell's running hash with one more triangle's.
inline std::uint64_t Combine(std::uint64_t cell, std::uint64_t h) {
  cell ^= h + 0x9e3779b97f4a7c15ULL + (cell << 6) + (cell >> 2);
  return cell * 0x100000001b3ULL;
}

std::uint64_t HashBytes(const void* p, std::size_t n) {
  return std::hash<std::string_view>{}(std::string_view(static_cast<const char*>(p), n));
}

PixelRect Intersect(const PixelRect& a, const PixelRect& b) {
  PixelRect r{std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)};
  if (r.x1 <= r.x0 || r.y1 <= r.y0) return {};
  return r;
}
bool Empty(const PixelRect& r) { return r.x1 <= r.x0 || r.y1 <= r.y0; }
PixelRect Union(const PixelRect& a, const PixelRect& b) {
  return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}
bool Overlap(const PixelRect& a, const PixelRect& b) { return !Empty(Intersect(a, b)); }

// Merges overlapping rectangles until none overlap.
void MergeOverlaps(std::vector<PixelRect>& r) {
  for (bool merged = true; merged;) {
    merged = false;
    for (std::size_t a = 0; a < r.size() && !merged; ++a)
      for (std::size_t b = a + 1; b < r.size(); ++b)
        if (Overlap(r[a], r[b])) {
          r[a] = Union(r[a], r[b]);
          r.erase(r.begin() + static_cast<std::ptrdiff_t>(b));
          merged = true;
          break;
        }
  }
}

// The pixels a triangle can write, with a pixel's margin either side (a pixel is written when its
// centre is inside); empty for NaN or far off-screen vertices.
PixelRect TriangleBox(const ImDrawVert& a, const ImDrawVert& b, const ImDrawVert& c, const ImVec2& origin) {
  const float x0 = std::min({a.pos.x, b.pos.x, c.pos.x}) - origin.x, x1 = std::max({a.pos.x, b.pos.x, c.pos.x}) - origin.x;
  const float y0 = std::min({a.pos.y, b.pos.y, c.pos.y}) - origin.y, y1 = std::max({a.pos.y, b.pos.y, c.pos.y}) - origin.y;
  if (!(x0 < 1e6f && y0 < 1e6f && x1 > -1e6f && y1 > -1e6f)) return {};
  return {static_cast<int>(std::floor(x0)) - 1, static_cast<int>(std::floor(y0)) - 1, static_cast<int>(std::ceil(x1)) + 1,
          static_cast<int>(std::ceil(y1)) + 1};
}

}  // namespace

PixelRect BackendScissor(const ImVec4& clip, const ImVec2& display_pos, int fb_h) {
  const ImVec2 mn(clip.x - display_pos.x, clip.y - display_pos.y), mx(clip.z - display_pos.x, clip.w - display_pos.y);
  if (mx.x <= mn.x || mx.y <= mn.y) return {};
  // glScissor((int)mn.x, (int)(fb_h − mx.y), (int)(mx.x − mn.x), (int)(mx.y − mn.y)), bottom-up rows.
  const int x = static_cast<int>(mn.x), w = static_cast<int>(mx.x - mn.x);
  const int yb = static_cast<int>(static_cast<float>(fb_h) - mx.y), h = static_cast<int>(mx.y - mn.y);
  return {x, fb_h - (yb + h), x + w, fb_h - yb};
}

void DamageTracker::Record(const ImDrawData& dd, int fb_w, int fb_h, std::uint64_t seed, const CallbackDescriber& describe) {
  if (fb_w != fb_w_ || fb_h != fb_h_) history_.clear();
  fb_w_ = fb_w, fb_h_ = fb_h;
  cols_ = (fb_w + kCell - 1) / kCell, rows_ = (fb_h + kCell - 1) / kCell;
  const std::uint64_t base = Combine(seed, (static_cast<std::uint64_t>(fb_w) << 32) | static_cast<std::uint32_t>(fb_h));
  cells_.assign(static_cast<std::size_t>(cols_) * rows_, base);
  boxes_.clear();
  const PixelRect screen{0, 0, fb_w, fb_h};
  const auto add = [&](const PixelRect& px, std::uint64_t h) {
    const PixelRect r = Intersect(px, screen);
    if (Empty(r)) return;
    for (int cy = r.y0 / kCell; cy <= (r.y1 - 1) / kCell; ++cy) {
      std::uint64_t* row = cells_.data() + static_cast<std::size_t>(cy) * cols_;
      for (int cx = r.x0 / kCell; cx <= (r.x1 - 1) / kCell; ++cx) row[cx] = Combine(row[cx], h);
    }
  };
  std::uint64_t state = 0;  // the program state set by callbacks: 0 = ImGui's own (it lasts across lists, as in GL)
  for (int n = 0; n < dd.CmdListsCount; ++n) {
    const ImDrawList& list = *dd.CmdLists[n];
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback == ImDrawCallback_ResetRenderState) {
        state = 0;
        continue;
      }
      const PixelRect sc = BackendScissor(cmd.ClipRect, dd.DisplayPos, fb_h);
      if (cmd.UserCallback) {
        const CallbackEffect e = describe ? describe(cmd) : CallbackEffect{true, ~0ULL};
        if (!e.draws) {
          state = e.fingerprint;
          continue;
        }
        const int s[4] = {sc.x0, sc.y0, sc.x1, sc.y1};
        add(sc, Combine(e.fingerprint, HashBytes(s, sizeof s)));
        continue;
      }
      if (Empty(sc)) {  // the backend skips it: no pixel
        boxes_.resize(boxes_.size() + cmd.ElemCount / 3);
        continue;
      }
      // What every triangle of this command shares: texture, scissor, program state.
      const std::uint64_t shared[6] = {static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(cmd.TextureId)), state,
                                       static_cast<std::uint64_t>(sc.x0), static_cast<std::uint64_t>(sc.y0),
                                       static_cast<std::uint64_t>(sc.x1), static_cast<std::uint64_t>(sc.y1)};
      const std::uint64_t cmd_hash = HashBytes(shared, sizeof shared);
      const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
      const ImDrawVert* vtx = list.VtxBuffer.Data + cmd.VtxOffset;
      for (unsigned t = 0; t + 2 < cmd.ElemCount; t += 3) {
        ImDrawVert v[3];
        for (int k = 0; k < 3; ++k) v[k] = vtx[idx[t + k]];
        const PixelRect r = Intersect(TriangleBox(v[0], v[1], v[2], dd.DisplayPos), sc);
        boxes_.push_back(r);
        if (Empty(r)) continue;
        add(r, Combine(cmd_hash, HashBytes(v, sizeof v)));
      }
    }
  }
}

std::vector<PixelRect> DamageTracker::Damage(int age) {
  const PixelRect whole{0, 0, fb_w_, fb_h_};
  std::vector<PixelRect> out;
  if (age < 1 || age > static_cast<int>(history_.size())) {
    out.push_back(whole);
  } else {
    const std::vector<std::uint64_t>& then = history_[static_cast<std::size_t>(age - 1)];
    std::vector<std::uint8_t> changed(cells_.size());
    bool any = false;
    for (std::size_t c = 0; c < cells_.size(); ++c) any |= (changed[c] = cells_[c] != then[c]) != 0;
    if (any) {
      long area = 0;
      for (PixelRect r : JoinCells(changed, cols_, rows_, kMaxRects)) {
        r = Intersect({r.x0 * kCell, r.y0 * kCell, r.x1 * kCell, r.y1 * kCell}, whole);
        area += r.Area();
        out.push_back(r);
      }
      if (area * 10 > whole.Area() * 6) out.assign(1, whole);
    }
  }
  // This frame becomes history; the oldest picture's buffer is reused for the next frame's cells
  // (no allocation per frame).
  std::vector<std::uint64_t> reuse;
  if (static_cast<int>(history_.size()) >= kHistory) {
    reuse = std::move(history_.back());
    history_.pop_back();
  }
  history_.insert(history_.begin(), std::move(cells_));
  cells_ = std::move(reuse);
  return out;
}

std::vector<PixelRect> JoinCells(const std::vector<std::uint8_t>& marked, int cols, int rows, int max_rects) {
  // Bounding boxes of the 8-connected groups of marked cells.
  std::vector<PixelRect> boxes;
  std::vector<std::uint8_t> seen(marked.size());
  std::vector<int> stack;
  for (int start = 0; start < cols * rows; ++start) {
    if (!marked[static_cast<std::size_t>(start)] || seen[static_cast<std::size_t>(start)]) continue;
    PixelRect b{start % cols, start / cols, start % cols + 1, start / cols + 1};
    seen[static_cast<std::size_t>(start)] = 1;
    stack.assign(1, start);
    while (!stack.empty()) {
      const int c = stack.back();
      stack.pop_back();
      const int cx = c % cols, cy = c / cols;
      b = Union(b, {cx, cy, cx + 1, cy + 1});
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int nx = cx + dx, ny = cy + dy;
          if (nx < 0 || ny < 0 || nx >= cols || ny >= rows) continue;
          const auto k = static_cast<std::size_t>(ny * cols + nx);
          if (marked[k] && !seen[k]) seen[k] = 1, stack.push_back(ny * cols + nx);
        }
    }
    boxes.push_back(b);
  }
  if (boxes.empty()) return boxes;
  if (static_cast<int>(boxes.size()) > 64) {  // scattered: one box round them all
    PixelRect all = boxes[0];
    for (const PixelRect& b : boxes) all = Union(all, b);
    return {all};
  }
  MergeOverlaps(boxes);
  while (static_cast<int>(boxes.size()) > std::max(max_rects, 1)) {
    // Join the two whose union adds the fewest cells that did not need repainting.
    std::size_t best_a = 0, best_b = 1;
    long best = -1;
    for (std::size_t a = 0; a < boxes.size(); ++a)
      for (std::size_t b = a + 1; b < boxes.size(); ++b) {
        const long extra = Union(boxes[a], boxes[b]).Area() - boxes[a].Area() - boxes[b].Area();
        if (best < 0 || extra < best) best = extra, best_a = a, best_b = b;
      }
    boxes[best_a] = Union(boxes[best_a], boxes[best_b]);
    boxes.erase(boxes.begin() + static_cast<std::ptrdiff_t>(best_b));
    MergeOverlaps(boxes);
  }
  return boxes;
}

ClipDrawDataTo::ClipDrawDataTo(ImDrawData& dd, const std::vector<PixelRect>& rects, int fb_h, const std::vector<PixelRect>* boxes)
    : dd_(dd) {
  saved_.resize(static_cast<std::size_t>(dd.CmdListsCount));
  std::size_t next_box = 0;  // the first triangle of the command in `boxes` (every drawing command's triangles, in order)
  if (boxes) {  // boxes of other draw data would skip the wrong triangles: then none
    std::size_t triangles = 0;
    for (int n = 0; n < dd.CmdListsCount; ++n)
      for (const ImDrawCmd& cmd : dd.CmdLists[n]->CmdBuffer)
        if (!cmd.UserCallback) triangles += cmd.ElemCount / 3;
    if (triangles != boxes->size()) boxes = nullptr;
  }
  for (int n = 0; n < dd.CmdListsCount; ++n) {
    ImDrawList& list = *dd.CmdLists[n];
    ImVector<ImDrawCmd> cut;
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback == ImDrawCallback_ResetRenderState) {
        cut.push_back(cmd);
        continue;
      }
      const PixelRect sc = BackendScissor(cmd.ClipRect, dd.DisplayPos, fb_h);
      const PixelRect* box = nullptr;  // this command's triangles' boxes, when given
      if (!cmd.UserCallback) {
        if (boxes) box = boxes->data() + next_box;
        next_box += cmd.ElemCount / 3;
      }
      bool kept = false;
      for (const PixelRect& r : rects) {
        const PixelRect p = Intersect(sc, r);
        if (Empty(p)) continue;
        ImDrawCmd c = cmd;
        if (!cmd.UserCallback) {
          // Only the span of triangles from the first to the last that can reach p: the others
          // would be scissored away whole (less vertex and set-up work for the rasteriser).
          const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
          const ImDrawVert* vtx = list.VtxBuffer.Data + cmd.VtxOffset;
          const auto reaches = [&](unsigned t) {
            return !Empty(Intersect(box ? box[t / 3] : TriangleBox(vtx[idx[t]], vtx[idx[t + 1]], vtx[idx[t + 2]], dd.DisplayPos), p));
          };
          unsigned first = 0, last = cmd.ElemCount;  // [first, last) in indices, whole triangles
          while (first + 2 < cmd.ElemCount && !reaches(first)) first += 3;
          if (first + 2 >= cmd.ElemCount) continue;  // no triangle reaches this rectangle
          while (last >= first + 6 && !reaches(last - 3)) last -= 3;
          c.IdxOffset += first;
          c.ElemCount = last - first;
        }
        // Whole pixels: the backend's own rounding then gives back exactly p.
        c.ClipRect = ImVec4(dd.DisplayPos.x + static_cast<float>(p.x0), dd.DisplayPos.y + static_cast<float>(p.y0),
                            dd.DisplayPos.x + static_cast<float>(p.x1), dd.DisplayPos.y + static_cast<float>(p.y1));
        cut.push_back(c);
        kept = true;
      }
      // A callback outside every rectangle may still set state for the commands after it.
      if (!kept && cmd.UserCallback) {
        ImDrawCmd c = cmd;
        c.ClipRect = ImVec4(dd.DisplayPos.x, dd.DisplayPos.y, dd.DisplayPos.x, dd.DisplayPos.y);
        cut.push_back(c);
      }
    }
    saved_[static_cast<std::size_t>(n)].swap(list.CmdBuffer);
    list.CmdBuffer.swap(cut);
  }
}

ClipDrawDataTo::~ClipDrawDataTo() {
  for (int n = 0; n < dd_.CmdListsCount; ++n) dd_.CmdLists[n]->CmdBuffer.swap(saved_[static_cast<std::size_t>(n)]);
}

}  // namespace bw::app
