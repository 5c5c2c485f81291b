// ring_cuda.h — ring attention's forward on GPUs (issue 36). Includes no CUDA header.
//
// Each of R ranks holds its Q shard and a K/V shard (the engine's RingShards: contiguous, or zig-zag
// chunks r and 2R − 1 − r of 2R). At each of R steps a rank, on its communication stream, sends the K/V
// shard it holds to rank + 1 and receives rank − 1's into its other buffer, WHILE on its compute stream it
// runs the tensor-core FlashAttention-2 kernel (kernel_tc.cu, bf16 in, fp32 accumulation; O and
// L = logsumexp out) once per (Q run, K run) pair the schedule computes (ring_schedule.h: unmasked,
// causal diagonal, or skipped), then merges each partial (O_s, lse_s) into its running (O, lse) in fp32
// with the split-KV combine's maths (lse_combine.cuh): lse = ln(e^{lse} + e^{lse_s}),
// O = e^{lse_old − lse} O + e^{lse_s − lse} O_s. Buffers: the rank's own K/V shard, then two receive
// buffers used in turn; events order the streams (a buffer is received into only after the kernels that
// read it have finished; a shard is computed on only after it has landed).
// Sources: Ring Attention (Liu, Zaharia, Abbeel 2023, Algorithm 1); the zig-zag causal order (Brandon et
// al. 2023, "Striped Attention", and ring-flash-attention's zigzag); the merge is FlashAttention-2
// (Dao 2023) Algorithm 1 lines 8–10.
//
// Transports (ring_transport.h): "nccl" — NCCL, one process per GPU (blockwise-ring forks them,
// ring_main.cpp); "local" — NOT NCCL: every rank a thread of this process on one GPU, shards copied device
// to device, so the whole path runs and is tested on a single GPU.
//
// Shapes: Problem (attention_cuda.h) Q, K, V (heads, N, d) fp32, rounded to bf16 on upload; n_q = n_k = N,
// d = d_v ∈ {32, 64, 128}; mask None or CausalTopLeft; scale as given (usually 1/√d). Units: elements
// unless named bytes; times ms.
// Errors: std::invalid_argument for a problem the ring does not take (naming the field),
// std::runtime_error for CUDA or NCCL failures (naming the call).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "cuda/attention_cuda.h"
#include "cuda/ring_schedule.h"

namespace bw::cuda {

struct RingOptions {
  int ranks = 2;                 // 1…8 (the GPU path: 2…8 is what a ring is for; 1 runs one step)
  engine::RingOrder order{};     // contiguous (the enum's first value) or zig-zag
  int warmup = 1;                // untimed ring runs before the timed one
};

// One rank's step, in ms since the rank's start event (recorded after a barrier of all ranks).
// transfer_* stay −1 at the last step (nothing sent). A transfer's time includes waiting for the peer.
struct RingStepTimes {
  double transfer_start_ms = -1, transfer_end_ms = -1;
  double compute_start_ms = 0, compute_end_ms = 0, merge_end_ms = 0;
  long long bytes_sent = 0;  // bytes handed to the transport's send at this step (0 at the last)
};

struct RingRankOutput {
  int rank = 0;
  std::vector<float> o;     // (heads, shard rows, d) fp32, rows in RingSchedule::shard_rows[rank] order
  std::vector<float> lse;   // (heads, shard rows): ln Σ e^{scale·q·k} over the row's allowed keys
  std::vector<RingStepTimes> times;  // per step
  std::string device_name;
};

struct RingOutput {
  RingSchedule schedule;
  std::vector<RingRankOutput> ranks;
  std::vector<float> o, lse;  // (heads, N, d), (heads, N): every rank's rows in place
};

// The schedule the GPU ring runs for `p` (checks the problem: the errors above).
RingSchedule ScheduleFor(const Problem& p, const RingOptions& opt);

// Every rank as a thread of this process on GPU 0 with the local transport (not NCCL).
RingOutput RunRingLocal(const Problem& p, const RingOptions& opt);

// NCCL's unique id (ncclUniqueId's 128 bytes): rank 0 makes it, every rank passes the same one.
using NcclId = std::array<char, 128>;
// Whether libnccl.so.2 opens (dlopen, LD_LIBRARY_PATH); `version_or_why`: "2.28.9" or dlopen's error.
bool NcclAvailable(std::string* version_or_why = nullptr);
NcclId NcclUniqueId();
// Rank `rank` of `opt.ranks` on GPU `device` of this process, over NCCL. Collective.
RingRankOutput RunRingNcclRank(const Problem& p, const RingOptions& opt, int rank, const NcclId& id, int device);

// Puts a rank's rows (RingRankOutput::o / lse) in place in the whole (heads, N, d) / (heads, N) arrays.
void ScatterRankRows(const RingSchedule& s, const RingRankOutput& r, std::vector<float>& o, std::vector<float>& lse);

}  // namespace bw::cuda
