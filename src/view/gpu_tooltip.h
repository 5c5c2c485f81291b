// What hovering the GPU panel says (issue 33: "the GPU panel answers an engineer"), as plain text a test
// can read: for a tile of the grid (or its bar in the SM × time lanes) which SM ran it, when it started
// and ended (µs since the run's start), its bytes, or why it was skipped; for a bar of the warp
// timeline, its warpgroup, phase, tile and times on the SM's clock. Every number says where it comes
// from (measured). Lines are separated by '\n'.
#pragma once

#include <cstdint>
#include <string>

#include "cuda/gpu_types.h"
#include "view/gpu_scene.h"

namespace bw::view {

// Bytes in decimal units as GPU datasheets give bandwidth: "220.86 MB", "957.7 kB", "0.0 kB".
std::string GpuBytes(double bytes);
// A time since some start: "%.2f µs" ("12.35 µs"); under 10 µs as whole ns, grouped ("1,234 ns").
std::string GpuMicros(std::uint64_t ns);
std::string GpuShortTime(std::uint64_t ns);

// `t` must be a tile of `f` (else ""). Times relative to f.t0_ns (FrameAt sets it to the run's start).
std::string GpuTileTooltip(const GpuFrame& f, GpuTileRef t, const std::string& lang);
std::string GpuWarpTooltip(const cuda::WarpPhaseRecord& w, const std::string& lang);

}  // namespace bw::view
