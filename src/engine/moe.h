// Mixture of experts, the two things the MoE lesson needs computed rather than typed:
//   1. parameter accounting — total = shared + E × expert (what must be STORED), active per token =
//      shared + k × expert (what one token's forward pass EXECUTES with top-k routing);
//   2. a top-k router over given router logits (tokens × experts): each token's k experts, the
//      demand on every expert, and which assignments a per-expert capacity drops.
// Parameters are exact integers (counts of parameters, not bytes). Source: Shazeer et al. 2017
// (top-k gating), GShard (Lepikhin et al. 2020, §2.2 expert capacity), Switch Transformer (Fedus et
// al. 2022, §2.2 capacity factor). Teaching construction: no real checkpoint is modelled.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace bw::engine {

// [SECTION] Parameter accounting -------------------------------------------------------------------

struct MoeConfig {
  std::int64_t shared_params = 0;   // parameters every token uses (attention, embeddings, norms, …)
  std::int64_t expert_params = 0;   // parameters of ONE expert
  std::int64_t experts = 0;         // E ≥ 1
  std::int64_t top_k = 0;           // 1 ≤ k ≤ E
};

struct MoeParameterCount {
  std::int64_t total = 0;                 // shared + E·expert: all of it must be stored somewhere
  std::int64_t active_per_token = 0;      // shared + k·expert: what one token's forward pass uses
  std::int64_t idle_per_token = 0;        // (E − k)·expert: stored, unused BY THIS token
  std::int64_t experts_total = 0;         // E·expert
  std::int64_t experts_active = 0;        // k·expert
};

// Throws std::invalid_argument on negative sizes, E < 1, k outside [1, E] or int64 overflow.
MoeParameterCount CountParameters(const MoeConfig& c);

// [SECTION] Top-k router -----------------------------------------------------------------------------

// router_logits: (tokens, E). Each token picks its k largest logits (ties: the lower expert index
// wins, so the result is deterministic). Tokens are served in order; an assignment to an expert that
// already holds `capacity` tokens is dropped (GShard-style: the token skips that expert and keeps
// its other assignments; a residual connection carries it on). No capacity: nothing is dropped.
struct RouterProblem {
  Eigen::MatrixXd logits;                 // (tokens, E), finite
  std::int64_t top_k = 1;
  std::optional<std::int64_t> capacity;   // slots per expert, ≥ 0
};

struct TokenRoute {
  std::vector<std::int64_t> experts;   // k expert indices (0-based), by decreasing logit
  std::vector<double> gates;           // softmax over the k selected logits (sums to 1)
  std::vector<bool> dropped;           // per selected expert: over capacity
};

struct RouterResult {
  std::int64_t tokens = 0, experts = 0, top_k = 0;
  std::optional<std::int64_t> capacity;
  std::vector<TokenRoute> routes;          // per token
  std::vector<std::int64_t> demand;        // per expert: assignments asked for
  std::vector<std::int64_t> accepted;      // per expert: assignments served (≤ capacity)
  std::vector<std::int64_t> dropped;       // per expert: demand − accepted
  std::int64_t assignments = 0;            // tokens · k
  std::int64_t dropped_assignments = 0;
  std::int64_t tokens_fully_dropped = 0;   // tokens with every assignment dropped
  std::int64_t max_demand = 0;             // the busiest expert's demand
  // Imbalance = max demand / mean demand = max_demand · E / assignments, as an exact fraction.
  std::int64_t imbalance_num = 0, imbalance_den = 1;

  // Per expert: the tokens it serves after routing token `t` (0-based) — what a trace step shows.
  std::vector<std::int64_t> AcceptedAfter(std::int64_t t) const;
  std::vector<std::int64_t> DemandAfter(std::int64_t t) const;
};

// Throws std::invalid_argument on no experts, k outside [1, E], a non-finite logit, capacity < 0.
RouterResult RouteTopK(const RouterProblem& p);

// Expert capacity from a capacity factor f = num/den (Switch Transformer §2.2):
//   C = ⌈f · tokens · k / E⌉, in exact integers. Throws on den ≤ 0, num < 0 or E < 1.
std::int64_t CapacityFromFactor(std::int64_t tokens, std::int64_t experts, std::int64_t top_k, std::int64_t num,
                                std::int64_t den);

}  // namespace bw::engine
