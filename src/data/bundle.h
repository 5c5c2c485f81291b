// Lesson bundle v1: a lesson or a course with every file it names, as one JSON document — what a
// teacher sends or links (issue 32: a lesson was a folder, and the web edition could open one file).
//   { "$schema": "https://blockwise.invalid/schemas/bundle-v1.schema.json", "schema_version": 1,
//     "main": "rc-t3.json",                               — the lesson or course to open
//     "files": { "rc-t3.json": { …the lesson… },          — each document under the path the others
//                "scenarios/worked_214.json": { … } } }      use for it (relative, "/"-separated)
// Why JSON and not a zip: every document in it is JSON already, so a bundle is one more document the
// loaders' rules cover (size, depth, duplicate keys, UTF-8), it needs no archive library in the app or
// the web edition, an author can read and diff it, and an error inside it is named by a JSON path
// ("/files/scenarios~1worked_214.json/weights/2").
// Opening a bundle (view::OpenDocument) writes its files into a folder of their own under the
// temporary directory and opens "main" from there with the loaders every file goes through; errors
// in them are then reported against the bundle (RebaseError). Nothing is shown unless the whole
// bundle loads.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "data/load_error.h"
#include "data/schema_url.h"

namespace bw::data {

inline constexpr int kBundleVersion = 1;
// What PackBundle writes as "$schema" (the file type's magic: packaging/blockwise-mime.xml): the schema's
// URL (schema_url.h), equal to schemas/bundle-v1.schema.json's "$id".
inline const std::string kBundleSchemaUrl = SchemaUrl("bundle-v1.schema.json");
inline constexpr std::size_t kMaxBundleFiles = 256;   // a course of 64 lessons, each with a few scenarios

struct Bundle {
  std::string main;                                // a key of `files`
  std::map<std::string, nlohmann::json> files;     // path ("scenarios/x.json") → document
};

// Checks `doc` (read from `file`) as a bundle: the version, "main" naming one of "files", every path
// relative, "/"-separated, without "." or ".." parts, empty parts or a backslash, at most
// kMaxBundleFiles files, each a JSON object, and no bundle inside a bundle. Throws LoadError.
Bundle ParseBundle(const nlohmann::json& doc, const std::string& file);

// Writes `b`'s files under a new folder of their own in `parent` (the system's temporary directory when
// empty). Throws LoadError (file = `file`) when they cannot be written.
struct Unpacked {
  std::filesystem::path folder;   // the new folder (absolute)
  std::filesystem::path main;     // folder / Bundle::main
};
Unpacked UnpackBundle(const Bundle& b, const std::string& file, const std::filesystem::path& parent = {});

// An error met while loading an unpacked bundle, told against the bundle: a file under `folder` (the
// folder UnpackBundle made) becomes `bundle_file` and its JSON path goes under /files/<path>.
// Errors about other files are returned as they were.
LoadError RebaseError(const LoadError& e, const std::filesystem::path& folder, const std::string& bundle_file);

// `p` relative to `folder`, "/"-separated ("scenarios/x.json"), or "" when it is not inside it (both
// made absolute first; symbolic links are not followed): the path a bundle, or a lesson, names a file by.
std::string RelativePathInside(const std::filesystem::path& folder, const std::filesystem::path& p);

// Packs the lesson or course at `path` and every file it names (a course's lessons, each lesson's
// scenarios) into a bundle; the paths are those relative to `path`'s folder, which every named file
// must lie in (the loaders already refuse one outside it). Loads nothing but reads each file as JSON;
// blockwise-cli bundle then checks the result by opening it. Throws LoadError.
nlohmann::json PackBundle(const std::filesystem::path& path);

}  // namespace bw::data
