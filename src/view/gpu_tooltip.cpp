// The GPU panel's hover texts; see gpu_tooltip.h.
#include "view/gpu_tooltip.h"

#include <cstdio>

#include "view/format.h"
#include "view/gpu_text.h"
#include "view/gpu_warps.h"

namespace bw::view {

std::string GpuBytes(double b) {
  char buf[64];
  if (b >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  else if (b >= 1e6) std::snprintf(buf, sizeof buf, "%.2f MB", b / 1e6);
  else std::snprintf(buf, sizeof buf, "%.1f kB", b / 1e3);
  return buf;
}

std::string GpuMicros(std::uint64_t ns) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f \u00b5s", static_cast<double>(ns) * 1e-3);
  return buf;
}

std::string GpuShortTime(std::uint64_t ns) {
  return ns < 10'000 ? FormatInt(static_cast<std::int64_t>(ns)) + " ns" : GpuMicros(ns);
}

std::string GpuTileTooltip(const GpuFrame& f, GpuTileRef t, const std::string& lang) {
  if (!t.Valid() || t.row >= f.rows || t.col >= f.t_c || f.per_head_t_r <= 0) return "";
  const GpuCell& c = f.cells[static_cast<size_t>(t.row) * static_cast<size_t>(f.t_c) + static_cast<size_t>(t.col)];
  const int head = t.row / f.per_head_t_r, i = t.row % f.per_head_t_r;
  std::string s = GpuFormat(GpuStr::tile_title, lang, {std::to_string(i), std::to_string(t.col)});
  if (f.rows > f.per_head_t_r) s += GpuFormat(GpuStr::tile_head, lang, {std::to_string(head)});
  if (c.state == GpuCell::kPending) return s + "\n" + GpuText(GpuStr::tile_pending, lang);
  if (c.state == GpuCell::kDone) {
    s += "\n" + GpuFormat(GpuStr::tile_sm, lang, {std::to_string(c.smid)});
    const auto rel = [&](std::uint64_t x) { return x >= f.t0_ns ? x - f.t0_ns : 0; };
    s += "\n" + GpuFormat(GpuStr::tile_times, lang, {GpuMicros(rel(c.t_start_ns)), GpuMicros(rel(c.t_end_ns))});
  }
  s += "\n" + GpuFormat(GpuStr::tile_bytes, lang, {GpuBytes(c.bytes_loaded), GpuBytes(c.bytes_written)});
  if (c.state == GpuCell::kSkipped) {
    const bool causal = f.mask == cuda::MaskKind::CausalTopLeft || f.mask == cuda::MaskKind::CausalBottomRight;
    s += "\n" + GpuText(causal ? GpuStr::tile_skipped_causal : GpuStr::tile_skipped_other, lang);
  }
  return s;
}

std::string GpuWarpTooltip(const cuda::WarpPhaseRecord& w, const std::string& lang) {
  const GpuStr role = w.warpgroup == 0 ? GpuStr::warps_producer : w.warpgroup == 1 ? GpuStr::warps_consumer1 : GpuStr::warps_consumer2;
  return GpuFormat(GpuStr::warp_tip, lang, {GpuText(role, lang), WarpPhaseWord(w.phase, lang), std::to_string(w.kv_tile)}) + "\n" +
         GpuFormat(GpuStr::warp_tip_time, lang,
                   {GpuShortTime(w.t_start_ns), GpuShortTime(w.t_end_ns), std::to_string(w.cta), std::to_string(w.smid)});
}

}  // namespace bw::view
