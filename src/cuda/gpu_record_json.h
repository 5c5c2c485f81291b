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
// The largest recording read (shipped ones are under 1 MB; 64 MiB holds ~600 000 tile records).
inline constexpr std::uintmax_t kMaxRecordingBytes = 64u << 20;
// Reads a recording (data::ReadUserFile: a regular file, at most kMaxRecordingBytes; data::LoadError
// otherwise, a std::runtime_error for bad contents).
RunSummary LoadRecordedRun(const std::string& path);
// Writes it atomically (data::WriteFileAtomically; throws data::SaveError).
void SaveRecordedRun(const RunSummary& r, const std::string& path);

}  // namespace bw::cuda
