// JSON reading with one-line errors; see json_file.h.
#include "data/json_file.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace bw::data {

nlohmann::json ParseJsonText(std::string text, const std::string& file) {
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
      static_cast<unsigned char>(text[1]) == 0xBB && static_cast<unsigned char>(text[2]) == 0xBF)
    text.erase(0, 3);  // UTF-8 byte-order mark
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.what() is "[json.exception.parse_error.101] parse error at line L, column C: ..."; keep the tail.
    std::string msg = e.what();
    const auto pos = msg.find("] ");
    if (pos != std::string::npos) msg = msg.substr(pos + 2);
    throw LoadError(file, "", "malformed JSON: " + msg);
  }
}

nlohmann::json ReadJsonFile(const std::filesystem::path& path) {
  const std::string file = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw LoadError(file, "", "file not found");
  if (std::filesystem::is_directory(path, ec)) throw LoadError(file, "", "is a folder, not a file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw LoadError(file, "", "cannot read: " + ec.message());
  if (size > kMaxFileBytes)
    throw LoadError(file, "", "file is " + std::to_string(size) + " bytes; the limit is " +
                                  std::to_string(kMaxFileBytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(file, "", "cannot open for reading");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ParseJsonText(ss.str(), file);
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
    Fail(path, "expected a whole number written without a fraction, found " + v.dump());
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

}  // namespace bw::data
