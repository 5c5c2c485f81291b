// record_reader.h — the checked JSON reader the GPU recordings share (gpu_record_json.cpp: kind
// "blockwise_gpu_run"; ring_record.cpp: kind "ring_run"). Plain C++, no CUDA. Every error is a
// std::runtime_error "SOURCE: JSON_PATH: reason" ("rec.json: /device/sm_count: missing"), so a bad file
// names the file, the place and the reason, and the caller keeps what it had.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace bw::cuda::detail {

struct RecordReader {
  using json = nlohmann::json;
  std::string source;  // the file, as the error names it

  [[noreturn]] void Fail(const std::string& path, const std::string& why) const {
    throw std::runtime_error(source + ": " + path + ": " + why);
  }
  // The document: JSON, "schema_version": 1 and "kind": `kind`.
  json Open(const std::string& text, const std::string& kind) const {
    json j;
    try {
      j = json::parse(text);
    } catch (const json::parse_error& e) {
      Fail("", std::string("not JSON: ") + e.what());
    }
    if (Int(j, "schema_version", "") != 1) Fail("/schema_version", "unsupported version (expected 1)");
    if (Str(j, "kind", "") != kind) Fail("/kind", "expected \"" + kind + "\"");
    return j;
  }
  const json& At(const json& j, const std::string& key, const std::string& path) const {
    if (!j.is_object() || !j.contains(key)) Fail(path + "/" + key, "missing");
    return j.at(key);
  }
  std::int64_t IntV(const json& v, const std::string& path) const {
    if (!v.is_number_integer()) Fail(path, "expected an integer");
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
      Fail(path, "too large for a 64-bit integer");
    return v.get<std::int64_t>();
  }
  std::int64_t Int(const json& j, const std::string& key, const std::string& path) const { return IntV(At(j, key, path), path + "/" + key); }
  // An integer in [lo, hi]; the reason names both ends.
  std::int64_t IntIn(const json& j, const std::string& key, const std::string& path, std::int64_t lo, std::int64_t hi) const {
    const std::int64_t x = Int(j, key, path);
    if (x < lo || x > hi)
      Fail(path + "/" + key, std::to_string(x) + " is outside " + std::to_string(lo) + "\u2013" + std::to_string(hi));
    return x;
  }
  // null_is_inf: a non-finite number was written as null (JSON has no ∞) and reads back as +∞.
  double NumV(const json& v, const std::string& path, bool null_is_inf = false) const {
    if (null_is_inf && v.is_null()) return std::numeric_limits<double>::infinity();
    if (!v.is_number()) Fail(path, "expected a number");
    return v.get<double>();
  }
  double Num(const json& j, const std::string& key, const std::string& path, bool null_is_inf = false) const {
    return NumV(At(j, key, path), path + "/" + key, null_is_inf);
  }
  // A finite number ≥ 0 (times and rates).
  double NonNegative(const json& j, const std::string& key, const std::string& path) const {
    const double x = Num(j, key, path);
    if (!(x >= 0) || !std::isfinite(x)) Fail(path + "/" + key, "expected a finite number \u2265 0");
    return x;
  }
  bool BoolV(const json& v, const std::string& path) const {
    if (!v.is_boolean()) Fail(path, "expected true or false");
    return v.get<bool>();
  }
  bool Bool(const json& j, const std::string& key, const std::string& path) const { return BoolV(At(j, key, path), path + "/" + key); }
  std::string Str(const json& j, const std::string& key, const std::string& path) const {
    const json& v = At(j, key, path);
    if (!v.is_string()) Fail(path + "/" + key, "expected a string");
    return v.get<std::string>();
  }
};

}  // namespace bw::cuda::detail
