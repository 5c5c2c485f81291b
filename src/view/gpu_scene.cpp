// GPU tile grid scene; see gpu_scene.h.
#include "view/gpu_scene.h"

#include <algorithm>
#include <cmath>

namespace bw::view {

Color SmColor(int sm, int sm_count) {
  const float h = std::fmod(static_cast<float>(sm) * 0.618034f, 1.0f);  // golden-ratio hue steps
  const float l = (sm % 2) ? 0.45f : 0.60f, s = 0.70f;
  const auto f = [&](float n) {
    const float k = std::fmod(n + h * 12.0f, 12.0f);
    const float a = s * std::min(l, 1 - l);
    return l - a * std::max(-1.0f, std::min({k - 3, 9 - k, 1.0f}));
  };
  (void)sm_count;
  return {static_cast<std::uint8_t>(f(0) * 255), static_cast<std::uint8_t>(f(8) * 255), static_cast<std::uint8_t>(f(4) * 255)};
}

Scene BuildGpuGridScene(int t_r, int t_c, const std::vector<int>& cells, int sm_count, float width_em, float height_em,
                        const std::string& lang, const Palette& pal) {
  Scene sc;
  sc.width = width_em;
  sc.height = height_em;
  sc.background = pal.background;
  if (t_r <= 0 || t_c <= 0 || cells.size() != static_cast<size_t>(t_r) * static_cast<size_t>(t_c)) return sc;
  const float size = std::min(width_em / static_cast<float>(t_c), height_em / static_cast<float>(t_r));
  const float gap = size > 0.6f ? 0.06f : 0.0f;
  for (int i = 0; i < t_r; ++i)
    for (int j = 0; j < t_c; ++j) {
      const int c = cells[static_cast<size_t>(i) * t_c + j];
      SceneRect r;
      r.id = "gpu." + std::to_string(i + 1) + "," + std::to_string(j + 1);
      r.x = size * static_cast<float>(j), r.y = size * static_cast<float>(i);
      r.w = r.h = size - gap;
      r.border = pal.border;
      r.border_em = 0.03f;
      if (c == kGpuCellPending) {
        r.state = TileState::kPending;
        r.fill = Style(r.state, pal).fill;
      } else if (c == kGpuCellSkipped) {
        r.state = TileState::kMasked;
        r.fill = Style(r.state, pal).fill;
        r.hatched = Style(r.state, pal).hatched && size >= 0.9f;
      } else {
        r.state = TileState::kProcessed;
        r.fill = SmColor(c, sm_count);
        if (size >= 2.0f) r.label = "SM " + std::to_string(c);
      }
      if (size >= 2.2f) r.sublabel = ShortStateWord(r.state, lang);
      sc.rects.push_back(std::move(r));
    }
  return sc;
}

}  // namespace bw::view
