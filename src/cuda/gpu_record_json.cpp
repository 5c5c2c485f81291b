// gpu_record_json.cpp — the recorded-run JSON format (see gpu_record_json.h for the layout).
// Writing keeps one tile record per line so a recorded run diffs well; reading validates every field
// and names the JSON path of the first bad one.
#include "cuda/gpu_record_json.h"

#include <nlohmann/json.hpp>

#include "data/atomic_write.h"
#include "data/user_file.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace bw::cuda {

using nlohmann::json;

namespace {

const char* kTileFields[] = {"q_tile", "kv_tile", "smid", "t_start_ns", "t_end_ns", "bytes_loaded", "bytes_written", "flags", "head"};

json TrafficJson(const TensorTraffic& t) {
  return json{{"read_elems", t.read_elems}, {"read_bytes", t.read_bytes}, {"write_elems", t.write_elems}, {"write_bytes", t.write_bytes}};
}

struct Reader {
  std::string source;
  [[noreturn]] void Fail(const std::string& path, const std::string& why) const {
    throw std::runtime_error(source + ": " + path + ": " + why);
  }
  const json& At(const json& j, const std::string& key, const std::string& path) const {
    if (!j.is_object() || !j.contains(key)) Fail(path + "/" + key, "missing");
    return j.at(key);
  }
  std::int64_t Int(const json& j, const std::string& key, const std::string& path) const {
    const json& v = At(j, key, path);
    if (!v.is_number_integer()) Fail(path + "/" + key, "expected an integer");
    return v.get<std::int64_t>();
  }
  double Num(const json& j, const std::string& key, const std::string& path) const {
    const json& v = At(j, key, path);
    if (!v.is_number()) Fail(path + "/" + key, "expected a number");
    return v.get<double>();
  }
  std::string Str(const json& j, const std::string& key, const std::string& path) const {
    const json& v = At(j, key, path);
    if (!v.is_string()) Fail(path + "/" + key, "expected a string");
    return v.get<std::string>();
  }
  TensorTraffic Traffic(const json& j, const std::string& key, const std::string& path) const {
    const json& t = At(j, key, path);
    const std::string p = path + "/" + key;
    TensorTraffic r;
    r.read_elems = Int(t, "read_elems", p);
    r.read_bytes = Int(t, "read_bytes", p);
    r.write_elems = Int(t, "write_elems", p);
    r.write_bytes = Int(t, "write_bytes", p);
    return r;
  }
};

template <class E>
E ParseEnum(const std::string& s, const Reader& rd, const std::string& path, E last, const char* (*name)(E)) {
  for (int i = 0; i <= static_cast<int>(last); ++i)
    if (s == name(static_cast<E>(i))) return static_cast<E>(i);
  rd.Fail(path, "unknown value '" + s + "'");
}

}  // namespace

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
  os << (r.tiles.empty() ? "]\n}\n" : "\n  ]\n}\n");
  return os.str();
}

RunSummary RunFromJson(const std::string& text, const std::string& source) {
  Reader rd{source};
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    rd.Fail("", std::string("not JSON: ") + e.what());
  }
  if (rd.Int(j, "schema_version", "") != 1) rd.Fail("/schema_version", "unsupported version (expected 1)");
  if (rd.Str(j, "kind", "") != "blockwise_gpu_run") rd.Fail("/kind", "expected 'blockwise_gpu_run'");
  RunSummary r;
  const json& dev = rd.At(j, "device", "");
  r.device_name = rd.Str(dev, "name", "/device");
  r.sm_count = (int)rd.Int(dev, "sm_count", "/device");
  const json& p = rd.At(j, "problem", "");
  r.algorithm = ParseEnum(rd.Str(p, "algorithm", "/problem"), rd, "/problem/algorithm", Algorithm::TensorCoreFp16, AlgorithmName);
  r.n_q = (int)rd.Int(p, "n_q", "/problem");
  r.n_k = (int)rd.Int(p, "n_k", "/problem");
  r.d = (int)rd.Int(p, "d", "/problem");
  r.d_v = (int)rd.Int(p, "d_v", "/problem");
  r.heads = (int)rd.Int(p, "heads", "/problem");
  r.b_r = (int)rd.Int(p, "b_r", "/problem");
  r.b_c = (int)rd.Int(p, "b_c", "/problem");
  r.mask = ParseEnum(rd.Str(p, "mask", "/problem"), rd, "/problem/mask", MaskKind::Explicit, MaskKindName);
  r.pace_ns = (std::uint64_t)rd.Int(p, "pace_ns", "/problem");
  const json& t = rd.At(j, "timing", "");
  r.kernel_ms = rd.Num(t, "kernel_ms", "/timing");
  r.tflops = rd.Num(t, "tflops", "/timing");
  r.gbps = rd.Num(t, "gbps", "/timing");
  const json& c = rd.At(j, "counters", "");
  r.counters.q = rd.Traffic(c, "Q", "/counters");
  r.counters.k = rd.Traffic(c, "K", "/counters");
  r.counters.v = rd.Traffic(c, "V", "/counters");
  r.counters.s = rd.Traffic(c, "S", "/counters");
  r.counters.p = rd.Traffic(c, "P", "/counters");
  r.counters.o = rd.Traffic(c, "O", "/counters");
  r.counters.l = rd.Traffic(c, "L", "/counters");
  r.counters.tiles_total = rd.Int(c, "tiles_total", "/counters");
  r.counters.tiles_skipped = rd.Int(c, "tiles_skipped", "/counters");
  r.counters.rows_fully_masked = rd.Int(c, "rows_fully_masked", "/counters");
  const std::uint64_t t0 = (std::uint64_t)rd.Int(j, "t0_ns", "");
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
  return r;
}

RunSummary LoadRecordedRun(const std::string& path) {
  // A regular file of at most kMaxRecordingBytes, read through the loaders' one reader: a FIFO given
  // as --recording is refused by name instead of blocking for ever, /dev/zero is not read whole.
  return RunFromJson(data::ReadUserFile(path, kMaxRecordingBytes, "a recording"), path);
}

void SaveRecordedRun(const RunSummary& r, const std::string& path) { data::WriteFileAtomically(path, RunToJson(r)); }

}  // namespace bw::cuda
