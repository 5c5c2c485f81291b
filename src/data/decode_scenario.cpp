// Scenario file, kind "decode"; see decode_scenario.h for the format.
#include "data/decode_scenario.h"

#include <nlohmann/json.hpp>

#include "data/scenario.h"

namespace bw::data {

DecodeScenario ParseDecodeScenario(const nlohmann::json& doc, const std::string& file) {
  JsonReader r(file);
  DecodeScenario sc;
  sc.file = file;
  sc.title = r.OpenScenario(doc, "decode", 1,
                            {"weights", "logits", "values", "block_sizes", "mode", "splits", "d", "paged", "gpu"});
  engine::SplitKvProblem& p = sc.problem;
  p.query = ParseQueryProblem(r, doc);
  const int tiles = static_cast<int>(p.query.block_sizes.size());

  const auto& splits = r.Require(doc, "", "splits");
  if (splits.is_array()) {
    r.ExpectArray(splits, "/splits", 1);
    for (size_t s = 0; s < splits.size(); ++s)
      p.split_tiles.push_back(static_cast<int>(r.Integer(splits[s], JsonPath("/splits", s), 1, kMaxPositions)));
  } else {
    const auto count = r.Integer(splits, "/splits", 1, kMaxPositions);
    if (count > tiles)
      r.Fail("/splits", std::to_string(count) + " splits but the cache has " + std::to_string(tiles) +
                            " tiles (a split needs at least one)");
    p.split_tiles = engine::EvenSplit(tiles, static_cast<int>(count));
  }
  if (doc.contains("d")) p.d = static_cast<int>(r.Integer(doc["d"], "/d", 1, kMaxValueDim));

  if (doc.contains("paged")) {
    const auto& pg = doc["paged"];
    r.ExpectObject(pg, "/paged");
    r.Fields(pg, "/paged", {"page_size", "block_table", "physical_pages"});
    engine::PagedCache pc;
    pc.page_size = static_cast<int>(r.Integer(r.Require(pg, "/paged", "page_size"), "/paged/page_size", 1, kMaxPositions));
    pc.physical_pages =
        static_cast<int>(r.Integer(r.Require(pg, "/paged", "physical_pages"), "/paged/physical_pages", 1, kMaxPhysicalPages));
    const auto& table = r.Require(pg, "/paged", "block_table");
    r.ExpectArray(table, "/paged/block_table", 1);
    for (size_t k = 0; k < table.size(); ++k)
      pc.block_table.push_back(static_cast<int>(r.Integer(table[k], JsonPath("/paged/block_table", k), 0, kMaxPhysicalPages - 1)));
    p.paged = pc;
  }

  if (doc.contains("gpu")) {
    const auto& g = doc["gpu"];
    r.ExpectObject(g, "/gpu");
    r.Fields(g, "/gpu", {"sm_count", "thread_blocks", "cache_tiles", "blocks_per_sm"});
    DecodeGpu gpu;
    gpu.sm_count = static_cast<int>(r.Integer(r.Require(g, "/gpu", "sm_count"), "/gpu/sm_count", 1, 4096));
    gpu.thread_blocks = r.Integer(r.Require(g, "/gpu", "thread_blocks"), "/gpu/thread_blocks", 1, kMaxGpuThreadBlocks);
    gpu.cache_tiles = static_cast<int>(r.Integer(r.Require(g, "/gpu", "cache_tiles"), "/gpu/cache_tiles", 1, kMaxPositions));
    if (g.contains("blocks_per_sm")) gpu.blocks_per_sm = static_cast<int>(r.Integer(g["blocks_per_sm"], "/gpu/blocks_per_sm", 1, 64));
    sc.gpu = gpu;
  }

  // The engine's own check, mapped back to JSON paths (the single source of truth).
  if (auto err = engine::Validate(p)) {
    std::string path = err->field == "paged.page_size"     ? "/paged/page_size"
                       : err->field == "paged.block_table" ? "/paged/block_table"
                                                           : "/" + err->field;
    if (err->index >= 0) path = JsonPath(path, err->index);
    r.Fail(path, err->reason);
  }
  return sc;
}

DecodeScenario LoadDecodeScenario(const std::filesystem::path& path) {
  return ParseDecodeScenario(ReadJsonFile(path), path.string());
}

}  // namespace bw::data
