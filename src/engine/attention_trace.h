// The step trace of one attention run: every HBM read and write, every tile computed or skipped,
// every (m, l, u) update and every O_i write, in execution order. Any event can give the cumulative
// counters and the full (m, l, u) of the current Q block at that point, fast enough to scrub a
// 4096-token run: counters are kept every K events and replayed from the event deltas; (m, l, u)
// is kept a few times per Q block and the remaining tiles are recomputed (bench/attention_bench.cpp
// measures it).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/attention_counters.h"

namespace bw::engine {

struct AttentionProblem;

enum class EventKind : std::uint8_t {
  kRead,           // HBM → SRAM: `tensor`, `elements`
  kWrite,          // SRAM → HBM: `tensor`, `elements`
  kComputeS,       // tile S_ij = scale · Q_i K_jᵀ (tiled paths; counts a computed tile)
  kSkipTile,       // tile (i, j) fully masked: nothing loaded or computed (counts a skipped tile)
  kUpdateMLU,      // online-softmax merge of tile (i, j) into (m, l, u) of Q block i, P̃ = e^{S−m'}
  kFinalise,       // O_i = u / l, L_i = m + log l on chip (then written by a kWrite)
  kInitialise,     // FA-1 line 2 / FA-2 backward line 3: zero-fill in HBM (then a kWrite)
  kComputeFull,    // reference / backward whole-matrix step producing `tensor` (S, P, O, dV, …)
  kComputeGrads,   // FA-2 backward tile (i, j): P_ij, dV_j, dP_ij, dS_ij, dQ_i, dK_j
};
const char* ToString(EventKind k);

struct AttentionEvent {
  EventKind kind = EventKind::kRead;
  Tensor tensor = Tensor::kCount;  // read/write/compute target; kCount when none
  std::int32_t i = -1;             // Q block index (0-based), −1 = none / whole tensor
  std::int32_t j = -1;             // K/V block index (0-based), −1 = none / whole tensor
  std::int32_t step = 0;           // kUpdateMLU: tiles merged into block i so far, this one included
  std::int64_t elements = 0;       // HBM elements moved (kRead / kWrite)
  std::int64_t flops = 0;          // matmul FLOPs of this event
  std::int64_t exps = 0;           // exp evaluations of this event
  std::int64_t sram_bytes = 0;     // on-chip bytes live after this event (BYTES)
};

// 1-based: "read K_3 (256 elements)", "compute S_1,3 = …", "skip tile (1,5): fully masked", "update m, l, u of Q_1 with tile 3 …"
// logits_given (AttentionTrace::logits_given): S tiles are read, not computed from Q and K.
std::string Describe(const AttentionEvent& e, bool logits_given = false);

// (m, l, u) of the rows of one Q block, as after a given event. For FA-2, u is the running
// un-normalised output (Õ) and O = u / l is derived; for FA-1, O is what HBM holds (normalised) and
// u = diag(l)·O is derived. m_prev and alpha = e^{m_prev − m} describe the last merge (alpha = 1
// before any). Rows where l = 0 have O = 0.
struct BlockState {
  bool valid = false;              // false when the event concerns no single Q block
  std::int32_t i = -1;             // Q block
  std::int32_t last_j = -1;        // last K/V block merged, −1 = none yet
  std::int32_t steps = 0;          // tiles merged so far
  std::int64_t row_begin = 0, row_end = 0;  // rows [row_begin, row_end) of Q
  Eigen::VectorXd m, l, m_prev, alpha;      // (rows)
  Eigen::MatrixXd u, O;                     // (rows, d_v)
};

class AttentionTrace {
 public:
  // Shape and settings of the run (filled by the engine).
  Algorithm algorithm = Algorithm::kReference;
  int precision_bytes = 8;
  int merge_variant = 0;            // MergeVariant as int
  std::int64_t n_q = 0, n_k = 0, d = 0, d_v = 0, B_r = 0, B_c = 0;
  double scale = 1.0;
  bool logits_given = false;        // AttentionProblem::logits_given: S is read, not computed

  bool empty() const { return events_.empty(); }
  std::size_t size() const { return events_.size(); }
  const std::vector<AttentionEvent>& events() const { return events_; }
  const AttentionEvent& operator[](std::size_t e) const { return events_[e]; }

  // Cumulative counters once event e has happened (e < size()). hbm_scratch_bytes and
  // element_bytes are whole-run figures. CountersAt(size() − 1) equals the run's counters.
  Counters CountersAt(std::size_t e) const;

  // (m, l, u) of event e's Q block once event e has happened, for FA-2 and FA-1 runs; `p` must be
  // the problem the trace was recorded from. Invalid state for the reference and backward paths
  // and for events outside any Q block. Bit-identical to the run (same code, same precision).
  BlockState StateAt(const AttentionProblem& p, std::size_t e) const;

  // Bytes held by the trace (events and snapshots).
  std::size_t MemoryBytes() const;

  // ---- recording (engine only) ----
  struct StateSnapshot {
    std::int32_t last_j = -1, steps = 0;
    Eigen::VectorXd m, l, m_prev, alpha;
    Eigen::MatrixXd acc;  // u (FA-2) or O (FA-1), in the run's precision widened to double
  };
  void Configure(int counter_snapshot_every, int state_snapshots_per_block, std::int64_t t_r, std::int64_t t_c);
  void Append(const AttentionEvent& e, const Counters& cumulative_before);
  void AddStateSnapshot(std::int32_t i, StateSnapshot s);
  void Finish(const Counters& final_counters) { final_ = final_counters; }
  int state_snapshot_stride() const { return state_stride_; }

 private:
  std::vector<AttentionEvent> events_;
  std::vector<Counters> counter_snapshots_;  // [k] = counters before event k·every_
  int every_ = 256;
  int state_stride_ = 1;                     // a state snapshot every this many merged tiles
  std::vector<std::vector<StateSnapshot>> state_snapshots_;  // [i] = snapshots of Q block i
  Counters final_;
};

// Adds one event's effect to cumulative counters (used by the recorder and by CountersAt).
void ApplyEvent(const AttentionEvent& e, Counters& c);

}  // namespace bw::engine
