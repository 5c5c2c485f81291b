// See bundle.h.
#include "data/bundle.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <set>

#include "data/course.h"
#include "data/document_kind.h"
#include "data/json_file.h"
#include "data/lesson.h"
#include "data/load_error.h"

namespace bw::data {

namespace {

// Why `p` cannot name a file in a bundle ("" when it can).
std::string BadPath(const std::string& p) {
  if (p.empty()) return "the path is empty";
  if (p.size() > 512) return "the path is longer than 512 bytes";
  if (p.find('\\') != std::string::npos) return "the path holds a backslash (use \"/\")";
  if (p.find('\0') != std::string::npos) return "the path holds a NUL";
  if (p.front() == '/') return "the path is absolute (it must be relative to the bundle)";
  size_t from = 0;
  while (true) {
    const size_t slash = p.find('/', from);
    const std::string part = p.substr(from, slash == std::string::npos ? std::string::npos : slash - from);
    if (part.empty()) return "the path has an empty part (\"//\" or a trailing \"/\")";
    if (part == "." || part == "..") return "the path has a \"" + part + "\" part (each file lies inside the bundle)";
    if (slash == std::string::npos) break;
    from = slash + 1;
  }
  return "";
}

// A gpu_run scenario (gpu_run_scenario.h) names recordings by paths relative to itself, usually
// outside the lesson's folder (../../assets/gpu/…): the bundle holds each under "recordings/<its file
// name>" and the packed scenario names that path instead.
void AddRecordings(nlohmann::json& files, const std::string& rel, const std::filesystem::path& scenario) {
  auto& sc = files[rel];
  if (!sc.is_object() || sc.value("kind", "") != "gpu_run") return;
  const size_t depth = static_cast<size_t>(std::count(rel.begin(), rel.end(), '/'));
  std::string up;
  for (size_t i = 0; i < depth; ++i) up += "../";
  for (const char* key : {"recording", "compare"}) {
    if (!sc.contains(key) || !sc[key].is_string()) continue;
    const std::filesystem::path from = scenario.parent_path() / sc[key].get<std::string>();
    const std::string inside = "recordings/" + from.filename().string();
    if (!files.contains(inside)) files[inside] = ReadJsonFile(from);
    sc[key] = up + inside;
  }
}

}  // namespace

std::string RelativePathInside(const std::filesystem::path& folder, const std::filesystem::path& p) {
  std::error_code ec;
  const auto f = std::filesystem::absolute(folder, ec), q = std::filesystem::absolute(p, ec);
  if (ec) return "";
  const auto rel = q.lexically_normal().lexically_relative(f.lexically_normal());
  const std::string s = rel.generic_string();
  if (rel.empty() || s == "." || s.rfind("..", 0) == 0) return "";
  return s;
}


Bundle ParseBundle(const nlohmann::json& doc, const std::string& file) {
  const JsonReader r(file);
  r.ExpectObject(doc, "");
  r.Fields(doc, "", {"$schema", "schema_version", "main", "files"});
  r.SchemaVersion(doc, kBundleVersion);
  Bundle b;
  b.main = r.String(r.Require(doc, "", "main"), "/main");
  const auto& files = r.Require(doc, "", "files");
  r.ExpectObject(files, "/files");
  if (files.empty()) r.Fail("/files", "a bundle holds at least its main file");
  if (files.size() > kMaxBundleFiles)
    r.Fail("/files", "a bundle holds at most " + std::to_string(kMaxBundleFiles) + " files; this one has " + std::to_string(files.size()));
  for (const auto& [path, d] : files.items()) {
    const std::string jp = JsonPath("/files", path);
    if (const std::string why = BadPath(path); !why.empty()) r.Fail(jp, why);
    if (!d.is_object()) r.Fail(jp, "each file of a bundle is a JSON object (a lesson, a course or a scenario)");
    if (KindOfDocument(d) == DocumentKind::kBundle) r.Fail(jp, "a bundle cannot hold another bundle");
    b.files.emplace(path, d);
  }
  // A path that is also another's folder ("a.json" and "a.json/b.json") cannot both be written.
  for (const auto& [path, d] : b.files)
    for (auto it = b.files.lower_bound(path + "/"); it != b.files.end() && it->first.rfind(path + "/", 0) == 0; ++it)
      r.Fail(JsonPath("/files", it->first), "\"" + path + "\" is a file of the bundle, not a folder");
  if (!b.files.count(b.main)) {
    std::string names;
    for (const auto& [path, d] : b.files) names += (names.empty() ? "" : ", ") + path;
    r.Fail("/main", "\"" + b.main + "\" is not one of the bundle's files (" + names + ")");
  }
  return b;
}

Unpacked UnpackBundle(const Bundle& b, const std::string& file, const std::filesystem::path& parent) {
  std::error_code ec;
  std::filesystem::path base = parent.empty() ? std::filesystem::temp_directory_path(ec) : parent;
  if (!ec) base = std::filesystem::absolute(base, ec);
  if (ec) throw LoadError(file, "", "no temporary folder to open the bundle in: " + ec.message());
  // A folder of its own each time (a name no other process picked), so that two bundles, or the same
  // one opened twice, never share files.
  std::random_device rd;
  std::filesystem::path folder;
  for (int attempt = 0;; ++attempt) {
    char name[40];
    std::snprintf(name, sizeof name, "blockwise-bundle-%08x%08x", rd(), rd());
    folder = base / name;
    if (std::filesystem::create_directory(folder, ec)) break;
    if (ec || attempt > 8) throw LoadError(file, "", "cannot make a folder for the bundle in " + base.string() + (ec ? ": " + ec.message() : ""));
  }
  for (const auto& [path, d] : b.files) {
    const std::filesystem::path out = folder / std::filesystem::path(path);
    std::filesystem::create_directories(out.parent_path(), ec);
    if (ec) throw LoadError(file, JsonPath("/files", path), "cannot unpack: " + ec.message());
    std::ofstream f(out, std::ios::binary);
    f << DumpJson(d, 2);
    f.close();
    if (!f) throw LoadError(file, JsonPath("/files", path), "cannot unpack: writing " + out.string() + " failed");
  }
  return {folder, folder / std::filesystem::path(b.main)};
}

LoadError RebaseError(const LoadError& e, const std::filesystem::path& folder, const std::string& bundle_file) {
  const std::string inside = RelativePathInside(folder, std::filesystem::path(e.file()));
  if (inside.empty()) return e;
  // (A reason may name another file of the bundle by its unpacked path: it is named as in the bundle.)
  std::string reason = e.reason();
  std::error_code ec;
  const std::string prefix = (std::filesystem::absolute(folder, ec).lexically_normal() / "").string();
  for (size_t at; !prefix.empty() && (at = reason.find(prefix)) != std::string::npos;) reason.erase(at, prefix.size());
  return LoadError(bundle_file, JsonPath("/files", inside) + e.json_path(), reason);
}

nlohmann::json PackBundle(const std::filesystem::path& path) {
  const std::filesystem::path folder = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  const std::string file = path.string();
  const nlohmann::json main = ReadJsonFile(path);
  if (KindOfDocument(main) == DocumentKind::kBundle) throw LoadError(file, "", "already a bundle");
  nlohmann::json files = nlohmann::json::object();
  const auto add = [&](const std::filesystem::path& p, const nlohmann::json* doc) {
    const std::string rel = RelativePathInside(folder, p);
    if (rel.empty()) throw LoadError(file, "", p.string() + " lies outside " + folder.string() + ": a bundle holds the files of one folder");
    if (files.contains(rel)) return;
    files[rel] = doc ? *doc : ReadJsonFile(p);
    // A relative "$schema" ("../schemas/lesson-v1.schema.json") means nothing once the file travels: the
    // packed file names its schema by URL (schema_url.h).
    auto& s = files[rel];
    if (s.is_object() && s.contains("$schema") && s["$schema"].is_string())
      s["$schema"] = PortableSchemaRef(s["$schema"].get<std::string>());
  };
  const auto add_lesson = [&](const std::filesystem::path& p, const nlohmann::json* doc) {
    add(p, doc);
    for (const auto& [name, ref] : LoadLesson(p).scenarios) {
      add(ref.path, nullptr);
      AddRecordings(files, RelativePathInside(folder, ref.path), ref.path);
    }
  };
  if (KindOfDocument(main) == DocumentKind::kCourse) {
    add(path, &main);
    for (const auto& l : ParseCourse(main, path).lessons) add_lesson(l.path, nullptr);
  } else if (KindOfDocument(main) == DocumentKind::kLesson) {
    add_lesson(path, &main);
  } else {
    throw LoadError(file, "", "not a lesson or a course: a bundle is made of one of them and the files it names");
  }
  if (files.size() > kMaxBundleFiles)
    throw LoadError(file, "", "names " + std::to_string(files.size()) + " files; a bundle holds at most " + std::to_string(kMaxBundleFiles));
  return {{"$schema", kBundleSchemaUrl},
          {"schema_version", kBundleVersion},
          {"main", RelativePathInside(folder, path)},
          {"files", files}};
}

}  // namespace bw::data
