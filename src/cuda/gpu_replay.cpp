// gpu_replay.cpp — GpuReplay: a recorded run's tile records released in end-time order against a
// caller-supplied clock (see gpu_replay.h). Deterministic: the same elapsed times give the same records.
#include "cuda/gpu_replay.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace bw::cuda {

GpuReplay::GpuReplay(RunSummary run, double slow_down) : run_(std::move(run)), slow_down_(slow_down) {
  if (!(slow_down_ > 0)) throw std::invalid_argument("GpuReplay: slow_down must be > 0");
  order_.resize(run_.tiles.size());
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  std::stable_sort(order_.begin(), order_.end(),
                   [&](std::size_t a, std::size_t b) { return run_.tiles[a].t_end_ns < run_.tiles[b].t_end_ns; });
  if (!run_.tiles.empty()) {
    t0_ = run_.tiles.front().t_start_ns;
    for (const auto& t : run_.tiles) t0_ = std::min(t0_, t.t_start_ns);
  }
}

std::vector<TileRecord> GpuReplay::Poll(double elapsed_s) {
  std::vector<TileRecord> out;
  const double gpu_ns = elapsed_s / slow_down_ * 1e9;
  while (next_ < order_.size()) {
    const TileRecord& r = run_.tiles[order_[next_]];
    if (static_cast<double>(r.t_end_ns - t0_) > gpu_ns) break;
    out.push_back(r);
    ++next_;
  }
  return out;
}

double GpuReplay::DurationSeconds() const {
  if (order_.empty()) return 0;
  return static_cast<double>(run_.tiles[order_.back()].t_end_ns - t0_) * 1e-9 * slow_down_;
}

}  // namespace bw::cuda
