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

// Reads (data::ReadUserFile: a regular file of at most kMaxFileBytes) and parses `path`. Throws
// LoadError on a missing/unreadable/oversized file, a pipe or a folder, or bad JSON.
nlohmann::json ReadJsonFile(const std::filesystem::path& path);
// Parses `text` as if read from `file` (used by tests and by ReadJsonFile). A string or key holding
// U+0000 is refused with its path.
nlohmann::json ParseJsonText(std::string text, const std::string& file);
// `j` as text (indent as nlohmann's dump; -1 = one line). Bytes that are not UTF-8 — a file name such
// as caf\xE9.json, which Linux allows — are written as U+FFFD instead of throwing: every document
// the app or the CLI writes goes through here (issue 31).
std::string DumpJson(const nlohmann::json& j, int indent = -1);
// A number as every document Blockwise writes gives it: finite → a JSON number; −∞, +∞ and NaN, which
// JSON cannot hold (nlohmann writes all three as null), → the strings "-inf", "+inf", "NaN" — the
// spelling the loaders read back ("-inf": a masked logit) and the numerics report uses (issue 31).
nlohmann::json NumberJson(double x);
nlohmann::json NumbersJson(const double* x, std::size_t n);

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
  // {"zh": "…", "en": "…"} at `path`, both strings required and non-empty, no other key.
  LocalText Text(const nlohmann::json& v, const std::string& path) const;
  double FiniteNumber(const nlohmann::json& v, const std::string& path) const;
  // Refuses any key of `obj` not in `known`, naming it and the closest known key when one is near
  // ("/sacle: unknown key; did you mean /scale?"). The schemas forbid unknown keys
  // ("additionalProperties": false); this is the loaders' side of that rule.
  void Fields(const nlohmann::json& obj, const std::string& path, std::initializer_list<const char*> known) const;
  // A whole number in [lo, hi]; rejects 2.7 and -1 below lo. 2.0 is the whole number 2, as in
  // JSON Schema draft 2020-12 ("a number with a zero fractional part" is an integer) — the schemas
  // and the loaders agree on it (tests/corpus: schema_agreement).
  std::int64_t Integer(const nlohmann::json& v, const std::string& path, std::int64_t lo, std::int64_t hi) const;
  // Checks schema_version == expected.
  void SchemaVersion(const nlohmann::json& doc, int expected) const;
  // The opening every scenario loader shares: `doc` is an object whose keys are "$schema",
  // "schema_version", "kind", "title" and the loader's own `fields` (no other: Fields), of schema
  // version `version` and kind `kind`. Returns its "title" (empty when it has none).
  LocalText OpenScenario(const nlohmann::json& doc, const char* kind, int version, std::initializer_list<const char*> fields) const;

 private:
  void FieldsIn(const nlohmann::json& obj, const std::string& path, const std::vector<std::string>& names) const;
  std::string file_;
};

// "/a/b" + "c" → "/a/b/c" (escapes ~ and / per RFC 6901).
std::string JsonPath(const std::string& parent, const std::string& key);
std::string JsonPath(const std::string& parent, size_t index);

// True when `child` (normalised) lies inside `folder`: the one rule for a path a file names (a
// lesson's scenarios, a course's lessons), which must not leave the folder of the file that names it.
// `ec` is set when either cannot be resolved (a name longer than the file system allows, a symlink
// loop): the throwing overloads escaped as a std::filesystem_error without a JSON path (fuzz_lesson).
bool InsideFolder(const std::filesystem::path& folder, const std::filesystem::path& child, std::error_code& ec);

// The candidate closest to `word` by edit distance, when close enough to be a likely typo
// (distance ≤ 2, or ≤ 1 for words of up to 3 letters; case differences count 0); "" otherwise.
std::string DidYouMean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace bw::data
