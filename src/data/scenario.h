// Scenario file v1: one query row over blocks of keys (the RC-T3 worked examples).
//   { "$schema": ".../schemas/scenario-v1.schema.json", "schema_version": 1, "kind": "single_query",
//     "title": {"zh": "…", "en": "…"},
//     "weights": [2, 1, 4]            — or "logits": [0.69, 0, "-inf"]  (exactly one of the two)
//     "values": [10, 20, 30]          — scalars, or rows [[1, 2], [3, 4], …] of equal length d_v
//     "block_sizes": [2, 1],          — each ≥ 1, summing to the number of positions
//     "mode": "raw" | "stable" }
// Integer weights and values make the engine also compute in exact rationals.
// Errors: LoadError naming the file, the JSON path and the reason; nothing is half-loaded.
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "data/json_file.h"
#include "data/load_error.h"
#include "engine/single_query.h"

namespace bw::data {

inline constexpr int kMaxPositions = 1 << 16;   // positions in one single-query scenario
inline constexpr int kMaxValueDim = 1024;       // d_v
// Blocks × d_v: every block keeps its own state and the merged one, u with d_v numbers (exact
// fractions for integer inputs), at every step of the trace the app scrubs: 16,384 blocks of
// d_v = 256 took 13 s and 2.2 GB to load. At this limit (65,536 blocks of d_v = 16) the first frame
// is within the budget in docs/reliability.md ("First frame"). A lesson's single-query scenarios
// share it (view::LoadLessonModel).
inline constexpr std::int64_t kMaxBlockValues = std::int64_t{1} << 20;   // 1,048,576
inline std::int64_t BlockValues(const engine::SingleQueryProblem& p) {
  return static_cast<std::int64_t>(p.block_sizes.size()) * p.values.cols();
}

struct SingleQueryScenario {
  std::string file;    // as given to the loader
  LocalText title;
  engine::SingleQueryProblem problem;
};

SingleQueryScenario LoadSingleQueryScenario(const std::filesystem::path& path);
// The scenario as a file v1 document (integers stay integers, so exact scenarios stay exact).
nlohmann::json SingleQueryScenarioToJson(const SingleQueryScenario& sc);
// The same from an already-parsed document (tests; `file` is used in error messages).
SingleQueryScenario ParseSingleQueryScenario(const nlohmann::json& doc, const std::string& file);
// The one query row's fields of `doc` ("weights" or "logits", "values", "block_sizes", "mode", as
// above), shared by the "single_query" and "decode" kinds; checked by engine::Validate, its errors
// mapped to JSON paths. Other fields are the caller's.
engine::SingleQueryProblem ParseQueryProblem(const JsonReader& r, const nlohmann::json& doc);

}  // namespace bw::data
