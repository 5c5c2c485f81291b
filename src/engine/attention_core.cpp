// Small pieces of the attention engine: masks and their tile geometry (which tiles are fully
// masked or fully allowed), problem validation, tile sizes from an SRAM size M (FlashAttention
// Algorithm 1 line 1), names of enums, counter sums and the one place events update counters.
#include <cmath>
#include <sstream>

#include "engine/attention.h"
#include "engine/attention_kernels.h"

namespace bw::engine {

// [SECTION] Names

const char* ToString(MaskKind kind) {
  switch (kind) {
    case MaskKind::kNone: return "none";
    case MaskKind::kCausal: return "causal";
    case MaskKind::kKeyPadding: return "key_padding";
    case MaskKind::kExplicit: return "explicit";
  }
  return "?";
}
const char* ToString(CausalAlignment a) { return a == CausalAlignment::kTopLeft ? "top_left" : "bottom_right"; }
const char* ToString(Precision p) { return p == Precision::kDouble ? "double" : "float"; }
int ElementBytes(Precision p) { return p == Precision::kDouble ? 8 : 4; }
const char* ToString(MergeVariant v) {
  switch (v) {
    case MergeVariant::kCorrect: return "correct";
    case MergeVariant::kNoRescale: return "no_rescale";
    case MergeVariant::kRescaleLOnly: return "rescale_l_only";
    case MergeVariant::kRescaleUOnly: return "rescale_u_only";
    case MergeVariant::kAverageBlockOutputs: return "average_of_block_outputs";
    case MergeVariant::kInvertedFactorOnU: return "inverted_factor_on_u";
  }
  return "?";
}
const char* ToString(Algorithm a) {
  switch (a) {
    case Algorithm::kReference: return "reference";
    case Algorithm::kFlash2: return "flash2";
    case Algorithm::kFlash1: return "flash1";
    case Algorithm::kBackwardRecompute: return "backward_recompute";
    case Algorithm::kBackwardReference: return "backward_reference";
  }
  return "?";
}
const char* ToString(Tensor t) {
  static constexpr const char* kNames[] = {"Q", "K", "V", "S", "P", "O", "L", "m",
                                           "l", "D", "dO", "dP", "dS", "dQ", "dK", "dV"};
  const int i = static_cast<int>(t);
  return i >= 0 && i < kTensorCount ? kNames[i] : "-";
}

// [SECTION] Mask and problem

std::int64_t Mask::CausalOffset(std::int64_t n_q, std::int64_t n_k) const {
  return kind == MaskKind::kCausal && alignment == CausalAlignment::kBottomRight ? n_k - n_q : 0;
}

bool Mask::Allows(std::int64_t r, std::int64_t c, std::int64_t n_q, std::int64_t n_k) const {
  switch (kind) {
    case MaskKind::kNone: return true;
    case MaskKind::kCausal: return c <= r + CausalOffset(n_q, n_k);
    case MaskKind::kKeyPadding: return key_keep[static_cast<std::size_t>(c)] != 0;
    case MaskKind::kExplicit: return keep(r, c) != 0;
  }
  return false;
}

double AttentionProblem::EffectiveScale() const {
  if (scale) return *scale;
  return d() > 0 ? 1.0 / std::sqrt(static_cast<double>(d())) : 1.0;
}

AttentionProblem AttentionProblem::FromLogits(const AttentionMatrix& S, const AttentionMatrix& V, Mask mask) {
  AttentionProblem p;
  p.Q = S;
  p.K = AttentionMatrix::Identity(S.cols(), S.cols());
  p.V = V;
  p.scale = 1.0;
  p.mask = std::move(mask);
  p.logits_given = true;
  return p;
}

void Validate(const AttentionProblem& p) {
  auto fail = [](const std::string& s) { throw ValidationError(s); };
  if (p.K.cols() != p.Q.cols())
    fail("K: has " + std::to_string(p.K.cols()) + " columns, Q has " + std::to_string(p.Q.cols()) + " (both must be d)");
  if (p.V.rows() != p.K.rows())
    fail("V: has " + std::to_string(p.V.rows()) + " rows, K has " + std::to_string(p.K.rows()) + " (both must be N_k)");
  if (p.scale && !std::isfinite(*p.scale)) fail("scale: must be finite");
  switch (p.mask.kind) {
    case MaskKind::kKeyPadding:
      if (static_cast<std::int64_t>(p.mask.key_keep.size()) != p.n_k())
        fail("mask.key_keep: has " + std::to_string(p.mask.key_keep.size()) + " entries, N_k = " + std::to_string(p.n_k()));
      break;
    case MaskKind::kExplicit:
      if (p.mask.keep.rows() != p.n_q() || p.mask.keep.cols() != p.n_k())
        fail("mask.keep: is " + std::to_string(p.mask.keep.rows()) + "x" + std::to_string(p.mask.keep.cols()) +
             ", must be N_q x N_k = " + std::to_string(p.n_q()) + "x" + std::to_string(p.n_k()));
      break;
    default: break;
  }
}

// [SECTION] Tile sizes

std::int64_t CeilDiv(std::int64_t a, std::int64_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }

std::int64_t ParallelUnits(Algorithm a, std::int64_t n_q, TileSizes tiles) {
  if (a == Algorithm::kFlash2) return CeilDiv(n_q, tiles.B_r);
  if (a == Algorithm::kFlash1) return 1;
  return 0;
}

void Validate(const TileSizes& t) {
  if (t.B_r < 1) throw ValidationError("B_r: block size must be at least 1, got " + std::to_string(t.B_r));
  if (t.B_c < 1) throw ValidationError("B_c: block size must be at least 1, got " + std::to_string(t.B_c));
}

TileDerivation DeriveTileSizes(std::int64_t M, std::int64_t d) {
  if (M < 1) throw ValidationError("M: SRAM size must be at least 1 element, got " + std::to_string(M));
  if (d < 1) throw ValidationError("d: head dimension must be at least 1 to derive tile sizes");
  TileDerivation t;
  t.M = M;
  t.d = d;
  const std::int64_t q = CeilDiv(M, 4 * d);
  t.tiles = {std::min(q, d), q};
  auto s = [](std::int64_t v) { return std::to_string(v); };
  t.steps = {
      "FlashAttention Algorithm 1, line 1: SRAM holds M = " + s(M) + " elements; d = " + s(d),
      "K_j, V_j (B_c x d each) and Q_i, O_i (B_r x d each) should fit: 4 blocks of about M/(4d) rows",
      "B_c = ceil(M / 4d) = ceil(" + s(M) + " / " + s(4 * d) + ") = " + s(q),
      "B_r = min(ceil(M / 4d), d) = min(" + s(q) + ", " + s(d) + ") = " + s(t.tiles.B_r) +
          "  (B_r <= d keeps the B_r x B_c tile of S within M: B_r*B_c <= d*M/(4d) = M/4)",
  };
  return t;
}

// [SECTION] Counters

std::int64_t Counters::TotalReadElements() const {
  std::int64_t s = 0;
  for (auto v : hbm_read_elements) s += v;
  return s;
}
std::int64_t Counters::TotalWriteElements() const {
  std::int64_t s = 0;
  for (auto v : hbm_write_elements) s += v;
  return s;
}

std::string Describe(const Counters& c) {
  std::ostringstream os;
  for (int t = 0; t < kTensorCount; ++t) {
    const auto r = c.hbm_read_elements[t], w = c.hbm_write_elements[t];
    if (r) os << ToString(Tensor(t)) << " reads: " << r << " elements (" << r * c.element_bytes << " bytes)\n";
    if (w) os << ToString(Tensor(t)) << " writes: " << w << " elements (" << w * c.element_bytes << " bytes)\n";
  }
  os << "HBM total: " << c.TotalHbmElements() << " elements (" << c.TotalHbmBytes() << " bytes)\n"
     << "SRAM peak: " << c.sram_peak_bytes << " bytes\n"
     << "HBM scratch: " << c.hbm_scratch_bytes << " bytes\n"
     << "matmul FLOPs: " << c.matmul_flops << "\n"
     << "exp count: " << c.exp_count << "\n"
     << "tiles computed: " << c.tiles_computed << ", skipped: " << c.tiles_skipped << "\n";
  return os.str();
}

void ApplyEvent(const AttentionEvent& e, Counters& c) {
  switch (e.kind) {
    case EventKind::kRead: c.hbm_read_elements[static_cast<int>(e.tensor)] += e.elements; break;
    case EventKind::kWrite: c.hbm_write_elements[static_cast<int>(e.tensor)] += e.elements; break;
    case EventKind::kComputeS:
    case EventKind::kComputeGrads: ++c.tiles_computed; break;
    case EventKind::kSkipTile: ++c.tiles_skipped; break;
    default: break;
  }
  c.matmul_flops += e.flops;
  c.exp_count += e.exps;
  c.sram_peak_bytes = std::max(c.sram_peak_bytes, e.sram_bytes);
}

// [SECTION] Mask geometry

namespace detail {

MaskGeometry::MaskGeometry(const Mask& mask, std::int64_t n_q, std::int64_t n_k)
    : mask_(mask), n_q_(n_q), n_k_(n_k), offset_(mask.CausalOffset(n_q, n_k)) {
  if (mask.kind == MaskKind::kKeyPadding) {
    kept_prefix_.assign(static_cast<std::size_t>(n_k + 1), 0);
    for (std::int64_t c = 0; c < n_k; ++c)
      kept_prefix_[c + 1] = kept_prefix_[c] + (mask.key_keep[static_cast<std::size_t>(c)] ? 1 : 0);
  }
}

bool MaskGeometry::TileFullyMasked(std::int64_t r0, std::int64_t r1, std::int64_t c0, std::int64_t c1) const {
  switch (mask_.kind) {
    case MaskKind::kNone: return false;
    case MaskKind::kCausal: return c0 > (r1 - 1) + offset_;  // even the last row cannot see the first key
    case MaskKind::kKeyPadding: return kept_prefix_[c1] == kept_prefix_[c0];
    case MaskKind::kExplicit:
      for (std::int64_t r = r0; r < r1; ++r)
        for (std::int64_t c = c0; c < c1; ++c)
          if (mask_.keep(r, c)) return false;
      return true;
  }
  return false;
}

bool MaskGeometry::TileFullyAllowed(std::int64_t r0, std::int64_t r1, std::int64_t c0, std::int64_t c1) const {
  switch (mask_.kind) {
    case MaskKind::kNone: return true;
    case MaskKind::kCausal: return (c1 - 1) <= r0 + offset_;  // even the first row sees the last key
    case MaskKind::kKeyPadding: return kept_prefix_[c1] - kept_prefix_[c0] == c1 - c0;
    case MaskKind::kExplicit:
      for (std::int64_t r = r0; r < r1; ++r)
        for (std::int64_t c = c0; c < c1; ++c)
          if (!mask_.keep(r, c)) return false;
      return true;
  }
  return true;
}

}  // namespace detail
}  // namespace bw::engine
