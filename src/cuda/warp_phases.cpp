// warp_phases.cpp — the Hopper kernel's warp marks as phase records (hopper_cuda.h; issue 33). Plain C++:
// the conversion is tested on the CPU (tests/cuda/test_warp_phases.cpp).
#include "cuda/hopper_cuda.h"

#include <algorithm>

namespace bw::cuda {

std::vector<WarpPhaseRecord> WarpPhasesFromMarks(const std::vector<HopperWarpCta>& ctas, const std::vector<HopperWarpMark>& marks,
                                                 int cap, int t_r, std::vector<double>* ns_per_cycle) {
  std::vector<WarpPhaseRecord> out;
  if (ns_per_cycle) ns_per_cycle->clear();
  for (size_t c = 0; c < ctas.size(); ++c) {
    const HopperWarpCta& h = ctas[c];
    if (h.clk1 <= h.clk0 || h.gt1 < h.gt0) continue;  // never ran (or no end stamp)
    const double rate = static_cast<double>(h.gt1 - h.gt0) / static_cast<double>(h.clk1 - h.clk0);
    if (ns_per_cycle) ns_per_cycle->push_back(rate);
    const auto ns = [&](std::uint64_t clk) {
      return clk <= h.clk0 ? std::uint64_t{0} : static_cast<std::uint64_t>(static_cast<double>(clk - h.clk0) * rate + 0.5);
    };
    for (int wg = 0; wg < 3; ++wg) {
      const size_t base = (c * 3 + static_cast<size_t>(wg)) * static_cast<size_t>(cap);
      const size_t n = std::min<size_t>(h.count[wg], static_cast<size_t>(cap));
      if (base + n > marks.size()) continue;
      for (size_t k = 0; k + 1 < n; ++k) {
        const HopperWarpMark& a = marks[base + k];
        const HopperWarpMark& b = marks[base + k + 1];
        if (a.phase > kMarkIdle) continue;  // an end mark opens nothing
        WarpPhaseRecord r;
        r.t_start_ns = ns(a.clk);
        r.t_end_ns = std::max(r.t_start_ns, ns(b.clk));
        r.cta = h.cta;
        r.smid = h.smid;
        r.kv_tile = a.j;
        r.q_tile = h.head * static_cast<std::uint32_t>(t_r) + h.q_tile;
        r.warpgroup = static_cast<std::uint8_t>(wg);
        r.phase = static_cast<WarpPhase>(a.phase);
        out.push_back(r);
      }
    }
  }
  return out;
}

}  // namespace bw::cuda
