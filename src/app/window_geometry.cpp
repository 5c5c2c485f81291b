// First-window geometry; see window_geometry.h.
#include "app/window_geometry.h"

#include <algorithm>
#include <cmath>

namespace bw::app {

WindowGeometry FitWindow(int logical_w, int logical_h, float scale, const WorkArea& area, float margin) {
  WindowGeometry g;
  g.w = static_cast<int>(std::lround(static_cast<float>(logical_w) * scale));
  g.h = static_cast<int>(std::lround(static_cast<float>(logical_h) * scale));
  if (area.w <= 0 || area.h <= 0) return g;
  const int max_w = static_cast<int>(static_cast<float>(area.w) * margin), max_h = static_cast<int>(static_cast<float>(area.h) * margin);
  if (g.w > area.w) g.w = max_w;  // only a window that does not fit is shrunk (with room to spare)
  if (g.h > area.h) g.h = max_h;
  g.w = std::max(g.w, 1);
  g.h = std::max(g.h, 1);
  g.x = area.x + std::max(0, (area.w - g.w) / 2);
  g.y = area.y + std::max(0, (area.h - g.h) / 2);
  g.placed = true;
  return g;
}

}  // namespace bw::app
