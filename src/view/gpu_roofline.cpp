// Roofline placement and scene; see gpu_roofline.h.
#include "view/gpu_roofline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "view/gpu_text.h"

namespace bw::view {

RooflinePlacement PlaceOnRoofline(const cuda::RunSummary& run, const cuda::DevicePeaks& peaks) {
  RooflinePlacement p;
  p.intensity = cuda::RunIntensity(run);
  p.attained_flops = run.kernel_ms > 0 ? cuda::RunFlops(run) / (run.kernel_ms * 1e-3) : 0.0;
  const double peak = peaks.ComputeRoof(run.algorithm);
  p.ridge = peaks.hbm_bytes_per_s > 0 ? peak / peaks.hbm_bytes_per_s : 0.0;
  p.roof_flops = std::min(peak, p.intensity * peaks.hbm_bytes_per_s);
  p.memory_bound = p.intensity < p.ridge;
  p.fraction_of_roof = p.roof_flops > 0 ? p.attained_flops / p.roof_flops : 0.0;
  p.fraction_of_peak = peak > 0 ? p.attained_flops / peak : 0.0;
  return p;
}

namespace {
constexpr float kLeft = 4.2f, kBottom = 2.2f, kTop = 0.4f, kRight = 0.6f;
}

ScenePoint RooflineToScene(double intensity, double flops, float width_em, float height_em, const RooflineAxes& ax) {
  const float pw = std::max(1.0f, width_em - kLeft - kRight), ph = std::max(1.0f, height_em - kBottom - kTop);
  const double lx = std::log10(std::max(intensity, 1e-30)), ly = std::log10(std::max(flops, 1e-30));
  const double fx = (lx - ax.log_x_min) / (ax.log_x_max - ax.log_x_min), fy = (ly - ax.log_y_min) / (ax.log_y_max - ax.log_y_min);
  return {kLeft + static_cast<float>(fx) * pw, kTop + static_cast<float>(1.0 - fy) * ph};
}

Scene BuildRooflineScene(const cuda::RunSummary& run, const cuda::DevicePeaks& peaks, float width_em, float height_em,
                         const std::string& lang, const Palette& pal) {
  Scene sc;
  sc.width = width_em;
  sc.height = height_em;
  sc.background = pal.background;
  const RooflineAxes ax;
  const float pw = std::max(1.0f, width_em - kLeft - kRight), ph = std::max(1.0f, height_em - kBottom - kTop);
  const auto rect = [&](const std::string& id, float x, float y, float w, float h, Color c) {
    SceneRect r;
    r.id = id;
    r.x = x, r.y = y, r.w = w, r.h = h;
    r.fill = c;
    r.border = c;
    r.border_em = 0;
    sc.rects.push_back(std::move(r));
  };
  // Axes, with a tick label per decade.
  rect("roof.axis.x", kLeft, kTop + ph, pw, 0.06f, pal.text);
  rect("roof.axis.y", kLeft - 0.06f, kTop, 0.06f, ph, pal.text);
  for (int e = static_cast<int>(ax.log_x_min); e <= static_cast<int>(ax.log_x_max); ++e) {
    const ScenePoint p = RooflineToScene(std::pow(10.0, e), std::pow(10.0, ax.log_y_min), width_em, height_em, ax);
    char buf[16];
    std::snprintf(buf, sizeof buf, e < 0 ? "0.1" : "%.0f", std::pow(10.0, e));
    sc.texts.push_back({"roof.xtick." + std::to_string(e), p.x - 0.4f, p.y + 0.2f, 0.75f, pal.text_muted, buf});
  }
  for (int e = static_cast<int>(ax.log_y_min); e <= static_cast<int>(ax.log_y_max); ++e) {
    const ScenePoint p = RooflineToScene(std::pow(10.0, ax.log_x_min), std::pow(10.0, e), width_em, height_em, ax);
    char buf[16];
    std::snprintf(buf, sizeof buf, "%g", std::pow(10.0, e - 12));  // TFLOP/s
    sc.texts.push_back({"roof.ytick." + std::to_string(e), 0.2f, p.y - 0.45f, 0.75f, pal.text_muted, buf});
  }
  sc.texts.push_back({"roof.x", kLeft + pw * 0.25f, height_em - 1.1f, 0.8f, pal.text, UiText(Str::gpu_roof_x, lang)});
  sc.texts.push_back({"roof.y", kLeft + 0.3f, kTop, 0.8f, pal.text, "TFLOP/s"});
  // Where each number comes from (issue 33): the roofs are the datasheet's, the point is measured time
  // against the model's FLOPs and bytes.
  sc.texts.push_back({"roof.source", kLeft + 5.0f, kTop, 0.75f, pal.text_muted, GpuText(GpuStr::roof_source, lang)});
  // The roofs: the bandwidth slope as a dotted line up to each ridge, then each compute roof flat.
  const double bw = peaks.hbm_bytes_per_s;
  const Color tensor_c{96, 125, 139}, fp32_c{0, 150, 136}, hbm_c{121, 85, 72};
  const double ridge_tensor = peaks.tensor_flops / bw, ridge_fp32 = peaks.fp32_flops / bw;
  const int dots = 80;
  for (int k = 0; k <= dots; ++k) {
    const double lx = ax.log_x_min + (std::log10(ridge_tensor) - ax.log_x_min) * k / dots;
    const double x = std::pow(10.0, lx), y = x * bw;
    if (std::log10(y) < ax.log_y_min) continue;
    const ScenePoint p = RooflineToScene(x, y, width_em, height_em, ax);
    rect("roof.hbm." + std::to_string(k), p.x - 0.06f, p.y - 0.06f, 0.12f, 0.12f, hbm_c);
  }
  const auto flat = [&](const std::string& id, double ridge, double peak, Color c, const std::string& label) {
    const ScenePoint a = RooflineToScene(ridge, peak, width_em, height_em, ax);
    const ScenePoint b = RooflineToScene(std::pow(10.0, ax.log_x_max), peak, width_em, height_em, ax);
    rect(id, a.x, a.y - 0.06f, b.x - a.x, 0.12f, c);
    sc.texts.push_back({id + ".label", std::max(a.x, b.x - 12.0f), a.y - 1.1f, 0.75f, c, label});
  };
  char buf[160];
  std::snprintf(buf, sizeof buf, "%.0f", peaks.tensor_flops / 1e12);
  flat("roof.tensor", ridge_tensor, peaks.tensor_flops, tensor_c, UiFormat(Str::gpu_roof_tensor, lang, {buf}));
  std::snprintf(buf, sizeof buf, "fp32 %.0f TFLOP/s", peaks.fp32_flops / 1e12);
  flat("roof.fp32", ridge_fp32, peaks.fp32_flops, fp32_c, buf);
  std::snprintf(buf, sizeof buf, "HBM %.1f TB/s", bw / 1e12);
  {
    const ScenePoint p = RooflineToScene(1.0, bw, width_em, height_em, ax);
    sc.texts.push_back({"roof.hbm.label", p.x + 0.3f, p.y + 0.2f, 0.75f, hbm_c, buf});
  }
  // The kernel.
  const RooflinePlacement pl = PlaceOnRoofline(run, peaks);
  if (run.pace_ns > 0) {
    // Slow motion: the kernel waited on purpose, so its time (and FLOP/s) says nothing about the chip.
    // Bottom right: below the roofs and right of the bandwidth slope, where a point would have been.
    sc.texts.push_back({"roof.paced", width_em * 0.35f, height_em - kBottom - 2.4f, 0.8f, Color{211, 47, 47}, UiText(Str::gpu_roof_paced, lang)});
    sc.texts.push_back({"roof.paced2", width_em * 0.35f, height_em - kBottom - 1.3f, 0.8f, Color{211, 47, 47}, UiText(Str::gpu_roof_paced2, lang)});
  } else if (pl.intensity > 0 && pl.attained_flops > 0) {
    const ScenePoint p = RooflineToScene(pl.intensity, pl.attained_flops, width_em, height_em, ax);
    SceneRect r;
    r.id = "roof.point";
    r.x = p.x - 0.35f, r.y = p.y - 0.35f, r.w = r.h = 0.7f;
    r.fill = Color{211, 47, 47};
    r.border = pal.text;
    r.border_em = 0.06f;
    sc.rects.push_back(std::move(r));
    std::snprintf(buf, sizeof buf, "%s: %.1f FLOP/B, %.1f TFLOP/s = %.0f %% %s", cuda::AlgorithmName(run.algorithm), pl.intensity,
                  pl.attained_flops / 1e12, 100.0 * pl.fraction_of_roof,
                  UiText(pl.memory_bound ? Str::gpu_roof_of_hbm : Str::gpu_roof_of_peak, lang).c_str());
    sc.texts.push_back({"roof.label", std::min(p.x + 0.6f, std::max(kLeft, width_em - 22.0f)), p.y + 0.5f, 0.8f, Color{211, 47, 47}, buf});
  }
  return sc;
}

}  // namespace bw::view
