// Full attention O = softmax(scale · Q Kᵀ + mask) V on whole matrices: the plain reference
// (FlashAttention Algorithm 0), the tiled FlashAttention-2 order (FA-2 Algorithm 1), the tiled
// FlashAttention-1 order (FA-1 Algorithm 1), and the backward pass with recomputation (FA-2
// Algorithm 2) beside a materialising backward (FA-1 Algorithm 3). Every run returns exact integer
// counters (HBM traffic per tensor, SRAM peak, FLOPs, exps, tiles) and, on request, a step trace.
// This is the public API the app, the CLI and the CUDA mirror use; keep it stable.
#pragma once

// [SECTION] Shapes, mask, problem
// [SECTION] Tile sizes (given, or derived from an SRAM size M)
// [SECTION] Options and wrong-merge variants
// [SECTION] Results
// [SECTION] Entry points

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/attention_counters.h"
#include "engine/attention_trace.h"
#include "engine/compare.h"
#include "engine/numerics.h"

namespace bw::engine {

// [SECTION] Shapes, mask, problem ---------------------------------------------------------------

// Row-major double matrix: every input and output of the engine. Float runs convert on entry
// and widen their results back to double on exit.
using AttentionMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using AttentionVector = Eigen::VectorXd;
// 0/1 matrix for explicit masks: 1 = the (query, key) pair takes part, 0 = masked out.
using AttentionMaskMatrix = Eigen::Matrix<std::uint8_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Thrown for a problem or option the engine refuses (shape mismatch, block size 0, …).
class ValidationError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

enum class MaskKind : std::uint8_t { kNone, kCausal, kKeyPadding, kExplicit };

// When N_q ≠ N_k "causal" has two meanings. Query row r may attend key c iff c ≤ r + δ, with
//   top-left     (PyTorch scaled_dot_product_attention is_causal=True):  δ = 0
//   bottom-right (flash-attn ≥ 2.1 causal=True):                          δ = N_k − N_q
// They agree when N_q = N_k. Top-left is the DEFAULT everywhere in Blockwise.
enum class CausalAlignment : std::uint8_t { kTopLeft, kBottomRight };
inline constexpr CausalAlignment kDefaultCausalAlignment = CausalAlignment::kTopLeft;

const char* ToString(MaskKind kind);            // "none", "causal", "key_padding", "explicit"
const char* ToString(CausalAlignment align);    // "top_left", "bottom_right"

// Which (query row r, key c) pairs take part. Masked pairs get logit −∞ (probability exactly 0) and
// contribute nothing, whatever their V holds. A row with no allowed key is "fully masked": every
// path outputs 0 for it, L = −∞, and flags it. "Fully masked" is decided by the mask alone: a row
// whose allowed scores are all −∞ in the working precision is reported as underflow (numerics.h).
struct Mask {
  MaskKind kind = MaskKind::kNone;
  CausalAlignment alignment = kDefaultCausalAlignment;  // kCausal only
  std::vector<std::uint8_t> key_keep;                   // kKeyPadding: length N_k, 1 = key takes part
  AttentionMaskMatrix keep;                             // kExplicit: (N_q, N_k), 1 = pair takes part

  static Mask None() { return {}; }
  static Mask Causal(CausalAlignment a = kDefaultCausalAlignment) { Mask m; m.kind = MaskKind::kCausal; m.alignment = a; return m; }
  static Mask KeyPadding(std::vector<std::uint8_t> keep_keys) { Mask m; m.kind = MaskKind::kKeyPadding; m.key_keep = std::move(keep_keys); return m; }
  static Mask Explicit(AttentionMaskMatrix keep_pairs) { Mask m; m.kind = MaskKind::kExplicit; m.keep = std::move(keep_pairs); return m; }

  // δ of the causal rule above (0 unless kCausal + kBottomRight).
  std::int64_t CausalOffset(std::int64_t n_q, std::int64_t n_k) const;
  // Whether query row r may attend key c in an (N_q, N_k) problem. No bounds checks.
  bool Allows(std::int64_t r, std::int64_t c, std::int64_t n_q, std::int64_t n_k) const;
};

// Inputs. Q: (N_q, d)  K: (N_k, d)  V: (N_k, d_v). Any of N_q, N_k may be 0; d, d_v ≥ 0.
struct AttentionProblem {
  AttentionMatrix Q, K, V;
  std::optional<double> scale;  // default 1/√d (1 when d = 0)
  Mask mask;
  // True when the logits S were given (FromLogits): S is then an input that already lies in HBM.
  // Every forward path reads S (whole, or as S_ij tiles) instead of reading Q and K and computing
  // Q Kᵀ, so no Q or K traffic and no Q Kᵀ FLOPs are counted; the backward paths refuse such a
  // problem (dQ and dK are not defined without Q and K).
  bool logits_given = false;

  std::int64_t n_q() const { return Q.rows(); }
  std::int64_t n_k() const { return K.rows(); }
  std::int64_t d() const { return Q.cols(); }
  std::int64_t d_v() const { return V.cols(); }
  double EffectiveScale() const;

  // Logits given directly (S: (N_q, N_k)): encoded exactly as Q = S, K = I_{N_k}, scale = 1, so
  // every path computes the same numbers, with logits_given set so that the counters count S read
  // from HBM, not the Q and K of the encoding.
  static AttentionProblem FromLogits(const AttentionMatrix& S, const AttentionMatrix& V, Mask mask = Mask::None());
};

// Throws ValidationError naming the field: Q/K column mismatch, K/V row mismatch, mask sizes,
// non-finite scale.
void Validate(const AttentionProblem& p);

// [SECTION] Tile sizes ---------------------------------------------------------------------------

// B_r rows of Q per block (T_r = ⌈N_q / B_r⌉ blocks), B_c rows of K and V per block
// (T_c = ⌈N_k / B_c⌉). The last block of each may be shorter: it is masked, never zero-padded.
struct TileSizes {
  std::int64_t B_r = 0;
  std::int64_t B_c = 0;
  bool operator==(const TileSizes&) const = default;
};

// FlashAttention (Dao et al. 2022) Algorithm 1 line 1, with M the SRAM size in ELEMENTS:
//   B_c = ⌈M / 4d⌉ (K_j, V_j, Q_i, O_i blocks of B_c·d each fill M), B_r = min(⌈M / 4d⌉, d).
struct TileDerivation {
  std::int64_t M = 0;      // SRAM size, elements
  std::int64_t d = 0;
  TileSizes tiles;
  std::vector<std::string> steps;  // the derivation as text, one line per step, with numbers
};
// Throws ValidationError if M < 1 or d < 1.
TileDerivation DeriveTileSizes(std::int64_t M_elements, std::int64_t d);

// Throws ValidationError if B_r < 1 or B_c < 1.
void Validate(const TileSizes& t);

std::int64_t CeilDiv(std::int64_t a, std::int64_t b);

// [SECTION] Options and wrong-merge variants ----------------------------------------------------

enum class Precision : std::uint8_t { kDouble, kFloat };
const char* ToString(Precision p);      // "double", "float"
int ElementBytes(Precision p);          // 8, 4

// The online-softmax merge of a new tile into (m, l, u) — FA-2 Algorithm 1 lines 8–10 — done right,
// and the mistakes the lessons show. α = e^{m−m'} (old max m, new max m'), P̃ = e^{S−m'}.
enum class MergeVariant : std::uint8_t {
  kCorrect,              // l ← α l + rowsum(P̃);  u ← α u + P̃ V_j
  kNoRescale,            // l ← l + rowsum(P̃);    u ← u + P̃ V_j
  kRescaleLOnly,         // l ← α l + rowsum(P̃);  u ← u + P̃ V_j
  kRescaleUOnly,         // l ← l + rowsum(P̃);    u ← α u + P̃ V_j
  kAverageBlockOutputs,  // O = mean over tiles of each tile's own softmax(S_ij) V_j
  kInvertedFactorOnU,    // l ← α l + rowsum(P̃);  u ← (1/α) u + P̃ V_j  (e^{m'−m}: the misprint
                         //   in line 10 of FA-2 Algorithm 1 read literally)
};
const char* ToString(MergeVariant v);  // "correct", "no_rescale", "rescale_l_only", …
inline constexpr MergeVariant kAllMergeVariants[] = {
    MergeVariant::kCorrect, MergeVariant::kNoRescale, MergeVariant::kRescaleLOnly,
    MergeVariant::kRescaleUOnly, MergeVariant::kAverageBlockOutputs, MergeVariant::kInvertedFactorOnU};

struct RunOptions {
  TileSizes tiles;                               // required by the tiled paths; ignored by the reference
  Precision precision = Precision::kDouble;
  MergeVariant merge = MergeVariant::kCorrect;   // RunFlash2 only (others throw unless kCorrect)
  bool record_trace = false;
  int counter_snapshot_every = 256;              // trace: cumulative counters kept every this many events
  int state_snapshots_per_block = 8;             // trace: (m, l, u) kept this many times per Q block
  bool keep_probabilities = false;               // RunReference only: return P (for the heatmap)
  // RunReference only: handed each block of rows of P = softmax(S) as it is formed, in row order
  // (first row, `count` rows of N_k floats, row-major; valid during the call only), so a caller can
  // keep a reduced copy of P without the run returning all of it. Unset: not called.
  std::function<void(std::int64_t first_row, const float* rows, std::int64_t count)> probability_rows;
  // RunFlash2 only: threads that run Q blocks in parallel, as FlashAttention-2 spreads the T_r Q
  // blocks over thread blocks (FA-2 §3.2 "Parallelism"; Algorithm 1's loop over i has no shared
  // state: each Q block owns its Q_i, m, l, u and its rows of O and L). 1 = the calling thread
  // only; 0 = one per hardware thread (std::thread::hardware_concurrency()); never more than T_r.
  // O, L, the counters, the trace and the numerics report are identical for every value: each
  // block's events are kept apart and merged in Q-block order. (FA-1's loop order cannot be split
  // this way: its inner loop over i rewrites O, l, m in HBM for every K/V block; RunFlash1 and the
  // other paths ignore this field and run on the calling thread.)
  int workers = 1;
};

// Independent units of work of a tiled order, i.e. how many workers it can keep busy without
// shared writes: T_r = ⌈N_q / B_r⌉ for the FlashAttention-2 order (one per Q block), 1 for the
// FlashAttention-1 order (its outer loop over K/V blocks updates every row of O each time; FA-1
// parallelises over batch and heads only, FA-2 §3.2). 0 for the other algorithms.
std::int64_t ParallelUnits(Algorithm a, std::int64_t n_q, TileSizes tiles);

// [SECTION] Results ------------------------------------------------------------------------------

struct AttentionResult {
  Algorithm algorithm = Algorithm::kReference;
  Precision precision = Precision::kDouble;
  MergeVariant merge = MergeVariant::kCorrect;
  TileSizes tiles;                           // {0, 0} for the reference
  AttentionMatrix O;                         // (N_q, d_v)
  AttentionVector L;                         // (N_q) logsumexp_c (scale·S_rc), −∞ on fully masked rows
  std::vector<std::uint8_t> row_fully_masked;  // (N_q) 1 = the mask allows no key: O row is 0
  // Every overflow, underflow, infinite score, NaN and out-of-range input of this run, where it
  // happened (numerics.h). Empty when every number of the run is finite and in range.
  NumericsReport numerics;
  // (N_q, N_k) P = softmax(S) as the reference computed it, in float (4 bytes an element), when
  // RunOptions::keep_probabilities was set; empty otherwise.
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> P;
  Counters counters;
  AttentionTrace trace;                      // empty unless RunOptions::record_trace
};

struct BackwardResult {
  Algorithm algorithm = Algorithm::kBackwardRecompute;
  Precision precision = Precision::kDouble;
  TileSizes tiles;
  AttentionMatrix dQ;   // (N_q, d)
  AttentionMatrix dK;   // (N_k, d)
  AttentionMatrix dV;   // (N_k, d_v)
  Counters counters;
  AttentionTrace trace;
};

// [SECTION] Entry points -------------------------------------------------------------------------
// All throw ValidationError on a bad problem or options. Results are deterministic.

// FlashAttention Algorithm 0 ("standard attention"): pass 1 S = scale·QKᵀ written to HBM;
// pass 2 S read, P = softmax(S) written; pass 3 P and V read, O = PV written.
AttentionResult RunReference(const AttentionProblem& p, const RunOptions& opt = {});

// FlashAttention-2 Algorithm 1: outer loop over Q blocks i, inner over K/V blocks j; m, l, u stay
// on chip; O_i and L_i written once per Q block. Fully masked tiles are skipped (and counted).
AttentionResult RunFlash2(const AttentionProblem& p, const RunOptions& opt);

// FlashAttention (v1) Algorithm 1: outer loop over K/V blocks j, inner over Q blocks i; O, l, m live
// in HBM and are read and re-written every inner step. L = m + log l is formed on exit (not counted).
AttentionResult RunFlash1(const AttentionProblem& p, const RunOptions& opt);

// FlashAttention-2 Algorithm 2: dQ, dK, dV from Q, K, V, O, dO (N_q, d_v) and L (N_q), recomputing
// P tile by tile (outer K/V blocks, inner Q blocks). `forward` must hold O and L of this problem.
// Both backward paths throw ValidationError for a problem with logits_given.
BackwardResult RunBackwardRecompute(const AttentionProblem& p, const AttentionResult& forward,
                                    const AttentionMatrix& dO, const RunOptions& opt);

// FlashAttention Algorithm 3 (standard backward): reads the P the reference forward stored, writes
// and re-reads dP and dS (each (N_q, N_k)). The forward itself is run here but not counted.
BackwardResult RunBackwardReference(const AttentionProblem& p, const AttentionMatrix& dO,
                                    const RunOptions& opt = {});

}  // namespace bw::engine
