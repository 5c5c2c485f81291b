// gpu_model.cpp — the traffic model the CUDA kernels count, and the tile classification they share,
// in plain C++ (built with or without CUDA, so the app and tests can predict without a GPU).
// Source: FlashAttention-2 (Dao 2023) Algorithm 1 lines 4, 6, 12, 13 for the tiled kernels;
// FlashAttention (Dao et al. 2022) Algorithm 0 for the materialising path.
#include "cuda/attention_cuda.h"
#include "cuda/hopper_cuda.h"

#include <algorithm>
#include <stdexcept>

namespace bw::cuda {

const char* AlgorithmName(Algorithm a) {
  switch (a) {
    case Algorithm::Materialising: return "materialising_fp32";
    case Algorithm::TiledFp32: return "tiled_fa2_fp32";
    case Algorithm::TensorCoreBf16: return "tensor_core_bf16";
    case Algorithm::TensorCoreFp16: return "tensor_core_fp16";
  }
  return "?";
}

const char* MaskKindName(MaskKind k) {
  switch (k) {
    case MaskKind::None: return "none";
    case MaskKind::CausalTopLeft: return "causal_top_left";
    case MaskKind::CausalBottomRight: return "causal_bottom_right";
    case MaskKind::KeyPadding: return "key_padding";
    case MaskKind::Explicit: return "explicit";
  }
  return "?";
}

namespace {
bool KeepHost(const Problem& p, int i, int j) {
  switch (p.mask.kind) {
    case MaskKind::None: return true;
    case MaskKind::CausalTopLeft: return j <= i;
    case MaskKind::CausalBottomRight: return j <= i + (p.n_k - p.n_q);
    case MaskKind::KeyPadding: return p.mask.key_keep[j] != 0;
    case MaskKind::Explicit: return p.mask.keep[(size_t)i * p.n_k + j] != 0;
  }
  return true;
}
}  // namespace

std::vector<std::uint8_t> ClassifyTiles(const Problem& p, const Tiling& t) {
  if (t.b_r < 1 || t.b_c < 1) throw std::invalid_argument("ClassifyTiles: B_r and B_c must be >= 1");
  if (p.mask.kind == MaskKind::KeyPadding && (int)p.mask.key_keep.size() != p.n_k)
    throw std::invalid_argument("key padding mask needs N_k entries");
  if (p.mask.kind == MaskKind::Explicit && p.mask.keep.size() != (size_t)p.n_q * p.n_k)
    throw std::invalid_argument("explicit mask needs N_q*N_k entries");
  const int t_r = (p.n_q + t.b_r - 1) / t.b_r, t_c = (p.n_k + t.b_c - 1) / t.b_c;
  std::vector<std::uint8_t> cls((size_t)t_r * t_c);
  for (int i = 0; i < t_r; ++i)
    for (int j = 0; j < t_c; ++j) {
      const int r0 = i * t.b_r, r1 = std::min(p.n_q, r0 + t.b_r), c0 = j * t.b_c, c1 = std::min(p.n_k, c0 + t.b_c);
      long long kept = 0;
      for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c) kept += KeepHost(p, r, c) ? 1 : 0;
      const bool tail = (r1 - r0) < t.b_r || (c1 - c0) < t.b_c;
      cls[(size_t)i * t_c + j] = kept == 0 ? 0 : (kept == (long long)(r1 - r0) * (c1 - c0) && !tail) ? 1 : 2;
    }
  return cls;
}

namespace {
// FlashAttention-2 Algorithm 1's traffic for tiling t: Q once, K_j and V_j once per (i, j) tile that is not
// fully masked, O and L once; `c` brings rows_fully_masked.
Counters TiledCounters(const Problem& p, const Tiling& t, int d, int d_v, int eb, Counters c) {
  const long long h = p.heads;
  auto set = [](TensorTraffic& tt, long long re, long long we, int eb) {
    tt.read_elems = re; tt.read_bytes = re * eb; tt.write_elems = we; tt.write_bytes = we * eb;
  };
  const long long masked = c.rows_fully_masked;
  c = Counters{};
  c.rows_fully_masked = masked;
  const auto cls = ClassifyTiles(p, t);
  const int t_r = (p.n_q + t.b_r - 1) / t.b_r, t_c = (p.n_k + t.b_c - 1) / t.b_c;
  long long k_el = 0, v_el = 0, skipped = 0;
  for (int i = 0; i < t_r; ++i)
    for (int j = 0; j < t_c; ++j) {
      if (cls[(size_t)i * t_c + j] == 0) { ++skipped; continue; }
      const long long c_j = std::min(t.b_c, p.n_k - j * t.b_c);
      k_el += c_j * d;
      v_el += c_j * d_v;
    }
  set(c.q, h * p.n_q * d, 0, eb);
  set(c.k, h * k_el, 0, eb);
  set(c.v, h * v_el, 0, eb);
  set(c.o, 0, h * p.n_q * d_v, eb);
  set(c.l, 0, h * p.n_q, 4);
  c.tiles_total = h * t_r * t_c;
  c.tiles_skipped = h * skipped;
  return c;
}
}  // namespace

Counters PredictCounters(const Problem& p, Algorithm a, const Tiling& t_in) {
  Counters c;
  const long long h = p.heads;
  // fully masked rows
  long long masked_rows = 0;
  for (int i = 0; i < p.n_q; ++i) {
    bool any = false;
    for (int j = 0; j < p.n_k && !any; ++j) any = KeepHost(p, i, j);
    masked_rows += any ? 0 : 1;
  }
  c.rows_fully_masked = masked_rows * h;
  auto set = [](TensorTraffic& tt, long long re, long long we, int eb) {
    tt.read_elems = re; tt.read_bytes = re * eb; tt.write_elems = we; tt.write_bytes = we * eb;
  };
  if (a == Algorithm::Materialising) {
    const long long nn = (long long)p.n_q * p.n_k;
    set(c.q, h * p.n_q * p.d, 0, 4);
    set(c.k, h * p.n_k * p.d, 0, 4);
    set(c.s, h * nn, h * nn, 4);
    set(c.p, h * nn, h * nn, 4);
    set(c.v, h * p.n_k * p.d_v, 0, 4);
    set(c.o, 0, h * p.n_q * p.d_v, 4);
    // L is not part of Algorithm 0's traffic (the engine's RunReference counts none); the kernel
    // writes it only when asked for checking (RunMaterialising), outside the counted model.
    return c;
  }
  const bool tc = (a == Algorithm::TensorCoreBf16 || a == Algorithm::TensorCoreFp16);
  const Tiling t = tc ? TensorCoreTiling(p.mask.kind) : t_in;
  const int d = tc ? TensorCorePadD(std::max(p.d, p.d_v)) : p.d, d_v = tc ? d : p.d_v, eb = tc ? 2 : 4;
  return TiledCounters(p, t, d, d_v, eb, c);
}

Counters PredictHopperCounters(const Problem& p) {
  Counters c = PredictCounters(p, Algorithm::Materialising, Tiling{});  // for rows_fully_masked only
  const int d = HopperPadD(std::max(p.d, p.d_v));
  return TiledCounters(p, kHopperTiling, d, d, 2, c);
}


}  // namespace bw::cuda

namespace bw::cuda {

bool PeaksFor(const std::string& device_name, DevicePeaks* out) {
  // Datasheet figures (NVIDIA H100/H200 Tensor Core GPU datasheets, SXM parts, dense): see gpu_types.h.
  static const DevicePeaks kKnown[] = {
      {"NVIDIA H200", 4.8e12, 989e12, 67e12},
      {"NVIDIA H100 80GB HBM3", 3.35e12, 989e12, 67e12},
  };
  for (const auto& k : kKnown)
    if (device_name == k.name) {
      if (out) *out = k;
      return true;
    }
  return false;
}

double RunFlops(const RunSummary& r) {
  // 4 N_q N_k d per head (2 for Q K^T, 2 for P V), halved for causal: the same count as FlopsOf (host.cu)
  double f = 2.0 * r.n_q * (double)r.n_k * (r.d + r.d_v) * r.heads;
  if (r.mask == MaskKind::CausalTopLeft || r.mask == MaskKind::CausalBottomRight) f *= 0.5;
  return f;
}

double RunIntensity(const RunSummary& r) {
  const double bytes = static_cast<double>(r.counters.hbm_read_bytes() + r.counters.hbm_write_bytes());
  return bytes > 0 ? RunFlops(r) / bytes : 0.0;
}

}  // namespace bw::cuda
