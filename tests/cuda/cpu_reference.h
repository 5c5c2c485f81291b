// cpu_reference.h — the plain materialising attention in double, the source of truth for the GPU
// tests until (and besides) the engine's own reference (src/engine/attention.h, issue 3).
// Q: (N_q, d)  K: (N_k, d)  V: (N_k, d_v)  S, P: (N_q, N_k)  O: (N_q, d_v), one head at a time.
// Fully masked rows give O = 0, lse = -inf and a flag, as the engine and the kernels do.
#pragma once

#include "cuda/attention_cuda.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace bw::cuda::test {

struct RefOut {
  std::vector<double> o, lse;
  std::vector<std::uint8_t> row_masked;
};

inline bool RefKeep(const Problem& p, int i, int j) {
  switch (p.mask.kind) {
    case MaskKind::None: return true;
    case MaskKind::CausalTopLeft: return j <= i;
    case MaskKind::CausalBottomRight: return j <= i + (p.n_k - p.n_q);
    case MaskKind::KeyPadding: return p.mask.key_keep[j] != 0;
    case MaskKind::Explicit: return p.mask.keep[(size_t)i * p.n_k + j] != 0;
  }
  return true;
}

inline RefOut Reference(const Problem& p) {
  RefOut r;
  r.o.assign((size_t)p.heads * p.n_q * p.d_v, 0.0);
  r.lse.assign((size_t)p.heads * p.n_q, -std::numeric_limits<double>::infinity());
  r.row_masked.assign((size_t)p.heads * p.n_q, 1);
  std::vector<double> s(p.n_k);
  for (int h = 0; h < p.heads; ++h)
    for (int i = 0; i < p.n_q; ++i) {
      // pass 1: S = scale * Q K^T (masked: -inf);  pass 2: P = softmax(S);  pass 3: O = P V
      double m = -std::numeric_limits<double>::infinity();
      for (int j = 0; j < p.n_k; ++j) {
        if (!RefKeep(p, i, j)) { s[j] = m; s[j] = -std::numeric_limits<double>::infinity(); continue; }
        double acc = 0;
        for (int c = 0; c < p.d; ++c)
          acc += (double)p.q[((size_t)h * p.n_q + i) * p.d + c] * (double)p.k[((size_t)h * p.n_k + j) * p.d + c];
        s[j] = acc * p.scale;
        m = std::max(m, s[j]);
      }
      if (m == -std::numeric_limits<double>::infinity()) continue;  // fully masked row
      double l = 0;
      for (int j = 0; j < p.n_k; ++j) { s[j] = std::exp(s[j] - m); l += s[j]; }
      const size_t ri = (size_t)h * p.n_q + i;
      r.lse[ri] = m + std::log(l);
      r.row_masked[ri] = 0;
      for (int j = 0; j < p.n_k; ++j) {
        if (s[j] == 0) continue;
        for (int c = 0; c < p.d_v; ++c) r.o[ri * p.d_v + c] += s[j] / l * (double)p.v[((size_t)h * p.n_k + j) * p.d_v + c];
      }
    }
  return r;
}

// Random problem: entries uniform in (-amp, amp); masks drawn with the given keep probability.
inline Problem RandomProblem(std::mt19937& rng, int n_q, int n_k, int d, int d_v, MaskKind kind, int heads = 1, float amp = 1.f) {
  Problem p;
  p.n_q = n_q; p.n_k = n_k; p.d = d; p.d_v = d_v; p.heads = heads;
  p.scale = 1.f / std::sqrt((float)d);
  std::uniform_real_distribution<float> u(-amp, amp);
  p.q.resize((size_t)heads * n_q * d);
  p.k.resize((size_t)heads * n_k * d);
  p.v.resize((size_t)heads * n_k * d_v);
  for (auto& x : p.q) x = u(rng);
  for (auto& x : p.k) x = u(rng);
  for (auto& x : p.v) x = u(rng);
  p.mask.kind = kind;
  std::bernoulli_distribution keep(0.6);
  if (kind == MaskKind::KeyPadding) {
    p.mask.key_keep.resize(n_k);
    for (auto& x : p.mask.key_keep) x = keep(rng);
  } else if (kind == MaskKind::Explicit) {
    p.mask.keep.resize((size_t)n_q * n_k);
    for (auto& x : p.mask.keep) x = keep(rng);
    for (int i = 0; i < n_q; i += 5)  // every fifth row fully masked
      for (int j = 0; j < n_k; ++j) p.mask.keep[(size_t)i * n_k + j] = 0;
  }
  return p;
}

}  // namespace bw::cuda::test
