// gpu_record_json.h — read and write a recorded GPU run (assets/gpu/recorded_run_h200.json), so the
// app can replay a run on a machine without a GPU. Plain C++ and nlohmann/json; no CUDA.
// Format (schema_version 1), all integers exact:
//   { "schema_version": 1, "kind": "blockwise_gpu_run",
//     "device": {"name": "NVIDIA H200", "sm_count": 132},
//     "problem": {"algorithm": "tiled_fa2_fp32", "n_q", "n_k", "d", "d_v", "heads", "b_r", "b_c",
//                 "mask": "none|causal_top_left|causal_bottom_right|key_padding|explicit", "pace_ns"},
//     "timing": {"kernel_ms", "tflops", "gbps"},
//     "counters": {"Q": {"read_elems", "read_bytes", "write_elems", "write_bytes"}, "K", "V", "S", "P",
//                  "O", "L", "tiles_total", "tiles_skipped", "rows_fully_masked"},
//     "t0_ns": <%globaltimer of the earliest tile start>,
//     "tile_fields": ["q_tile","kv_tile","smid","t_start_ns","t_end_ns","bytes_loaded","bytes_written","flags","head"],
//     "tiles": [[i, j, smid, start - t0, end - t0, loaded, written, flags, head], ...] }   // completion order
// flags: bit 0 skipped (fully masked), bit 1 partially masked or tail. Times in ns relative to t0_ns.
// Optional (issue 33; absent in the older recordings, which load as before): "problem"/"kernel" (the
// kernel's name, 1–64 characters) and the sampled CTAs' warpgroup phases,
//     "warp_phase_fields": ["cta","smid","warpgroup","phase","q_tile","kv_tile","t_start_ns","t_end_ns"],
//     "warp_phases": [[cta, smid, warpgroup, "tma_issue|tma_wait|wgmma_s|softmax|wgmma_pv|write|idle",
//                      i + head·T_r, j, start, end], ...]   // ns since that CTA's first stamp (SM clock)
// The schema is schemas/gpu-run-v1.schema.json (tests/cuda/gpu_run_schema_agreement.py holds the two
// to one set of cases). Keys the loader does not know are ignored, as the schema allows.
#pragma once

#include "cuda/gpu_types.h"

#include <cstdint>
#include <string>

namespace bw::cuda {

std::string RunToJson(const RunSummary& r);  // pretty enough for diffs: one tile per line
// Throws std::runtime_error naming `source`, the JSON path and the reason.
RunSummary RunFromJson(const std::string& text, const std::string& source = "<string>");
// Limits a recording must keep (RunFromJson names the field that passes one). They bound what a
// replay allocates from the file's numbers, not from its size: the tile grid ⌈n_q/b_r⌉·heads·⌈n_k/b_c⌉
// (one 40-byte cell each; the shipped runs have 16,384) and the SM lanes. Every tile record must name
// a tile of that grid, a head below `heads` and an SM below `sm_count`.
inline constexpr int kMaxRecordedSms = 1024;                  // H200: 132
inline constexpr std::int64_t kMaxRecordedExtent = 1 << 24;   // n_q, n_k (elements per head)
inline constexpr int kMaxRecordedHeadDim = 1024;              // d, d_v
inline constexpr int kMaxRecordedHeads = 1 << 16;
inline constexpr int kMaxRecordedTileSide = 1 << 16;          // b_r, b_c
inline constexpr std::int64_t kMaxRecordedGrid = 1 << 20;     // tile-grid cells
inline constexpr std::int64_t kMaxRecordedWarpPhases = 1 << 20;  // warp_phases entries
// The largest recording read (shipped ones are under 1 MB; 64 MiB holds ~600 000 tile records).
inline constexpr std::uintmax_t kMaxRecordingBytes = 64u << 20;
// Reads a recording (data::ReadUserFile: a regular file, at most kMaxRecordingBytes; data::LoadError
// otherwise, a std::runtime_error for bad contents).
RunSummary LoadRecordedRun(const std::string& path);
// Writes it atomically (data::WriteFileAtomically; throws data::SaveError).
void SaveRecordedRun(const RunSummary& r, const std::string& path);

}  // namespace bw::cuda
