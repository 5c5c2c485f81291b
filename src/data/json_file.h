// Reading JSON documents for scenarios and lessons: size limit checked before reading, UTF-8
// byte-order mark accepted, malformed text reported as one LoadError line (file, JSON path, reason),
// duplicate keys refused, nesting bounded (kMaxJsonDepth),
// and typed field access that names the JSON Pointer path of whatever is wrong.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "data/load_error.h"

namespace bw::data {

inline constexpr std::uintmax_t kMaxFileBytes = 16u << 20;  // 16 MiB, checked before reading
inline constexpr std::size_t kMaxJsonDepth = 64;             // nested arrays/objects

// Reads and parses `path`. Throws LoadError on a missing/unreadable/oversized file or bad JSON.
nlohmann::json ReadJsonFile(const std::filesystem::path& path);
// Parses `text` as if read from `file` (used by tests and by ReadJsonFile).
nlohmann::json ParseJsonText(std::string text, const std::string& file);

// A text in both languages: {"zh": "…", "en": "…"}.
struct LocalText {
  std::string zh, en;
  const std::string& In(const std::string& lang) const { return lang == "zh" ? zh : en; }
};

// Field access with errors that carry the JSON path. `path` is the pointer of `obj` itself.
class JsonReader {
 public:
  JsonReader(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  [[noreturn]] void Fail(const std::string& path, const std::string& reason) const;
  const nlohmann::json& Require(const nlohmann::json& obj, const std::string& path, const char* key) const;
  void ExpectObject(const nlohmann::json& v, const std::string& path) const;
  void ExpectArray(const nlohmann::json& v, const std::string& path, size_t min_size = 0) const;
  std::string String(const nlohmann::json& v, const std::string& path) const;
  // {"zh": "…", "en": "…"} at `path`, both strings required.
  LocalText Text(const nlohmann::json& v, const std::string& path) const;
  double FiniteNumber(const nlohmann::json& v, const std::string& path) const;
  // A whole number in [lo, hi]; rejects 2.7, -1 below lo, and numbers written with a fraction.
  std::int64_t Integer(const nlohmann::json& v, const std::string& path, std::int64_t lo, std::int64_t hi) const;
  // Checks schema_version == expected.
  void SchemaVersion(const nlohmann::json& doc, int expected) const;

 private:
  std::string file_;
};

// "/a/b" + "c" → "/a/b/c" (escapes ~ and / per RFC 6901).
std::string JsonPath(const std::string& parent, const std::string& key);
std::string JsonPath(const std::string& parent, size_t index);

}  // namespace bw::data
