// ring_record.h — the recording of one GPU ring-attention run (issue 36), plain C++ (no CUDA): per rank
// and step what the engine's ring simulation reports (shard held, pairs, idle, bytes sent on the link)
// plus the times measured with CUDA events, and the check against the one-GPU run. Written by
// `blockwise-ring --json` (ring_main.cpp), read back by RingRecordingFromJson.
//
// JSON (schema_version 1):
//   { "schema_version": 1, "kind": "ring_run",
//     "device": {"name", "gpus"}, "transport": "local" | "nccl", "transport_note", "nccl_version",
//     "problem": {"ranks", "order": "contiguous" | "zigzag", "n", "d", "heads", "causal", "dtype": "bf16", "seed"},
//     "bytes_per_link_per_step", "total_link_bytes", "idle_rank_steps",
//     "timing": {"ring_ms", "one_gpu_ms", "warmup"},
//     "check": {"against", "max_abs_o", "max_abs_lse", "tol_abs", "tol_rel", "tol_lse", "mismatches", "nan", "passed"},
//     "step_fields": [...], "steps": [[rank, step, shard, pairs, idle, bytes_sent, launches, transfer_start_ms,
//                                      transfer_end_ms, compute_start_ms, compute_end_ms, merge_end_ms], ...] }
// Units: pairs per head (query, key) pairs; bytes are link bytes of every head; times are milliseconds
// since the rank's start event (recorded on every rank right after a barrier of all ranks; ranks of the
// NCCL transport are aligned only as well as that barrier aligns them). transfer_* are −1 at the last
// step (nothing sent). A transfer's time includes waiting for the peer (the exchange is a rendezvous).
// Errors: RingRecordingFromJson throws std::runtime_error naming the source and the JSON path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/ring_schedule.h"

namespace bw::cuda {

struct RingStepRecord {
  int rank = 0, step = 0, shard = 0;
  std::int64_t pairs = 0;
  bool idle = false;
  std::int64_t bytes_sent = 0;
  int launches = 0;  // kernel launches (one per computed (Q run, K run) pair)
  double transfer_start_ms = -1, transfer_end_ms = -1;
  double compute_start_ms = 0, compute_end_ms = 0, merge_end_ms = 0;
  bool operator==(const RingStepRecord&) const = default;
};

struct RingCheck {
  std::string against;           // what the ring's O and lse were compared with
  double max_abs_o = 0, max_abs_lse = 0;
  double tol_abs = 0, tol_rel = 0, tol_lse = 0;  // |O − ref| ≤ tol_abs + tol_rel·|ref|, |lse − ref| ≤ tol_lse
  std::int64_t mismatches = 0;   // elements of O or lse outside the tolerance, NaN included
  std::int64_t nan = 0;
  bool passed = false;
  bool operator==(const RingCheck&) const = default;
};

struct RingRecording {
  std::string device_name;
  int gpus = 1;                  // GPUs the ranks ran on
  std::string transport;         // "local" or "nccl"
  std::string transport_note;    // e.g. "local: threads of one process on one GPU, device-to-device copies; not NCCL"
  std::string nccl_version;      // "" for the local transport
  int ranks = 0, n = 0, d = 0, heads = 1;
  std::string order;             // engine::ToString(RingOrder)
  bool causal = false;
  std::string dtype = "bf16";
  unsigned seed = 0;
  std::int64_t bytes_per_link_per_step = 0, total_link_bytes = 0, idle_rank_steps = 0;
  double ring_ms = 0;            // earliest start to latest merge end over the ranks (the timed run)
  double one_gpu_ms = 0;         // the one-GPU kernel on the whole problem (0 when not run)
  int warmup = 0;                // untimed ring runs before the timed one
  RingCheck check;
  std::vector<RingStepRecord> steps;  // step-major, rank within step
  bool operator==(const RingRecording&) const = default;
};

// The ring's tolerance against the one-GPU tensor-core kernel on the whole problem (same bf16 inputs):
// |O − ref| ≤ 4e-3 + 2e-2·|ref| (each partial O_s is rounded to bf16 by the kernel before the fp32 merge,
// ≤ 2⁻⁹ of |O_s|, which can exceed |O| when partials cancel; the reference is rounded to bf16 once; P is
// rounded to bf16 against different running maxima in the two), |lse − ref| ≤ 1e-3 (fp32 sums of e^x);
// NaN is a mismatch.
constexpr double kRingTolAbs = 4e-3, kRingTolRel = 2e-2, kRingTolLse = 1e-3;

// Compares O (heads, N, d) and lse (heads, N) with the reference, element by element, over the rows
// listed (every row when `rows` is empty). `against` names the reference.
RingCheck CompareRing(const std::vector<float>& o, const std::vector<float>& lse, const std::vector<float>& ref_o,
                      const std::vector<float>& ref_lse, int heads, int n, int d, const std::vector<int>& rows,
                      const std::string& against);

// The recording's schedule fields (ranks, problem, per-step shard, pairs, idle, bytes, launches) from the
// schedule; times, device and check are left for the run to fill.
RingRecording RecordingFromSchedule(const RingSchedule& s, unsigned seed);

std::string RingRecordingToJson(const RingRecording& r);
RingRecording RingRecordingFromJson(const std::string& text, const std::string& source);

// Per step and rank: compute (kernels), merge, transfer time, the transfer's share hidden under this
// step's compute and merge, and the compute stream's wait before the step (ms). Plain text, one row each,
// then one line per rank with the sums. "transfer" runs from the exchange's start to its end on the
// communication stream, so it includes waiting for the peer (its free buffer, NCCL's rendezvous): it is
// not link time, bytes ÷ transfer is not bandwidth, and "hidden" is a share of that span. The honest
// figure for the communication the overlap did not hide is "wait" (the compute stream idle).
std::string RingStepTable(const RingRecording& r);

}  // namespace bw::cuda
