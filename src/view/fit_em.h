// fit_em.h — the scale a scene laid out for the floors will be fitted at, for builders whose sizes in em
// depend on that scale (a line at the floors is a fixed number of pixels: the fewer pixels per em, the more
// em it takes). Used by the ring and decoding diagrams (ring_scene.cpp, decode_scene.cpp).
#pragma once

namespace bw::view {

// The largest pixels per em in [1, 400] at which the scene `dims_at(em_px)` (anything with W and H, in
// em) fits a `width_px` × `height_px` box, found by bisection (both sides grow in px with the scale).
template <class DimsAt>
float LargestFittingEmPx(DimsAt&& dims_at, float width_px, float height_px) {
  float lo = 1, hi = 400;
  for (int i = 0; i < 40; ++i) {
    const float mid = 0.5f * (lo + hi);
    const auto m = dims_at(mid);
    (m.W * mid <= width_px && m.H * mid <= height_px ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace bw::view
