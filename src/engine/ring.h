// Ring attention over P simulated devices: the sequence is sharded, each device keeps its Q shard
// and its running (m, l, u) per query row, and the K/V shards travel round the ring — at step t
// device p holds the K/V shard that started on device (p − t) mod P, merges it into its rows'
// states (the online-softmax merge of online_softmax.h, the same as a block's), then passes it to
// device p + 1. After P steps every row has seen every key; each device writes O = u / l for its rows.
// Causal: with contiguous shards device p has work only for shards 0…p, so the last device works
// at every step while the first idles after step 0; the zig-zag order gives device p the chunks p
// and 2P − 1 − p of 2P, so every device has the same work at every step.
// Sources: Ring Attention (Liu, Zaharia, Abbeel 2023, §3 and Algorithm 1); the zig-zag (striped,
// load-balanced) causal order as in Brandon et al. 2023 "Striped Attention" and the zigzag variant
// of the ring-flash-attention implementations; the merge is FlashAttention-2 Algorithm 1 lines 8–10.
//
// Shapes: Q, K (N × d), V (N × d_v), N_q = N_k = N ≥ number of chunks. Units: bytes on a link are
// (rows of the shard) × (key width + d_v) × element_bytes; pairs are (query row, key) pairs computed.
// Errors: RunRing throws ValidationError (attention.h) naming the field and the reason.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/attention.h"
#include "engine/online_softmax.h"
#include "engine/single_query.h"

namespace bw::engine {

enum class RingOrder : std::uint8_t { kContiguous, kZigZag };
const char* ToString(RingOrder o);  // "contiguous", "zigzag"

struct RingProblem {
  AttentionProblem attention;    // mask: none or causal (top-left); N_q = N_k
  int devices = 2;               // P ≥ 1
  RingOrder order = RingOrder::kContiguous;
  int element_bytes = 2;         // bytes per K or V element on a link (2: bf16)
  // Elements of one K row on a link; −1: attention.d(), or 0 when the logits were given (no K
  // exists then: AttentionProblem::FromLogits encodes S as Q = S, K = I, which never travels).
  int key_width = -1;
  // Optional exact copies: integer weights W (N × N, W_rc = e^{S_rc}, 0 = masked) and values
  // (N × d_v). When present the logits must be ln W (AttentionProblem::FromLogits) and every state
  // is repeated in rationals, so the ring's O equals Σ w v / Σ w exactly.
  std::optional<std::vector<std::vector<Rational>>> exact_weights;
  std::optional<std::vector<std::vector<Rational>>> exact_values;
};

// One device at one ring step.
struct RingDeviceStep {
  int device = 0;                     // 0-based
  int shard = 0;                      // the K/V shard held (the device it started on)
  std::int64_t pairs = 0;             // (query, key) pairs the mask allows: the work done
  bool idle = false;                  // no allowed pair: nothing computed (a causal-masked shard)
  std::int64_t bytes_sent = 0;        // K/V shard bytes sent to device + 1 after this step (0 at the last step)
  std::vector<SoftmaxState> after;    // running state of each of the device's query rows after the step
  std::optional<std::vector<ExactState>> exact_after;
};

struct RingStep {
  int step = 0;                       // 0-based t
  std::vector<RingDeviceStep> devices;
  std::int64_t MaxPairs() const;      // the step lasts as long as its busiest device
};

struct RingRun {
  RingProblem problem;
  std::vector<std::vector<int>> shard_rows;  // rows (query and key) of each device's shard, ascending
  std::vector<RingStep> steps;               // P steps
  AttentionMatrix output;                    // N × d_v, assembled from every device's rows
  AttentionMatrix reference_output;          // RunReference on the whole problem
  std::vector<std::uint8_t> row_masked;      // 1 = the row has no allowed key (output 0, flagged)
  double max_abs_error = 0;                  // |output − reference|, NaN counted as infinite
  std::int64_t bytes_per_link_per_step = 0;  // one K/V shard
  std::int64_t total_link_bytes = 0;         // every send of every step
  std::int64_t idle_device_steps = 0;        // (device, step) pairs with no work
  // Work balance: Σ_t max_p pairs(p, t) (the ring waits for its slowest device each step) against
  // Σ pairs / P (perfect balance). 1 is perfect.
  double imbalance = 1;
  struct Exact { std::vector<std::vector<Rational>> output, reference_output; };
  std::optional<Exact> exact;

  int Devices() const { return problem.devices; }
  std::int64_t PairsOf(int device) const;    // over every step
};

RingRun RunRing(const RingProblem& p);

// The rows of each device's shard for N rows over P devices in `order` (chunks as even as possible).
std::vector<std::vector<int>> RingShards(int n, int devices, RingOrder order);

}  // namespace bw::engine
