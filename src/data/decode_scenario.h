// Scenario file, kind "decode": one new query (a decoding step) against a KV cache cut into splits
// that run side by side, then a combine step (engine/split_kv.h).
//   { "$schema": "../../schemas/scenario-decode.schema.json", "schema_version": 1, "kind": "decode",
//     "title": {"zh": "…", "en": "…"},                             (optional)
//     "weights": [2, 1, 4] — or "logits": [0.69, 0, "-inf"],      the query's scores over the cache
//     "values": [10, 20, 30],  "block_sizes": [1, 1, 1],  "mode": "raw" | "stable",
//                                                                 as in a "single_query" file (scenario.h);
//                                                                 block_sizes are the B_c tiles
//     "splits": [2, 1]  — tiles per split, in key order — or 2 (that many splits, as even as possible),
//     "d": 128,                                                   (optional) key width, for the counters
//     "paged": {"page_size": 1, "block_table": [2, 0, 1], "physical_pages": 4},   (optional)
//     "gpu": {"sm_count": 132, "thread_blocks": 8, "cache_tiles": 512} }          (optional)
//   gpu: the GPU the idle-SM panel speaks of — its multiprocessors, the thread blocks a decoding step
//   launches before splitting (batch × KV heads), and the K/V tiles of its cache; the split count for
//   it is engine::ChooseSplitCount's. The small example above is the one the steps compute.
// Integer weights and values make the engine exact (its combine in rationals).
// Errors: LoadError naming the file, the JSON Pointer path and the reason; nothing is half-loaded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "data/json_file.h"
#include "data/load_error.h"
#include "engine/split_kv.h"

namespace bw::data {

// The GPU the idle-SM panel speaks of.
struct DecodeGpu {
  int sm_count = 132;                 // streaming multiprocessors (H100/H200 SXM: 132)
  std::int64_t thread_blocks = 8;     // CTAs of one decoding step before splitting (batch × KV heads)
  int cache_tiles = 512;              // K/V tiles of B_c keys in its cache (32,768 keys / 64)
  // Thread blocks one SM runs at once. The split rule sees sm_count × blocks_per_sm slots: flash-attn's
  // launcher passes 2 × the SM count to num_splits_heuristic (flash_api.cpp), as does our CUDA plan.
  int blocks_per_sm = 2;
};
inline constexpr int kMaxPhysicalPages = 1 << 16;
inline constexpr std::int64_t kMaxGpuThreadBlocks = std::int64_t{1} << 24;

struct DecodeScenario {
  std::string file;
  LocalText title;
  engine::SplitKvProblem problem;
  std::optional<DecodeGpu> gpu;
};

DecodeScenario LoadDecodeScenario(const std::filesystem::path& path);
DecodeScenario ParseDecodeScenario(const nlohmann::json& doc, const std::string& file);

}  // namespace bw::data
