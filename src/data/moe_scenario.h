// Scenario file, kind "moe": an MoE layer's parameter accounting and a top-k router run over given
// router logits (engine/moe.h).
//   { "$schema": "../../schemas/scenario-moe.schema.json", "schema_version": 1, "kind": "moe",
//     "title": {"zh": "…", "en": "…"},                                          (optional)
//     "parameters": {"shared": 200000000, "expert": 100000000, "experts": 8, "top_k": 2},
//     "router": {"logits": [[…E…], …one row per token],
//                "capacity": 3  — or "capacity_factor": [num, den]  (optional: none = no dropping)},
//     "tokens": ["the", "cat", …]                                               (optional labels) }
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

struct MoeScenario {
  std::string file;                 // as given to the loader
  LocalText title;
  engine::MoeConfig config;         // config.experts = router columns, config.top_k = the router's k
  engine::RouterProblem router;     // router.top_k = config.top_k
  std::optional<std::pair<std::int64_t, std::int64_t>> capacity_factor;   // when given as a factor
  std::vector<std::string> token_labels;   // one per token ("t1", "t2", … when not given)
};

MoeScenario LoadMoeScenario(const std::filesystem::path& path);
MoeScenario ParseMoeScenario(const nlohmann::json& doc, const std::string& file);

}  // namespace bw::data
