// gpu_record_json.cpp — the recorded-run JSON format (see gpu_record_json.h for the layout).
// Writing keeps one tile record per line so a recorded run diffs well; reading validates every field
// and names the JSON path of the first bad one.
#include "cuda/gpu_record_json.h"

#include "cuda/record_reader.h"

#include <nlohmann/json.hpp>

#include "data/atomic_write.h"
#include "data/user_file.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>

namespace bw::cuda {

using nlohmann::json;

namespace {

const char* kTileFields[] = {"q_tile", "kv_tile", "smid", "t_start_ns", "t_end_ns", "bytes_loaded", "bytes_written", "flags", "head"};
const char* kWarpPhaseFields[] = {"cta", "smid", "warpgroup", "phase", "q_tile", "kv_tile", "t_start_ns", "t_end_ns"};

json TrafficJson(const TensorTraffic& t) {
  return json{{"read_elems", t.read_elems}, {"read_bytes", t.read_bytes}, {"write_elems", t.write_elems}, {"write_bytes", t.write_bytes}};
}

struct Reader : detail::RecordReader {
  TensorTraffic Traffic(const json& j, const std::string& key, const std::string& path) const {
    const json& t = At(j, key, path);
    const std::string p = path + "/" + key;
    TensorTraffic r;
    r.read_elems = IntIn(t, "read_elems", p, 0, INT64_MAX);
    r.read_bytes = IntIn(t, "read_bytes", p, 0, INT64_MAX);
    r.write_elems = IntIn(t, "write_elems", p, 0, INT64_MAX);
    r.write_bytes = IntIn(t, "write_bytes", p, 0, INT64_MAX);
    return r;
  }
};

template <class E>
E ParseEnum(const std::string& s, const Reader& rd, const std::string& path, E last, const char* (*name)(E)) {
  for (int i = 0; i <= static_cast<int>(last); ++i)
    if (s == name(static_cast<E>(i))) return static_cast<E>(i);
  rd.Fail(path, "unknown value '" + s + "'");
}

// "warp_phases": [[cta, smid, warpgroup, "phase", q_tile, kv_tile, start, end], ...], each a range of
// the sampled CTA's own clock; every index inside the problem's grid and the device (`t_r` counts Q
// tiles of every head, as q_tile does).
std::vector<WarpPhaseRecord> ReadWarpPhases(const json& j, const Reader& rd, const RunSummary& r, std::int64_t t_r_all,
                                            std::int64_t t_c) {
  std::vector<WarpPhaseRecord> out;
  if (!j.contains("warp_phases")) return out;
  const json& a = j.at("warp_phases");
  if (!a.is_array()) rd.Fail("/warp_phases", "expected an array");
  if (static_cast<std::int64_t>(a.size()) > kMaxRecordedWarpPhases)
    rd.Fail("/warp_phases", std::to_string(a.size()) + " phases is above the limit of " + std::to_string(kMaxRecordedWarpPhases));
  out.reserve(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const json& e = a[i];
    const std::string path = "/warp_phases/" + std::to_string(i);
    if (!e.is_array() || e.size() != 8) rd.Fail(path, "expected [cta, smid, warpgroup, phase, q_tile, kv_tile, t_start_ns, t_end_ns]");
    std::int64_t v[8] = {};
    for (int f = 0; f < 8; ++f) {
      if (f == 3) continue;
      if (!e[f].is_number_integer() || e[f].get<std::int64_t>() < 0) rd.Fail(path + "/" + std::to_string(f), "expected a non-negative integer");
      v[f] = e[f].get<std::int64_t>();
    }
    if (!e[3].is_string()) rd.Fail(path + "/3", "expected a phase name");
    WarpPhaseRecord w;
    w.phase = ParseEnum(e[3].get<std::string>(), rd, path + "/3", WarpPhase::kIdle, WarpPhaseName);
    const std::int64_t below[8] = {kMaxRecordedGrid, r.sm_count, 3, 1, t_r_all, t_c, INT64_MAX, INT64_MAX};
    const char* what[8] = {"cta: above the largest grid", "smid: not an SM of the device", "warpgroup: not 0 (producer), 1 or 2 (consumers)", "",
                           "q_tile: above the last Q tile", "kv_tile: above the last K/V tile", "", ""};
    for (int f = 0; f < 6; ++f)
      if (f != 3 && v[f] >= below[f])
        rd.Fail(path + "/" + std::to_string(f), std::string(what[f]) + " (" + std::to_string(v[f]) + " \u2265 " + std::to_string(below[f]) + ")");
    if (v[7] < v[6]) rd.Fail(path + "/7", "ends before it starts");
    w.cta = (std::uint32_t)v[0];
    w.smid = (std::uint32_t)v[1];
    w.warpgroup = (std::uint8_t)v[2];
    w.q_tile = (std::uint32_t)v[4];
    w.kv_tile = (std::uint32_t)v[5];
    w.t_start_ns = (std::uint64_t)v[6];
    w.t_end_ns = (std::uint64_t)v[7];
    out.push_back(w);
  }
  return out;
}

}  // namespace

const char* WarpPhaseName(WarpPhase p) {
  switch (p) {
    case WarpPhase::kTmaIssue: return "tma_issue";
    case WarpPhase::kTmaWait: return "tma_wait";
    case WarpPhase::kWgmmaS: return "wgmma_s";
    case WarpPhase::kSoftmax: return "softmax";
    case WarpPhase::kWgmmaPV: return "wgmma_pv";
    case WarpPhase::kWrite: return "write";
    case WarpPhase::kIdle: return "idle";
  }
  return "?";
}

std::string RunToJson(const RunSummary& r) {
  std::uint64_t t0 = 0;
  if (!r.tiles.empty()) {
    t0 = r.tiles.front().t_start_ns;
    for (const auto& t : r.tiles) t0 = std::min(t0, t.t_start_ns);
  }
  json head = {
      {"schema_version", 1},
      {"kind", "blockwise_gpu_run"},
      {"device", {{"name", r.device_name}, {"sm_count", r.sm_count}}},
      {"problem",
       {{"algorithm", AlgorithmName(r.algorithm)}, {"n_q", r.n_q}, {"n_k", r.n_k}, {"d", r.d}, {"d_v", r.d_v}, {"heads", r.heads},
        {"b_r", r.b_r}, {"b_c", r.b_c}, {"mask", MaskKindName(r.mask)}, {"pace_ns", r.pace_ns}}},
      {"timing", {{"kernel_ms", r.kernel_ms}, {"tflops", r.tflops}, {"gbps", r.gbps}}},
      {"counters",
       {{"Q", TrafficJson(r.counters.q)}, {"K", TrafficJson(r.counters.k)}, {"V", TrafficJson(r.counters.v)},
        {"S", TrafficJson(r.counters.s)}, {"P", TrafficJson(r.counters.p)}, {"O", TrafficJson(r.counters.o)},
        {"L", TrafficJson(r.counters.l)}, {"tiles_total", r.counters.tiles_total}, {"tiles_skipped", r.counters.tiles_skipped},
        {"rows_fully_masked", r.counters.rows_fully_masked}}},
      {"t0_ns", t0},
      {"tile_fields", kTileFields},
  };
  if (!r.kernel.empty()) head["problem"]["kernel"] = r.kernel;
  if (!r.warp_phases.empty()) head["warp_phase_fields"] = kWarpPhaseFields;
  std::string s = head.dump(2);
  s.pop_back();  // the closing brace: tiles go one per line
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  std::ostringstream os;
  os << s << ",\n  \"tiles\": [";
  for (size_t i = 0; i < r.tiles.size(); ++i) {
    const TileRecord& t = r.tiles[i];
    os << (i ? ",\n    [" : "\n    [") << t.q_tile << ',' << t.kv_tile << ',' << t.smid << ',' << (t.t_start_ns - t0) << ','
       << (t.t_end_ns - t0) << ',' << t.bytes_loaded << ',' << t.bytes_written << ',' << t.flags << ',' << t.head << ']';
  }
  os << (r.tiles.empty() ? "]" : "\n  ]");
  if (!r.warp_phases.empty()) {
    os << ",\n  \"warp_phases\": [";
    for (size_t i = 0; i < r.warp_phases.size(); ++i) {
      const WarpPhaseRecord& w = r.warp_phases[i];
      os << (i ? ",\n    [" : "\n    [") << w.cta << ',' << w.smid << ',' << int{w.warpgroup} << ",\"" << WarpPhaseName(w.phase) << "\","
         << w.q_tile << ',' << w.kv_tile << ',' << w.t_start_ns << ',' << w.t_end_ns << ']';
    }
    os << "\n  ]";
  }
  os << "\n}\n";
  return os.str();
}

RunSummary RunFromJson(const std::string& text, const std::string& source) {
  Reader rd{{source}};
  const json j = rd.Open(text, "blockwise_gpu_run");
  RunSummary r;
  const json& dev = rd.At(j, "device", "");
  r.device_name = rd.Str(dev, "name", "/device");
  r.sm_count = (int)rd.IntIn(dev, "sm_count", "/device", 1, kMaxRecordedSms);
  const json& p = rd.At(j, "problem", "");
  r.algorithm = ParseEnum(rd.Str(p, "algorithm", "/problem"), rd, "/problem/algorithm", Algorithm::TensorCoreFp16, AlgorithmName);
  r.n_q = (int)rd.IntIn(p, "n_q", "/problem", 1, kMaxRecordedExtent);
  r.n_k = (int)rd.IntIn(p, "n_k", "/problem", 1, kMaxRecordedExtent);
  r.d = (int)rd.IntIn(p, "d", "/problem", 1, kMaxRecordedHeadDim);
  r.d_v = (int)rd.IntIn(p, "d_v", "/problem", 1, kMaxRecordedHeadDim);
  r.heads = (int)rd.IntIn(p, "heads", "/problem", 1, kMaxRecordedHeads);
  r.b_r = (int)rd.IntIn(p, "b_r", "/problem", 1, kMaxRecordedTileSide);
  r.b_c = (int)rd.IntIn(p, "b_c", "/problem", 1, kMaxRecordedTileSide);
  const std::int64_t t_r = (r.n_q + r.b_r - 1) / r.b_r, t_c = (r.n_k + r.b_c - 1) / r.b_c;
  // ≤ 2^24 · 2^16 · 2^24: fits in 64 bits. The grid a replay draws: one cell per tile.
  const std::int64_t grid = t_r * r.heads * t_c;
  if (grid > kMaxRecordedGrid)
    rd.Fail("/problem/b_r", "the tile grid \u2308n_q/b_r\u2309\u00b7heads\u00b7\u2308n_k/b_c\u2309 = " + std::to_string(grid) +
                                " cells is above the limit of " + std::to_string(kMaxRecordedGrid));
  r.mask = ParseEnum(rd.Str(p, "mask", "/problem"), rd, "/problem/mask", MaskKind::Explicit, MaskKindName);
  r.pace_ns = (std::uint64_t)rd.IntIn(p, "pace_ns", "/problem", 0, INT64_MAX);
  if (p.contains("kernel")) {
    r.kernel = rd.Str(p, "kernel", "/problem");
    if (r.kernel.empty() || r.kernel.size() > 64) rd.Fail("/problem/kernel", "expected a kernel name of 1 to 64 characters");
  }
  const json& t = rd.At(j, "timing", "");
  r.kernel_ms = rd.NonNegative(t, "kernel_ms", "/timing");
  r.tflops = rd.NonNegative(t, "tflops", "/timing");
  r.gbps = rd.NonNegative(t, "gbps", "/timing");
  const json& c = rd.At(j, "counters", "");
  r.counters.q = rd.Traffic(c, "Q", "/counters");
  r.counters.k = rd.Traffic(c, "K", "/counters");
  r.counters.v = rd.Traffic(c, "V", "/counters");
  r.counters.s = rd.Traffic(c, "S", "/counters");
  r.counters.p = rd.Traffic(c, "P", "/counters");
  r.counters.o = rd.Traffic(c, "O", "/counters");
  r.counters.l = rd.Traffic(c, "L", "/counters");
  r.counters.tiles_total = rd.IntIn(c, "tiles_total", "/counters", 0, grid);
  r.counters.tiles_skipped = rd.IntIn(c, "tiles_skipped", "/counters", 0, r.counters.tiles_total);
  r.counters.rows_fully_masked = rd.IntIn(c, "rows_fully_masked", "/counters", 0, static_cast<std::int64_t>(r.n_q) * r.heads);
  const std::uint64_t t0 = (std::uint64_t)rd.IntIn(j, "t0_ns", "", 0, INT64_MAX);
  const json& tiles = rd.At(j, "tiles", "");
  if (!tiles.is_array()) rd.Fail("/tiles", "expected an array");
  r.tiles.reserve(tiles.size());
  for (size_t i = 0; i < tiles.size(); ++i) {
    const json& a = tiles[i];
    const std::string path = "/tiles/" + std::to_string(i);
    if (!a.is_array() || a.size() != 9) rd.Fail(path, "expected an array of 9 integers");
    std::int64_t v[9];
    for (int f = 0; f < 9; ++f) {
      if (!a[f].is_number_integer() || a[f].get<std::int64_t>() < 0) rd.Fail(path + "/" + std::to_string(f), "expected a non-negative integer");
      v[f] = a[f].get<std::int64_t>();
    }
    // Each field within what the problem allows (a smid of 2^32 − 1 wrapped a replay's lane count to 0).
    const std::int64_t below[9] = {t_r, t_c, r.sm_count, INT64_MAX, INT64_MAX, UINT32_MAX + 1LL, UINT32_MAX + 1LL,
                                   UINT32_MAX + 1LL, r.heads};
    const char* what[9] = {"q_tile: above the last Q tile", "kv_tile: above the last K/V tile", "smid: not an SM of the device",
                           "t_start_ns: too large", "t_end_ns: too large", "bytes_loaded: above 32 bits", "bytes_written: above 32 bits", "flags: above 32 bits",
                           "head: above the last head"};
    for (int f = 0; f < 9; ++f)
      if (v[f] >= below[f])
        rd.Fail(path + "/" + std::to_string(f), std::string(what[f]) + " (" + std::to_string(v[f]) + " \u2265 " + std::to_string(below[f]) + ")");
    if (v[3] > INT64_MAX - (std::int64_t)t0 || v[4] > INT64_MAX - (std::int64_t)t0) rd.Fail(path, "time past 2^63 ns");
    TileRecord tr;
    tr.q_tile = (std::uint32_t)v[0];
    tr.kv_tile = (std::uint32_t)v[1];
    tr.smid = (std::uint32_t)v[2];
    tr.t_start_ns = t0 + (std::uint64_t)v[3];
    tr.t_end_ns = t0 + (std::uint64_t)v[4];
    tr.bytes_loaded = (std::uint32_t)v[5];
    tr.bytes_written = (std::uint32_t)v[6];
    tr.flags = (std::uint32_t)v[7];
    tr.head = (std::uint32_t)v[8];
    tr.ready = RecordSeal(tr);
    if (tr.t_end_ns < tr.t_start_ns) rd.Fail(path, "ends before it starts");
    r.tiles.push_back(tr);
  }
  r.warp_phases = ReadWarpPhases(j, rd, r, t_r * r.heads, t_c);
  return r;
}

RunSummary LoadRecordedRun(const std::string& path) {
  // A regular file of at most kMaxRecordingBytes, read through the loaders' one reader: a FIFO given
  // as --recording is refused by name instead of blocking for ever, /dev/zero is not read whole.
  return RunFromJson(data::ReadUserFile(path, kMaxRecordingBytes, "a recording"), path);
}

void SaveRecordedRun(const RunSummary& r, const std::string& path) { data::WriteFileAtomically(path, RunToJson(r)); }

}  // namespace bw::cuda
