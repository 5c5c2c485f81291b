// One query row, its keys split into blocks: the worked examples of the RC-T3 lesson.
// Given positive weights w_i = e^{s_i} (or logits s_i) and values v_i, the attention output is
// o = Σ w_i v_i / Σ w_i. The engine streams the blocks through the online-softmax merge
// (online_softmax.h), records a step trace the app scrubs through, computes the wrong
// "average of block outputs" beside the right answer, and — when every weight and value is an
// integer — repeats the whole computation in exact rationals (engine/exact.h), so 160/7 is 160/7.
// Source: FlashAttention-2 (Dao 2023) §3.1.1 and Algorithm 1 lines 6–12, for one row of one Q block.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "engine/exact.h"
#include "engine/numerics.h"
#include "engine/online_softmax.h"

namespace bw::engine {

// raw: no max shift — l = Σ w, u = Σ w·v, every rescale factor is 1 (fine for small teaching
//      weights, overflows for real logits).
// stable: each block is shifted by its own max m_b = max s_i (= ln max w_i); merging rescales the
//      older part by e^{m−m'} — the FlashAttention recurrence.
enum class SoftmaxMode { kRaw, kStable };
enum class ScoreKind { kWeights, kLogits };

const char* ToString(SoftmaxMode mode);
const char* ToString(ScoreKind kind);

// Inputs. n positions, d_v value components.
struct SingleQueryProblem {
  ScoreKind score_kind = ScoreKind::kWeights;
  // weights: w_i ≥ 0, finite; 0 marks a masked position.  logits: s_i finite, or −∞ = masked.
  std::vector<double> scores;
  Eigen::MatrixXd values;         // (n × d_v)
  std::vector<int> block_sizes;   // each ≥ 1, summing to n
  SoftmaxMode mode = SoftmaxMode::kRaw;
  // Stable mode only: FlashAttention-4's conditional rescale (online_softmax.h, MergeConditional) with
  // this threshold τ ≥ 0 in natural-log units (weights: a block's max weight may reach e^τ times the
  // kept reference before the state is rescaled). Unset: every merge rescales (FlashAttention-2).
  std::optional<double> rescale_threshold;
  // Exact copies, present only when every weight and value is an integer (score_kind = kWeights).
  std::optional<std::vector<Rational>> exact_weights;               // n
  std::optional<std::vector<std::vector<Rational>>> exact_values;   // n × d_v
};

// A problem the engine refuses, and where: field is "scores", "values" or "block_sizes";
// index is the position (or -1 for the field as a whole). The data layer maps it to a JSON path.
struct ProblemError {
  std::string field;
  int index = -1;
  std::string reason;
};
std::optional<ProblemError> Validate(const SingleQueryProblem& p);

// The same state in exact arithmetic. M = e^m (so m = ln M exactly); M = 0 is the empty state.
struct ExactState {
  Rational M;
  Rational l;
  std::vector<Rational> u;
  bool IsEmpty() const { return l == 0; }
};

// One block's pass through the merge.
struct QueryBlockStep {
  int block = 0;                 // 1-based block number j
  int begin = 0, end = 0;        // positions [begin, end), 0-based
  bool all_masked = false;       // every position of the block is masked by the input (w = 0, s = −∞);
                                 // not set when l_b = 0 only because every e^s underflowed
  SoftmaxState local;            // the block alone: m_b, l_b, u_b (raw mode: m_b = 0)
  SoftmaxState before, after;    // running state before and after merging this block
  MergeFactors factors;          // m', α = e^{m−m'} on the old state, β = e^{m_b−m'} on the block
  // Conditional rescale (SingleQueryProblem::rescale_threshold): the block's max grew past the
  // state's m by at most τ, so m stayed, α = 1 and β = e^{m_b − m} ≥ 1 (the FA-2 merge rescales here).
  bool rescale_skipped = false;
  Eigen::VectorXd local_output;  // u_b / l_b — the block's own (partial) answer; 0 if l_b = 0
  Eigen::VectorXd output_so_far; // u' / l'; 0 while l' = 0 (see after.IsEmpty())
  struct Exact {
    ExactState local, before, after;
    Rational alpha, beta;        // M/M', M_b/M'
    std::vector<Rational> local_output, output_so_far;
  };
  std::optional<Exact> exact;
};

// Trace events, in order: start (Q in SRAM, empty state), then per block load:j (K_j, V_j
// read from HBM into SRAM) and update:j (merge), then write (O = u/l written to HBM once).
enum class QueryEventKind { kStart, kLoadBlock, kUpdate, kWriteOutput };
struct QueryEvent {
  QueryEventKind kind;
  int block = 0;       // 1-based for load/update, 0 otherwise
  std::string label;   // "start", "load:1", "update:1", …, "write"
};

struct SingleQueryRun {
  SingleQueryProblem problem;
  std::vector<QueryBlockStep> blocks;
  std::vector<QueryEvent> events;
  SoftmaxState final_state;
  Eigen::VectorXd output;                  // u/l after the last block (0 if every position masked)
  // Σ w v / Σ w computed directly, without blocks, and always max-shifted (stable) whatever the
  // mode, so it is the true value even where raw mode overflows or underflows.
  Eigen::VectorXd reference_output;
  Eigen::VectorXd average_of_block_outputs;// the wrong merge: mean of u_b/l_b over non-empty blocks
  bool all_masked = false;                 // every position masked by the input: output defined as 0, flagged
  // Every overflow, underflow and NaN of the blocked run (numerics.h), with its block and position.
  NumericsReport numerics;
  int rescales_skipped = 0;                // blocks with rescale_skipped (0 without a threshold)
  struct Exact {
    std::vector<Rational> output, reference_output, average_of_block_outputs;
  };
  std::optional<Exact> exact;

  int BlockCount() const { return static_cast<int>(blocks.size()); }
  // Index of the event with this label, or -1.
  int FindEvent(const std::string& label) const;
  // How many blocks are merged into the state once event `e` has happened.
  int BlocksMergedAt(int e) const;
  // The block held in SRAM at event `e` (1-based), or 0 when none is.
  int BlockInSramAt(int e) const;
  // Running state at event `e` (InitialState before the first update).
  SoftmaxState StateAt(int e) const;
};

// The running state before any block: l = 0, u = 0, and m = −∞ in stable mode (no maximum seen
// yet; the first merge's α = e^{−∞} = 0 multiplies an empty state). Raw mode subtracts no maximum:
// m is 0 from the start and stays 0, so every α and β is 1.
SoftmaxState InitialState(const SingleQueryProblem& p);

// Runs the blocks in order. Throws std::invalid_argument with Validate()'s message on a bad problem.
SingleQueryRun RunSingleQuery(const SingleQueryProblem& p);

// Exact rational as text: "160/7", "40", "-3/2".
std::string ToFractionString(const Rational& q);

}  // namespace bw::engine
