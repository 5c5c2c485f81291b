// Mixture of experts, what the lessons compute beyond the parameter count and the router
// (engine/moe.h):
//   1. the dense training-compute estimate C ≈ 6·N·D (Kaplan et al. 2020, "Scaling Laws for Neural
//      Language Models", §2.1) with N = total and with N = active parameters, and their ratio;
//   2. expert parallelism: experts split over devices, each token's served assignments dispatched
//      from its home device to the device holding the expert and combined back (the all-to-all of
//      GShard, Lepikhin et al. 2020, §2.2–3.2), with the copies per link and the busiest device;
//   3. CPU/GPU placement (the KTransformers-style split): routed experts in CPU memory, attention and
//      the shared part in GPU HBM, and the bytes per token that cross the link or are read.
// Counts are exact integers; bytes are BYTES. Teaching construction: no real system is modelled.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/exact.h"
#include "engine/moe.h"

namespace bw::engine {

// [SECTION] C ≈ 6·N·D ---------------------------------------------------------------------------------

struct ComputeEstimate {
  BigInt with_total;       // 6 · total · D   (FLOPs; exact: 6ND overflows 64 bits for 1B × 1T)
  BigInt with_active;      // 6 · active · D
  std::int64_t ratio_num = 1, ratio_den = 1;   // total / active, reduced (1.0B / 0.4B = 5/2)
};
// Throws std::invalid_argument if D < 0 or the active count is 0.
ComputeEstimate EstimateTrainingCompute(const MoeParameterCount& c, std::int64_t training_tokens);

// [SECTION] Expert parallelism ------------------------------------------------------------------------

struct ExpertParallelPlan {
  std::int64_t devices = 1, experts = 0, tokens = 0;
  std::vector<std::int64_t> device_of_expert;   // (E): expert e on device ⌊e·G / E⌋ (contiguous groups)
  std::vector<std::int64_t> home_of_token;      // (T): token t starts on device ⌊t·G / T⌋ (its batch shard)
  // dispatch[a][b]: token copies sent from device a to device b (served assignments only; a == b stays
  // local). The combine step sends the expert outputs back: combine[b][a] = dispatch[a][b].
  std::vector<std::vector<std::int64_t>> dispatch;
  std::vector<std::int64_t> load;               // (G): assignments each device's experts compute
  std::int64_t remote_copies = 0;               // Σ dispatch[a][b], a ≠ b: each also comes back
  std::int64_t local_copies = 0;                // Σ dispatch[a][a]
  std::int64_t busiest_device = 0;              // argmax load (lowest index on a tie)
  std::int64_t busiest_load = 0;
  std::int64_t busiest_link = 0;                // max dispatch[a][b], a ≠ b
};
// Throws std::invalid_argument if devices < 1 or devices > experts.
ExpertParallelPlan PlanExpertParallel(const RouterResult& r, std::int64_t devices);

// [SECTION] CPU/GPU placement -------------------------------------------------------------------------

struct CpuGpuPlacement {
  std::int64_t weight_bits = 16;
  std::int64_t gpu_weight_bytes = 0;        // shared (attention, embeddings, …) in GPU HBM: ⌈shared·bits/8⌉
  std::int64_t cpu_weight_bytes = 0;        // E routed experts in CPU memory: ⌈E·expert·bits/8⌉
  // Per token, per MoE layer, batch of one: the hidden state goes to the CPU and the combined
  // expert output comes back — 2·h·activation_bytes over the link.
  std::int64_t link_bytes_per_token = 0;
  std::int64_t link_bytes_each_way = 0;     // h·activation_bytes: the hidden state out, the result back
  // The k chosen experts' weights, read from CPU memory by the CPU cores: ⌈k·expert·bits/8⌉. The same
  // bytes would cross the link per token if the experts were copied to the GPU instead.
  std::int64_t expert_bytes_per_token = 0;
};
// Throws std::invalid_argument on hidden < 1, activation_bytes < 1, weight_bits < 1 or overflow.
CpuGpuPlacement PlaceCpuGpu(const MoeConfig& c, std::int64_t hidden, std::int64_t activation_bytes,
                            std::int64_t weight_bits);

}  // namespace bw::engine
