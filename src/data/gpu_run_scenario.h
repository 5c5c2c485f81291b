// Scenario file, kind "gpu_run" (issue 33): a recorded GPU run (assets/gpu/*.json, cuda/gpu_record_json.h)
// that a lesson binds to, replayed without a GPU — the tile grid, the SM × time lanes and, when the run
// has them, its sampled warpgroups' phases (view/gpu_run_model.h) — with an optional second recording
// to compare it with (another kernel on the same problem).
//   { "$schema": "../../schemas/scenario-gpu-run.schema.json", "schema_version": 1, "kind": "gpu_run",
//     "title": {"zh": "…", "en": "…"},                                    (optional)
//     "recording": "../../assets/gpu/recorded_run_h200_bf16_n8192_d128_none.json",
//     "compare": "../../assets/gpu/….json",                               (optional)
//     "scene": "warps" }                                                  (optional)
// "scene" picks the diagram: "replay" (the default: the tile grid and the SM × time lanes at the
// position's replay moment) or "warps" (the sampled warpgroups' measured phases, zoomed on a few tiles
// of one CTA: FA3's producer / consumer and ping-pong steps; the recording must have warp phases).
// Paths are relative to the scenario file, "/"-separated, neither absolute nor empty. This loader
// checks the file's own fields; the recordings are read by the model (view::GpuRunModel), which names
// this file and "/recording" or "/compare" when one does not load.
// Errors: LoadError naming the file, the JSON Pointer path and the reason.
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "data/json_file.h"
#include "data/load_error.h"

namespace bw::data {

struct GpuRunScenario {
  std::string file;
  LocalText title;
  std::string recording, compare;                        // as written in the file ("" = no comparison)
  std::filesystem::path recording_path, compare_path;    // resolved against the file's folder
  bool warps = false;                                    // "scene": "warps" (else "replay", the default)
};

GpuRunScenario ParseGpuRunScenario(const nlohmann::json& doc, const std::string& file);
GpuRunScenario LoadGpuRunScenario(const std::filesystem::path& path);

}  // namespace bw::data
