// Split-KV decoding: one new query against a long KV cache, the cache cut into S splits that run
// side by side (on a GPU, one thread block each), each keeping its own (m, l, u) and writing a
// partial output O_s = u_s / l_s with its log-sum-exp lse_s = m_s + ln l_s; a combine step then
// merges the splits. The combine is the same merge as the 2,1,4 lesson's, with splits in place of
// blocks: O = Σ_s e^{lse_s − lse} O_s, lse = ln Σ_s e^{lse_s} — never the mean of the O_s.
// Sources: Flash-Decoding (Dao, Haziza, Massa, Sizov, 2023, "Flash-Decoding for long-context
// inference"): split the keys, compute each split's partial output and lse, rescale and sum;
// FlashAttention-2 (Dao 2023) Algorithm 1 lines 6–12 for each split's inner loop; PagedAttention
// (Kwon et al. 2023, §4.1) for the block table of a paged cache.
//
// Shapes: one query row of width d (the key width, counted only: the scores are inputs), N keys,
// values N × d_v. Units: counters are ELEMENTS (bytes come from SplitKvCounters::Bytes).
// Errors: RunSplitKv throws std::invalid_argument naming the field ("splits", "paged.block_table",
// or SingleQueryProblem's fields) and the reason.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/single_query.h"

namespace bw::engine {

// A paged KV cache: the keys are cut into pages of page_size positions; logical page p lives at
// physical page block_table[p] of a pool of physical_pages pages (PagedAttention). The splits read
// K and V through the table, one table entry (an int32) per page they touch.
struct PagedCache {
  int page_size = 16;             // positions per page, ≥ 1
  std::vector<int> block_table;   // ⌈N / page_size⌉ distinct entries in [0, physical_pages)
  int physical_pages = 0;         // pool size, ≥ every entry + 1
};

struct SplitKvProblem {
  // The whole cache as one query row: scores (weights or logits), values, the B_c tiles as
  // block_sizes, the softmax mode, and the exact copies when the weights are integers.
  SingleQueryProblem query;
  // Tiles per split, in key order, each ≥ 1, summing to query.block_sizes.size().
  std::vector<int> split_tiles;
  int d = 0;                       // key width in elements (q and each K row); 0 means d_v
  std::optional<PagedCache> paged;
};

// The combines a kernel can get wrong, computed beside the right one.
enum class CombineVariant : std::uint8_t {
  kCorrect,            // O = Σ e^{m_s} l_s O_s / Σ e^{m_s} l_s  (weights e^{lse_s})
  kMeanOfSplitOutputs, // O = mean of O_s                         (the 65/3 mistake, one scale up)
  kNoRescale,          // O = Σ u_s / Σ l_s: each split's own max shift never undone (e^{m_s} dropped)
  kMaxOnly,            // weights e^{m_s}: the lse taken as m_s, its ln l_s term forgotten
};
const char* ToString(CombineVariant v);  // "correct", "mean_of_split_outputs", "no_rescale", "max_only"
inline constexpr CombineVariant kWrongCombines[] = {CombineVariant::kMeanOfSplitOutputs, CombineVariant::kNoRescale,
                                                    CombineVariant::kMaxOnly};

// HBM traffic in ELEMENTS. Per split: q read once (d), its K rows (n_s·d) and V rows (n_s·d_v), its
// block-table entries (paged only), the partial O_s (d_v) and lse_s (1) written. Combine: every O_s
// and lse_s read back, O (d_v) written.
struct SplitKvCounters {
  std::int64_t q_reads = 0, k_reads = 0, v_reads = 0, table_reads = 0;
  std::int64_t partial_o_writes = 0, lse_writes = 0;      // the splits' outputs
  std::int64_t partial_o_reads = 0, lse_reads = 0;        // the combine's inputs
  std::int64_t o_writes = 0;
  SplitKvCounters& operator+=(const SplitKvCounters& o);
  bool operator==(const SplitKvCounters&) const = default;
  // Bytes with kv_bytes per q/K/V/O element (2 for bf16), 4 per partial O, lse (fp32) and table entry.
  std::int64_t Bytes(int kv_bytes) const;
};

// One split: its keys, its FA-2 inner loop (a SingleQueryRun over its tiles, with its own trace,
// states and numerics report), and what it writes.
struct SplitResult {
  int split = 0;                 // 1-based
  int begin = 0, end = 0;        // key positions [begin, end)
  int first_tile = 0, tiles = 0; // 0-based index of its first tile in query.block_sizes; tile count
  SingleQueryRun run;            // positions renumbered from 0 inside the split
  SoftmaxState state;            // (m_s, l_s, u_s)
  Eigen::VectorXd output;        // O_s = u_s / l_s (0 when the split is empty)
  double lse = 0;                // m_s + ln l_s (stable) or ln l_s (raw); −∞ for an empty split
  std::vector<int> physical_pages;  // paged only: pages read, in order
  SplitKvCounters counters;
  std::optional<ExactState> exact_state;
  std::optional<std::vector<Rational>> exact_output;
};

// The combine merges split s into the running state (the same merge as a block's).
struct CombineStep {
  int split = 0;
  SoftmaxState before, after;
  MergeFactors factors;
  Eigen::VectorXd output_so_far;
  struct Exact { ExactState before, after; Rational alpha, beta; std::vector<Rational> output_so_far; };
  std::optional<Exact> exact;
};

struct WrongCombine {
  CombineVariant variant;
  Eigen::VectorXd output;
  std::optional<std::vector<Rational>> exact;
};

// Trace, as the GPU runs it: every split's r-th tile at the same step.
//   start; load:r and update:r for r = 1 … (longest split's tile count) — splits with fewer tiles
//   idle; partial (each split writes O_s, lse_s); combine:s for s = 1 … S; write (O to HBM).
enum class DecodeEventKind : std::uint8_t { kStart, kLoad, kUpdate, kPartial, kCombine, kWrite };
struct DecodeEvent {
  DecodeEventKind kind;
  int index = 0;        // r for load/update, s for combine, 0 otherwise
  std::string label;    // "start", "load:1", "update:1", …, "partial", "combine:1", …, "write"
};

struct SplitKvRun {
  SplitKvProblem problem;
  std::vector<SplitResult> splits;
  std::vector<CombineStep> combine;
  std::vector<DecodeEvent> events;
  Eigen::VectorXd output;            // the combine's O
  double lse = 0;                    // ln Σ e^{lse_s}
  Eigen::VectorXd reference_output;  // one pass over every key, max-shifted (the true value)
  std::vector<WrongCombine> wrong;   // one per kWrongCombines entry, in that order
  SplitKvCounters counters;          // splits + combine
  SplitKvCounters unsplit_counters;  // the same query with one split and no combine
  NumericsReport numerics;           // every split's events, block numbers global
  struct Exact { std::vector<Rational> output, reference_output; };
  std::optional<Exact> exact;

  int SplitCount() const { return static_cast<int>(splits.size()); }
  int FindEvent(const std::string& label) const;   // -1 if absent
  const WrongCombine& Wrong(CombineVariant v) const;
};

// The problem's first error (query fields as Validate(SingleQueryProblem); then "splits",
// "d", "paged.page_size", "paged.block_table" with the entry's index), or nullopt.
std::optional<ProblemError> Validate(const SplitKvProblem& p);
// Throws std::invalid_argument with Validate()'s error ("field[index]: reason").
SplitKvRun RunSplitKv(const SplitKvProblem& p);

// Splits that fill the GPU: with `ctas` thread blocks before splitting (batch × KV heads × query
// tiles) on `sm_count` multiprocessors and `tiles` K/V tiles per query, the smallest split count
// s ≤ min(max_splits, tiles) whose wave efficiency (ctas·s / sm_count waves over ⌈that⌉ launched) is
// within 85 % of the best; 1 when the unsplit grid already fills 80 % of one wave. This is the rule the
// flash-attention repository's split-KV launcher uses (flash_api.cpp, num_splits_heuristic).
int ChooseSplitCount(std::int64_t ctas, int sm_count, int tiles, int max_splits = 128);
// Fraction of the multiprocessors that have a thread block in the grid's last (or only) wave.
double LastWaveOccupancy(std::int64_t ctas, int sm_count);
// Tiles per split for `tiles` tiles in `splits` splits, as even as possible (earlier splits larger).
std::vector<int> EvenSplit(int tiles, int splits);

}  // namespace bw::engine
