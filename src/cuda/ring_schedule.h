// ring_schedule.h — the schedule of the GPU ring-attention forward (issue 36), plain C++ (no CUDA):
// which K/V shard each rank holds at each step, which (Q run, K run) pairs it computes and with which
// mask, the (query, key) pairs, idle steps and the bytes each rank sends on its link. The GPU code
// (ring_cuda.h) runs exactly this schedule; the CPU test (tests/cuda/test_ring_schedule.cpp) holds it
// to the engine's ring simulation (engine/ring.h, RunRing): same shards, pairs, idle steps and bytes.
//
// Rows: a rank's Q shard and K/V shard are the engine's RingShards(n, ranks, order) — contiguous: chunk r
// of R; zig-zag: chunks r and 2R − 1 − r of 2R (Brandon et al. 2023, "Striped Attention", the zig-zag
// variant) — split into runs (maximal ranges of consecutive rows: rank R − 1's two zig-zag chunks are
// adjacent and form one run). Without a mask a shard is one run of all its rows, consecutive or not (no
// mask looks at their positions), so each step is one launch. Causal (top-left, N_q = N_k): a pair is
//   kFull  when every key of the K run precedes the Q run's first row (no mask),
//   kDiag  when the K run is the Q run itself (causal top-left on the run's local indices),
//   kSkip  when every key follows the Q run's last row (nothing computed, nothing loaded);
// runs of different shards are disjoint ranges, so no other case exists. Without a mask the pair is kFull.
// At step t rank r holds the shard that started on rank (r − t) mod R (Ring Attention, Liu, Zaharia,
// Abbeel 2023, Algorithm 1), sends it to rank r + 1 and receives rank r − 1's (not after the last step).
//
// Units: rows and pairs are counts; bytes are link bytes: shard rows × (d + d_v) × 2 (bf16) × heads,
// which for heads = 1 is the engine's RingRun::bytes_per_link_per_step / RingDeviceStep::bytes_sent.
// Errors: ScheduleRing throws std::invalid_argument naming the field (ranks outside 1…8, N below the
// number of chunks, d outside {32, 64, 128}: the tensor-core kernel's padded widths, sent unpadded).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

// The engine's order (engine/ring.h), declared here without its header so that nvcc-compiled files
// (ring_rank.cu) need not parse the engine's Eigen and Boost headers; ring_schedule.cpp includes ring.h.
namespace bw::engine {
enum class RingOrder : std::uint8_t;  // kContiguous = 0, kZigZag = 1
const char* ToString(RingOrder o);
}  // namespace bw::engine

namespace bw::cuda {

enum class RingPairClass : std::uint8_t { kSkip = 0, kFull = 1, kDiag = 2 };
const char* ToString(RingPairClass c);  // "skip", "full", "diag"

struct RowRun {
  int first = 0;  // global row of the run's first row
  int rows = 0;   // consecutive rows (causal); without a mask, every row of the shard
  int offset = 0; // rows of the shard's earlier runs (the run's first row in the shard's local order)
};

// One kernel launch of a rank at a step: Q run q_run of its own shard against K run k_run of the
// shard it holds.
struct RingLaunch {
  int q_run = 0, k_run = 0;
  RingPairClass cls = RingPairClass::kFull;
  std::int64_t pairs = 0;  // (query, key) pairs the mask allows, per head
};

struct RingRankStep {
  int rank = 0, step = 0;
  int shard = 0;                    // the K/V shard held: the rank it started on
  std::int64_t pairs = 0;           // Σ launches' pairs, per head (the engine's RingDeviceStep::pairs)
  bool idle = false;                // no pair: nothing launched
  std::int64_t bytes_sent = 0;      // link bytes sent to rank + 1 after this step's exchange (0 at the last)
  std::vector<RingLaunch> launches; // skipped pairs are not listed
};

struct RingSchedule {
  int ranks = 2, n = 0, d = 0, heads = 1;
  engine::RingOrder order{};  // contiguous
  bool causal = false;
  std::vector<std::vector<int>> shard_rows;   // the engine's RingShards
  std::vector<std::vector<RowRun>> runs;      // per shard
  std::vector<std::vector<RingRankStep>> steps;  // [step][rank]
  std::int64_t bytes_per_link_per_step = 0;   // shard 0's bytes (the engine's field of that name)
  std::int64_t total_link_bytes = 0;          // every send of every step
  std::int64_t idle_rank_steps = 0;
  int max_shard_rows = 0;                     // buffer size, rows
  int max_run_rows = 0;

  int ShardRows(int shard) const { return static_cast<int>(shard_rows[shard].size()); }
  std::int64_t ShardBytes(int shard) const;   // link bytes of one shard (K and V, every head)
};

// ranks in 1…8 (1 is a degenerate ring: one step, nothing sent), n ≥ chunks, d ∈ {32, 64, 128}, heads ≥ 1.
RingSchedule ScheduleRing(int n, int ranks, engine::RingOrder order, bool causal, int d, int heads);

// The pair count of a (Q run, K run) pair under its class.
std::int64_t PairsOf(RingPairClass c, int q_rows, int k_rows);

}  // namespace bw::cuda
