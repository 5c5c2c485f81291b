// JSON reading with one-line errors; see json_file.h.
#include "data/json_file.h"

#include "data/user_file.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <fstream>
#include <sstream>

namespace bw::data {

namespace {

// Builds the document through nlohmann's SAX interface so that an error can name the JSON path
// being read (not only a byte offset), duplicate keys are refused rather than silently dropped,
// and nesting is bounded before it can exhaust the stack.
class PathTrackingSax : public nlohmann::json_sax<nlohmann::json> {
 public:
  using json = nlohmann::json;

  bool null() override { return Add(json(nullptr)); }
  bool boolean(bool v) override { return Add(json(v)); }
  bool number_integer(number_integer_t v) override { return Add(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return Add(json(v)); }
  // A number too small for a double reads as 0 (1e-400): never silently — a positive weight turned
  // into 0 was then drawn as masked (issue 31). Refused at its path, as one too large is (below).
  bool number_float(number_float_t v, const string_t& text) override {
    if (v == 0.0) {
      const auto mantissa_end = text.find_first_of("eE");
      if (text.find_first_of("123456789") < std::min(mantissa_end, text.size()))
        // The reason before the echo, which is cut to 40 characters: a 10,000-digit number
        // otherwise filled the line's 600 bytes and the reason was never printed (issue 31).
        return Fail("number too small for a double (it would become 0); write 0 or a larger number: " +
                    (text.size() <= 40 ? text : text.substr(0, 24) + "\u2026" + text.substr(text.size() - 12)) + "");
    }
    return Add(json(v));
  }
  // U+0000 (written \u0000) is refused where it is: a font's glyph list ends at it and C strings
  // stop at it, so a text holding one would be cut or crash the window (issue 31).
  bool string(string_t& v) override {
    if (v.find('\0') != string_t::npos) return Fail("a text holds U+0000 (\\u0000, a NUL character); remove it");
    return Add(json(std::move(v)));
  }
  bool binary(binary_t&) override { return Fail("binary values are not JSON"); }
  bool start_object(std::size_t) override { return Open(json::object()); }
  bool end_object() override { return Close(); }
  bool start_array(std::size_t) override { return Open(json::array()); }
  bool end_array() override { return Close(); }
  bool key(string_t& k) override {
    if (k.find('\0') != string_t::npos) {
      pending_key_ = k;
      return Fail("a key holds U+0000 (\\u0000, a NUL character); remove it");
    }
    if (stack_.back().value->contains(k)) {
      pending_key_ = k;
      return Fail("duplicate key \"" + k + "\"");
    }
    pending_key_ = k;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    std::string msg = ex.what();
    const auto pos = msg.find("] ");
    if (pos != std::string::npos) msg = msg.substr(pos + 2);
    if (msg.rfind("number overflow", 0) == 0) msg = "number is out of the double range (" + msg + ")";
    // nlohmann checks UTF-8 inside strings; say so in the user's words (the bytes themselves are
    // escaped by LoadError, so the line stays printable).
    if (msg.find("ill-formed UTF-8") != std::string::npos)
      msg = "text is not valid UTF-8 (save the file as UTF-8): " + msg;
    else if (msg.find("invalid string: control character") != std::string::npos)
      msg = "a string holds a raw control character (write a newline as \\n, a tab as \\t): " + msg;
    error_position_ = position;
    return Fail(msg);
  }

  json root;
  std::string error, error_path;
  std::size_t error_position_ = 0;

 private:
  struct Frame {
    json* value;
    std::string pointer;
  };
  std::string NextPointer() const {
    if (stack_.empty()) return "";
    const Frame& f = stack_.back();
    if (f.value->is_object()) return pending_key_ ? JsonPath(f.pointer, *pending_key_) : f.pointer;
    return JsonPath(f.pointer, f.value->size());
  }
  json* Place(json&& v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    json& parent = *stack_.back().value;
    if (parent.is_object()) {
      json* placed = &(parent[*pending_key_] = std::move(v));
      pending_key_.reset();  // an error after this value belongs to the object, not to this key
      return placed;
    }
    parent.push_back(std::move(v));
    return &parent.back();
  }
  bool Add(json&& v) {
    Place(std::move(v));
    return true;
  }
  bool Open(json&& v) {
    if (stack_.size() >= kMaxJsonDepth) return Fail("nesting is deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    const std::string ptr = NextPointer();
    stack_.push_back({Place(std::move(v)), ptr});
    return true;
  }
  bool Close() {
    stack_.pop_back();
    return true;
  }
  bool Fail(const std::string& reason) {
    if (error.empty()) {
      error = reason;
      error_path = NextPointer();
    }
    return false;
  }
  std::vector<Frame> stack_;
  std::optional<std::string> pending_key_;
};

}  // namespace

nlohmann::json ParseJsonText(std::string text, const std::string& file) {
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
      static_cast<unsigned char>(text[1]) == 0xBB && static_cast<unsigned char>(text[2]) == 0xBF)
    text.erase(0, 3);  // UTF-8 byte-order mark
  // UTF-16 (Windows Notepad's "Unicode") starts with a byte-order mark FF FE / FE FF or has NUL bytes
  // between ASCII letters; nlohmann would only say "invalid literal".
  const bool utf16_bom = text.size() >= 2 && ((static_cast<unsigned char>(text[0]) == 0xFF && static_cast<unsigned char>(text[1]) == 0xFE) ||
                                              (static_cast<unsigned char>(text[0]) == 0xFE && static_cast<unsigned char>(text[1]) == 0xFF));
  if (utf16_bom || text.find('\0') != std::string::npos)
    throw LoadError(file, "", utf16_bom ? "the file is UTF-16; save it as UTF-8" : "the file holds NUL bytes (UTF-16 or binary?); save it as UTF-8 text");
  PathTrackingSax sax;
  const bool ok = nlohmann::json::sax_parse(text, &sax, nlohmann::json::input_format_t::json, /*strict=*/true);
  if (!ok || !sax.error.empty()) {
    std::string reason = sax.error.empty() ? "malformed JSON" : sax.error;
    if (reason.find("parse error") != std::string::npos || reason.find("syntax error") != std::string::npos)
      reason = "malformed JSON: " + reason;
    throw LoadError(file, sax.error_path, reason);
  }
  return std::move(sax.root);
}

nlohmann::json ReadJsonFile(const std::filesystem::path& path) {
  return ParseJsonText(ReadUserFile(path, kMaxFileBytes), path.string());  // regular files only, size capped
}

nlohmann::json NumberJson(double x) {
  if (std::isfinite(x)) return x;
  return std::isnan(x) ? "NaN" : x > 0 ? "+inf" : "-inf";
}

nlohmann::json NumbersJson(const double* x, std::size_t n) {
  nlohmann::json a = nlohmann::json::array();
  for (std::size_t i = 0; i < n; ++i) a.push_back(NumberJson(x[i]));
  return a;
}

std::string DumpJson(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace);
}

std::string JsonPath(const std::string& parent, const std::string& key) {
  std::string escaped;
  for (char c : key) {
    if (c == '~') escaped += "~0";
    else if (c == '/') escaped += "~1";
    else escaped += c;
  }
  return parent + "/" + escaped;
}
std::string JsonPath(const std::string& parent, size_t index) { return parent + "/" + std::to_string(index); }

void JsonReader::Fail(const std::string& path, const std::string& reason) const { throw LoadError(file_, path, reason); }

namespace {
std::string TypeName(const nlohmann::json& v) {
  if (v.is_number_integer()) return "an integer";
  if (v.is_number()) return "a number";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  return std::string("a ") + v.type_name();
}
}  // namespace

void JsonReader::ExpectObject(const nlohmann::json& v, const std::string& path) const {
  if (!v.is_object()) Fail(path, "expected an object, found " + TypeName(v));
}

const nlohmann::json& JsonReader::Require(const nlohmann::json& obj, const std::string& path, const char* key) const {
  ExpectObject(obj, path);
  const auto it = obj.find(key);
  if (it == obj.end()) Fail(JsonPath(path, key), "required field is missing");
  return *it;
}

void JsonReader::ExpectArray(const nlohmann::json& v, const std::string& path, size_t min_size) const {
  if (!v.is_array()) Fail(path, "expected an array, found " + TypeName(v));
  if (v.size() < min_size)
    Fail(path, "expected at least " + std::to_string(min_size) + " element" + (min_size == 1 ? "" : "s") +
                   ", found " + std::to_string(v.size()));
}

std::string JsonReader::String(const nlohmann::json& v, const std::string& path) const {
  if (!v.is_string()) Fail(path, "expected a string, found " + TypeName(v));
  return v.get<std::string>();
}

LocalText JsonReader::Text(const nlohmann::json& v, const std::string& path) const {
  ExpectObject(v, path);
  Fields(v, path, {"zh", "en"});
  LocalText t;
  t.zh = String(Require(v, path, "zh"), JsonPath(path, "zh"));
  t.en = String(Require(v, path, "en"), JsonPath(path, "en"));
  if (t.zh.empty()) Fail(JsonPath(path, "zh"), "text is empty");
  if (t.en.empty()) Fail(JsonPath(path, "en"), "text is empty");
  return t;
}

namespace {
std::size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::string DidYouMean(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = 0;
  for (const auto& c : candidates) {
    const std::size_t d = EditDistance(word, c);
    if (best.empty() || d < best_d) best = c, best_d = d;
  }
  const std::size_t limit = std::min(word.size(), best.size()) <= 3 ? 1 : 2;
  return !best.empty() && best_d <= limit ? best : "";
}

void JsonReader::Fields(const nlohmann::json& obj, const std::string& path, std::initializer_list<const char*> known) const {
  FieldsIn(obj, path, std::vector<std::string>(known.begin(), known.end()));
}

void JsonReader::FieldsIn(const nlohmann::json& obj, const std::string& path, const std::vector<std::string>& names) const {
  ExpectObject(obj, path);
  for (const auto& [key, value] : obj.items()) {
    if (std::find(names.begin(), names.end(), key) != names.end()) continue;
    const std::string near = DidYouMean(key, names);
    std::string list;
    for (const auto& n : names)
      if (n != "$schema") list += (list.empty() ? "" : ", ") + n;
    Fail(JsonPath(path, key), near.empty() ? "unknown key (known here: " + list + ")"
                                           : "unknown key; did you mean " + JsonPath(path, near) + "?");
  }
}

double JsonReader::FiniteNumber(const nlohmann::json& v, const std::string& path) const {
  if (v.is_string()) {
    const auto s = v.get<std::string>();
    Fail(path, "expected a number, found the string \"" + s + "\"" +
                   (s == "NaN" || s == "Infinity" || s == "-Infinity" ? " (non-finite values are not allowed)" : ""));
  }
  if (!v.is_number()) Fail(path, "expected a number, found " + TypeName(v));
  const double d = v.get<double>();
  if (!std::isfinite(d)) Fail(path, "number is not finite (out of the double range?)");
  return d;
}

std::int64_t JsonReader::Integer(const nlohmann::json& v, const std::string& path, std::int64_t lo, std::int64_t hi) const {
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) Fail(path, "expected a whole number, found " + v.dump());
    // A whole number too large for a 64-bit integer arrives as a double: report the range.
    if (d < static_cast<double>(lo)) Fail(path, v.dump() + " is below the minimum " + std::to_string(lo));
    if (d > static_cast<double>(hi)) Fail(path, v.dump() + " is above the limit " + std::to_string(hi));
    return static_cast<std::int64_t>(d);  // 2.0 is 2 (JSON Schema 2020-12 counts it as an integer)
  }
  if (!v.is_number_integer()) Fail(path, "expected a whole number, found " + TypeName(v));
  std::int64_t x;
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(hi)) Fail(path, v.dump() + " is above the limit " + std::to_string(hi));
    x = static_cast<std::int64_t>(u);
  } else {
    x = v.get<std::int64_t>();
  }
  if (x < lo) Fail(path, std::to_string(x) + " is below the minimum " + std::to_string(lo));
  if (x > hi) Fail(path, std::to_string(x) + " is above the limit " + std::to_string(hi));
  return x;
}

void JsonReader::SchemaVersion(const nlohmann::json& doc, int expected) const {
  const auto& v = Require(doc, "", "schema_version");
  const auto got = Integer(v, "/schema_version", 1, 1000);
  if (got != expected)
    Fail("/schema_version", "this file is schema version " + std::to_string(got) + "; this reader expects " +
                                std::to_string(expected));
}

LocalText JsonReader::OpenScenario(const nlohmann::json& doc, const char* kind, int version,
                                   std::initializer_list<const char*> fields) const {
  ExpectObject(doc, "");
  std::vector<std::string> names = {"$schema", "schema_version", "kind", "title"};
  names.insert(names.end(), fields.begin(), fields.end());
  FieldsIn(doc, "", names);
  SchemaVersion(doc, version);
  const std::string found = String(Require(doc, "", "kind"), "/kind");
  if (found != kind) Fail("/kind", "expected \"" + std::string(kind) + "\", found \"" + found + "\"");
  return doc.contains("title") ? Text(doc["title"], "/title") : LocalText{};
}

bool InsideFolder(const std::filesystem::path& folder, const std::filesystem::path& child, std::error_code& ec) {
  const auto f = std::filesystem::weakly_canonical(folder, ec);
  if (ec) return false;
  const auto c = std::filesystem::weakly_canonical(child, ec);
  if (ec) return false;
  auto fi = f.begin(), ci = c.begin();
  for (; fi != f.end(); ++fi, ++ci)
    if (ci == c.end() || *fi != *ci) return false;
  return true;
}

}  // namespace bw::data
