// Scenario file v2: one full-attention problem for the engine (issue 3) and how to run it.
//   { "schema_version": 2, "kind": "attention", "title": {"zh": "…", "en": "…"},       (title optional)
//     "Q": [[…d…], …N_q rows], "K": [[…d…], …N_k], "V": [[…d_v…], …N_k]
//        — or "logits": [[…N_k…], …N_q rows] with "V" (Q = logits, K = I, scale 1; see engine)
//     "scale": 0.125,                                     optional, default 1/√d
//     "mask": "none" | "causal" | {"kind": "causal", "alignment": "top_left" | "bottom_right"}
//           | {"kind": "key_padding", "keep": [1, 1, 0]}  | {"kind": "explicit", "keep": [[1, 0], …]}
//     "tiles": {"B_r": 16, "B_c": 16}  or  "sram_elements": M   (one of them; needed by flash1/flash2)
//     "order": "reference" | "flash2" | "flash1",  "precision": "double" | "float",
//     "merge": "correct" | "no_rescale" | …  (flash2 only),  "backward": false,  "dO": [[…d_v…], …] }
// Errors: LoadError naming the file, the JSON Pointer path and the reason; sizes are checked against
// the limits below before any matrix is allocated. Nothing is half-loaded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "data/json_file.h"
#include "data/load_error.h"
#include "engine/attention.h"

namespace bw::data {

inline constexpr std::int64_t kMaxAttentionRows = 8192;           // N_q and N_k
inline constexpr std::int64_t kMaxAttentionDim = 1024;            // d and d_v
inline constexpr std::int64_t kMaxAttentionElements = 1 << 22;    // any one matrix: 4,194,304 numbers
inline constexpr std::int64_t kMaxSramElements = 1 << 24;         // M
// Logits are encoded as Q = logits, K = I_{N_k} (engine::AttentionProblem::FromLogits), so N_k also
// sizes an N_k × N_k identity: kept small.
inline constexpr std::int64_t kMaxLogitKeys = 1024;
// The app runs the materialising reference beside the tiled orders (S and P are N_q × N_k each) and
// records every tile in the trace it scrubs, so a 30 KB file of 8192 one-number rows with 1 × 1 tiles
// would ask for gigabytes and minutes. Both are bounded before any run:
inline constexpr std::int64_t kMaxScoreElements = 1 << 24;        // N_q × N_k: 16,777,216 (4096²)
inline constexpr std::int64_t kMaxTiles = 1 << 14;                // T_r × T_c: 16,384 (a 128 × 128 grid)
// The work of one pass, N_q × N_k × (d + d_v) multiply-adds (S = QKᵀ, then O = PV): the app makes
// four passes when it opens a file (the reference, FA-2, FA-1 and, with "backward", the backward pass),
// so this bounds the time to its first frame: 4096 × 4096 × (64 + 64) is the limit, about 6 s on a
// 2-core machine (docs/reliability.md, "First frame"). A lesson's attention scenarios share it, and
// kMaxScoreElements, since it runs them all when it opens (view::LoadLessonModel).
inline constexpr std::int64_t kMaxMultiplyAdds = std::int64_t{1} << 31;   // 2,147,483,648
// N_q × N_k × (d + d_v) of a parsed problem.
inline std::int64_t MultiplyAdds(const engine::AttentionProblem& p) { return p.n_q() * p.n_k() * (p.d() + p.d_v()); }

using AttentionScenarioTitle = LocalText;

struct AttentionScenario {
  std::string file;                     // as given to the loader
  AttentionScenarioTitle title;
  bool from_logits = false;             // "logits" given instead of Q and K
  engine::AttentionProblem problem;
  engine::Algorithm order = engine::Algorithm::kFlash2;  // kReference, kFlash2 or kFlash1
  engine::RunOptions options;           // tiles (given or derived), precision, merge
  std::optional<engine::TileDerivation> derivation;     // when "sram_elements" was given
  bool backward = false;
  engine::AttentionMatrix dO;           // (N_q, d_v); all ones unless "dO" is given
  bool dO_given = false;
};

AttentionScenario LoadAttentionScenario(const std::filesystem::path& path);
// The same from an already-parsed document (tests; `file` is used in error messages).
AttentionScenario ParseAttentionScenario(const nlohmann::json& doc, const std::string& file);

}  // namespace bw::data
