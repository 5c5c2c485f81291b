// The GPU panel's tile grid as a scene: T_r × T_c cells, each pending, skipped (fully masked:
// nothing loaded) or done — coloured by the streaming multiprocessor (SM) that computed it, so a
// class sees the thread blocks spread over the chip. Plain data (no CUDA types): the app fills the
// cells from live or replayed tile records.
#pragma once

#include <string>
#include <vector>

#include "view/scene.h"

namespace bw::view {

inline constexpr int kGpuCellPending = -1;
inline constexpr int kGpuCellSkipped = -2;

// cells: row-major T_r × T_c, each kGpuCellPending, kGpuCellSkipped or the SM id (≥ 0).
// Shown in a width × height em box.
Scene BuildGpuGridScene(int t_r, int t_c, const std::vector<int>& cells, int sm_count, float width_em, float height_em,
                        const std::string& lang, const Palette& palette);

// The colour of SM `sm` of `sm_count`: hues around the wheel, alternating lightness so neighbours differ.
Color SmColor(int sm, int sm_count);

}  // namespace bw::view
