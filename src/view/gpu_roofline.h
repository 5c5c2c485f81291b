// The roofline of a GPU run (issue 15): where the kernel sits against the device's peaks, so the
// deliberately simple fp32 teaching kernel and the tensor-core kernel are placed honestly.
// Model (Williams, Waterman, Patterson 2009): attainable FLOP/s = min(compute peak, intensity × HBM
// bandwidth), intensity = FLOPs / HBM bytes. FLOPs: 4·N_q·N_k·d·heads, halved for causal (the run's
// TFLOP/s figure); bytes: the run's modelled HBM traffic (its counters; K/V re-reads that hit L2 count
// as HBM, so the point is, if anything, placed left of where DRAM bytes would put it).
// Scene: log–log axes in a width × height em box; ids "roof.hbm", "roof.fp32", "roof.tensor" (roof
// segments drawn as thin rects), "roof.point" (the kernel), texts "roof.label", "roof.x", "roof.y".
// A slowed-down run (pace_ns > 0) gets no point: text "roof.paced" says why (its time is the pacing's).
#pragma once

#include <string>

#include "cuda/gpu_types.h"
#include "view/scene.h"

namespace bw::view {

struct RooflinePlacement {
  double intensity = 0;         // FLOP per byte
  double attained_flops = 0;    // FLOP/s of the run
  double roof_flops = 0;        // min(compute peak for its algorithm, intensity × bandwidth)
  double ridge = 0;             // intensity where its compute roof meets the bandwidth roof
  bool memory_bound = false;    // intensity < ridge
  double fraction_of_roof = 0;  // attained / roof (0..1)
  double fraction_of_peak = 0;  // attained / compute peak of its algorithm
};
RooflinePlacement PlaceOnRoofline(const cuda::RunSummary& run, const cuda::DevicePeaks& peaks);

// Axis ranges (log10): intensity 10^-1 .. 10^4 FLOP/byte, throughput 10^11 .. 10^16 FLOP/s.
struct RooflineAxes {
  double log_x_min = -1, log_x_max = 4, log_y_min = 11, log_y_max = 16;
};
// Where (intensity, flops) lands in the scene (em from the top-left), for the painter and the tests.
ScenePoint RooflineToScene(double intensity, double flops, float width_em, float height_em, const RooflineAxes& ax = {});

Scene BuildRooflineScene(const cuda::RunSummary& run, const cuda::DevicePeaks& peaks, float width_em, float height_em,
                         const std::string& lang, const Palette& palette);

}  // namespace bw::view
