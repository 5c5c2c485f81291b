// Scenario file, kind "ring": ring attention over P simulated devices (engine/ring.h) — each device
// keeps its query rows and their running (m, l, u), and the K/V shards travel round the ring.
//   { "$schema": "../../schemas/scenario-ring.schema.json", "schema_version": 1, "kind": "ring",
//     "title": {"zh": "…", "en": "…"},                                   (optional)
//     "weights": [[…N…], …N rows]   — w_rc = e^{S_rc} > 0; or "logits": S, finite (mask with "causal")
//     "values": [v_1, …, v_N]  — or rows [[…d_v…], …],
//     "devices": 4,  "order": "contiguous" | "zigzag",  "causal": true,
//     "d": 128,              (optional) elements of one K row on a link (default: d_v)
//     "element_bytes": 2 }   (optional, default 2: bf16)
// Integer weights and values make the engine exact (every device's states in rationals).
// N ≤ kMaxRingRows; 1 ≤ devices ≤ kMaxRingDevices and 2·devices ≤ N for the zig-zag order (each
// device takes two chunks), devices ≤ N otherwise.
// Errors: LoadError naming the file, the JSON Pointer path and the reason; nothing is half-loaded.
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "data/json_file.h"
#include "data/load_error.h"
#include "engine/ring.h"

namespace bw::data {

inline constexpr int kMaxRingRows = 256;
inline constexpr int kMaxRingDevices = 16;

struct RingScenario {
  std::string file;
  LocalText title;
  engine::RingProblem problem;
};

RingScenario LoadRingScenario(const std::filesystem::path& path);
RingScenario ParseRingScenario(const nlohmann::json& doc, const std::string& file);

}  // namespace bw::data
