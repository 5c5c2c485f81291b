// engine_adapter.cpp — conversions between the engine's problem/counters and the CUDA backend's.
// The GPU kernels count exactly what the engine's RunReference (Algorithm 0) and RunFlash2
// (FA-2 Algorithm 1) count per tensor; CompareTraffic says where they differ, if anywhere.
#include "cuda/engine_adapter.h"

#include <limits>
#include <sstream>
#include <stdexcept>

namespace bw::cuda {

namespace {
std::vector<float> ToFloat(const engine::AttentionMatrix& m) {
  std::vector<float> out((size_t)m.rows() * m.cols());
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) out[(size_t)r * m.cols() + c] = static_cast<float>(m(r, c));
  return out;
}
int ToInt(std::int64_t v, const char* what) {
  if (v < 0 || v > std::numeric_limits<int>::max()) throw std::invalid_argument(std::string(what) + " does not fit an int");
  return static_cast<int>(v);
}
}  // namespace

Problem FromEngine(const engine::AttentionProblem& ep) {
  engine::Validate(ep);
  Problem p;
  p.n_q = ToInt(ep.n_q(), "N_q");
  p.n_k = ToInt(ep.n_k(), "N_k");
  p.d = ToInt(ep.d(), "d");
  p.d_v = ToInt(ep.d_v(), "d_v");
  p.heads = 1;
  p.scale = static_cast<float>(ep.EffectiveScale());
  p.q = ToFloat(ep.Q);
  p.k = ToFloat(ep.K);
  p.v = ToFloat(ep.V);
  switch (ep.mask.kind) {
    case engine::MaskKind::kNone: p.mask.kind = MaskKind::None; break;
    case engine::MaskKind::kCausal:
      p.mask.kind = ep.mask.alignment == engine::CausalAlignment::kTopLeft ? MaskKind::CausalTopLeft : MaskKind::CausalBottomRight;
      break;
    case engine::MaskKind::kKeyPadding:
      p.mask.kind = MaskKind::KeyPadding;
      p.mask.key_keep = ep.mask.key_keep;
      break;
    case engine::MaskKind::kExplicit:
      p.mask.kind = MaskKind::Explicit;
      p.mask.keep.assign(ep.mask.keep.data(), ep.mask.keep.data() + ep.mask.keep.size());  // row-major (N_q, N_k)
      break;
  }
  return p;
}

Tiling FromEngine(const engine::TileSizes& t) { return Tiling{ToInt(t.B_r, "B_r"), ToInt(t.B_c, "B_c")}; }

engine::Counters ToEngine(const Counters& c, Algorithm a) {
  using engine::Tensor;
  engine::Counters e;
  e.element_bytes = (a == Algorithm::TensorCoreBf16 || a == Algorithm::TensorCoreFp16) ? 2 : 4;
  auto put = [&](Tensor t, const TensorTraffic& tt) {
    e.hbm_read_elements[static_cast<int>(t)] = tt.read_elems;
    e.hbm_write_elements[static_cast<int>(t)] = tt.write_elems;
  };
  put(Tensor::kQ, c.q);
  put(Tensor::kK, c.k);
  put(Tensor::kV, c.v);
  put(Tensor::kS, c.s);
  put(Tensor::kP, c.p);
  put(Tensor::kO, c.o);
  put(Tensor::kL, c.l);
  e.tiles_computed = c.tiles_total - c.tiles_skipped;
  e.tiles_skipped = c.tiles_skipped;
  return e;
}

std::string CompareTraffic(const engine::Counters& gpu, const engine::Counters& eng) {
  std::ostringstream os;
  for (int t = 0; t < engine::kTensorCount; ++t) {
    const char* name = engine::ToString(static_cast<engine::Tensor>(t));
    if (gpu.hbm_read_elements[t] != eng.hbm_read_elements[t])
      os << name << " reads: gpu " << gpu.hbm_read_elements[t] << ", engine " << eng.hbm_read_elements[t] << "\n";
    if (gpu.hbm_write_elements[t] != eng.hbm_write_elements[t])
      os << name << " writes: gpu " << gpu.hbm_write_elements[t] << ", engine " << eng.hbm_write_elements[t] << "\n";
  }
  if (gpu.tiles_computed != eng.tiles_computed)
    os << "tiles computed: gpu " << gpu.tiles_computed << ", engine " << eng.tiles_computed << "\n";
  if (gpu.tiles_skipped != eng.tiles_skipped)
    os << "tiles skipped: gpu " << gpu.tiles_skipped << ", engine " << eng.tiles_skipped << "\n";
  return os.str();
}

}  // namespace bw::cuda
