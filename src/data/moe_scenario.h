// Scenario file, kind "moe": an MoE layer's parameter accounting and a top-k router run over given
// router logits (engine/moe.h).
//   { "$schema": "../../schemas/scenario-moe.schema.json", "schema_version": 1, "kind": "moe",
//     "title": {"zh": "…", "en": "…"},                                          (optional)
//     "parameters": {"shared": 200000000, "expert": 100000000, "experts": 8, "top_k": 2},
//     "router": {"logits": [[…E…], …one row per token],
//                "capacity": 3  — or "capacity_factor": [num, den]  (optional: none = no dropping)},
//     "tokens": ["the", "cat", …]                                               (optional labels),
//     "deployment": {"hidden": 2048, "activation_bytes": 2, "weight_bits": 16, "quantised_bits": 4,
//                    "devices": 4, "training_tokens": 1000000000000}              (optional) }
//   deployment: what the compute, expert-parallel and CPU/GPU views need (engine/moe_plan.h):
//   hidden = h, elements of one token's hidden state; activation_bytes per activation element;
//   weight_bits per stored parameter (16 = bf16) and optionally quantised_bits for a second figure;
//   devices for expert parallelism (1 … experts); training_tokens = D in C ≈ 6·N·D.
// Errors: LoadError naming the file, the JSON Pointer path and the reason; nothing is half-loaded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "data/load_error.h"
#include "data/scenario.h"
#include "engine/moe.h"

namespace bw::data {

inline constexpr std::int64_t kMaxMoeExperts = 256;
inline constexpr std::int64_t kMaxMoeTokens = 4096;
inline constexpr std::int64_t kMaxMoeParams = std::int64_t{1} << 50;   // per field, parameters

inline constexpr std::int64_t kMaxMoeHidden = std::int64_t{1} << 20;
inline constexpr std::int64_t kMaxTrainingTokens = std::int64_t{1} << 50;

struct MoeDeployment {
  std::int64_t hidden = 1;                       // h, elements
  std::int64_t activation_bytes = 2;             // BYTES per activation element
  std::int64_t weight_bits = 16;                 // bits per stored parameter
  std::optional<std::int64_t> quantised_bits;    // a second placement with quantised weights
  std::int64_t devices = 1;                      // expert-parallel devices, 1 … experts
  std::int64_t training_tokens = 0;              // D, tokens
};

struct MoeScenario {
  std::string file;                 // as given to the loader
  LocalText title;
  engine::MoeConfig config;         // config.experts = router columns, config.top_k = the router's k
  engine::RouterProblem router;     // router.top_k = config.top_k
  std::optional<std::pair<std::int64_t, std::int64_t>> capacity_factor;   // when given as a factor
  std::vector<std::string> token_labels;   // one per token ("t1", "t2", … when not given)
  std::optional<MoeDeployment> deployment;
};

MoeScenario ParseMoeScenario(const nlohmann::json& doc, const std::string& file);

}  // namespace bw::data
