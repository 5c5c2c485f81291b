// Exact integer counters of one attention run: HBM reads and writes per tensor (in ELEMENTS; the
// *Bytes() helpers multiply by element_bytes), SRAM peak (BYTES), matmul FLOPs, exp evaluations and
// tiles computed / skipped. Every path counts through the same recorder, so the counters, the trace
// and the analytic formulas (attention_formulas.h) can be compared as integers.
// Source of the IO model: FlashAttention (Dao et al. 2022) §3.2 and Theorem 2.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace bw::engine {

enum class Algorithm : std::uint8_t { kReference, kFlash2, kFlash1, kBackwardRecompute, kBackwardReference };
const char* ToString(Algorithm a);  // "reference", "flash2", "flash1", "backward_recompute", "backward_reference"

// Tensors that live in HBM. m and l are FA-1's HBM-resident row statistics; D = rowsum(dO ∘ O)
// is FA-2 backward's preprocessing result; dP and dS are the materialising backward's N_q×N_k
// intermediates.
enum class Tensor : std::uint8_t { kQ, kK, kV, kS, kP, kO, kL, km, kl, kD, kdO, kdP, kdS, kdQ, kdK, kdV, kCount };
inline constexpr int kTensorCount = static_cast<int>(Tensor::kCount);
const char* ToString(Tensor t);  // "Q", "K", …, "m", "l", "D", "dO", …

struct Counters {
  int element_bytes = 8;  // 8 (double) or 4 (float): bytes per element for every tensor

  std::array<std::int64_t, kTensorCount> hbm_read_elements{};   // ELEMENTS read from HBM
  std::array<std::int64_t, kTensorCount> hbm_write_elements{};  // ELEMENTS written to HBM

  // BYTES. The most on-chip memory live at once under the algorithm's model (tiles of Q, K, V,
  // S/P, and m, l, u). The reference (Algorithm 0) names no tiles: 0 there.
  std::int64_t sram_peak_bytes = 0;
  // BYTES. Intermediate tensors held in HBM beyond the inputs and the outputs (O, L, dQ, dK, dV):
  // S and P for the reference, D for FA-2 backward, P, dP, dS for the materialising backward.
  std::int64_t hbm_scratch_bytes = 0;

  // 2·(rows)·(cols)·(inner) per matrix product actually performed; skipped tiles cost nothing.
  std::int64_t matmul_flops = 0;
  // exp evaluations: every entry of every S tile computed (masked entries included: a kernel
  // evaluates e^{−∞}) plus the per-row rescale factors.
  std::int64_t exp_count = 0;
  std::int64_t tiles_computed = 0;
  std::int64_t tiles_skipped = 0;  // fully masked tiles: nothing loaded, nothing computed

  std::int64_t Reads(Tensor t) const { return hbm_read_elements[static_cast<int>(t)]; }
  std::int64_t Writes(Tensor t) const { return hbm_write_elements[static_cast<int>(t)]; }
  std::int64_t ReadBytes(Tensor t) const { return Reads(t) * element_bytes; }
  std::int64_t TotalReadElements() const;
  std::int64_t TotalWriteElements() const;
  std::int64_t TotalHbmElements() const { return TotalReadElements() + TotalWriteElements(); }
  std::int64_t TotalHbmBytes() const { return TotalHbmElements() * element_bytes; }

  bool operator==(const Counters&) const = default;
};

// One line per non-zero field, e.g. "K reads: 131072 elements (524288 bytes)". For messages.
std::string Describe(const Counters& c);

}  // namespace bw::engine
