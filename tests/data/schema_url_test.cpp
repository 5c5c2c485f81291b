// Schemas travel (issue 32): every schema's "$id" is the URL data::SchemaUrl gives its file name, the
// URL the web edition serves it at; a packed bundle names each file's schema by that URL, never by a
// relative path that breaks once the file moves.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "data/bundle.h"
#include "data/json_file.h"
#include "data/schema_url.h"

namespace fs = std::filesystem;
using bw::data::PortableSchemaRef;
using bw::data::SchemaUrl;

namespace {
const fs::path kRoot = BLOCKWISE_ROOT;

void CollectSchemaRefs(const nlohmann::json& j, std::set<std::string>& out) {
  if (!j.is_object()) return;
  if (j.contains("$schema") && j["$schema"].is_string()) out.insert(j["$schema"].get<std::string>());
}
}  // namespace

TEST(SchemaUrl, EverySchemasIdIsItsUrl) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(kRoot / "schemas")) {
    const std::string name = e.path().filename().string();
    if (!name.ends_with(".schema.json")) continue;
    std::ifstream in(e.path());
    const nlohmann::json s = nlohmann::json::parse(in);  // (not ReadJsonFile: a schema's pattern may name U+0000)
    ASSERT_TRUE(s.contains("$id")) << name;
    EXPECT_EQ(s["$id"], SchemaUrl(name)) << name;
    ++n;
  }
  EXPECT_EQ(n, 12);  // bundle, class-message, course, lesson, seven scenario kinds and the GPU recording
}

TEST(SchemaUrl, PortableRefs) {
  EXPECT_EQ(PortableSchemaRef("../../schemas/scenario-v1.schema.json"), "https://blockwise.invalid/schemas/scenario-v1.schema.json");
  EXPECT_EQ(PortableSchemaRef("lesson-v1.schema.json"), "https://blockwise.invalid/schemas/lesson-v1.schema.json");
  EXPECT_EQ(PortableSchemaRef(SchemaUrl("course-v1.schema.json")), SchemaUrl("course-v1.schema.json"));
  EXPECT_EQ(PortableSchemaRef("urn:blockwise:schema:lesson-v1"), "urn:blockwise:schema:lesson-v1");  // not a file name: kept
  EXPECT_EQ(PortableSchemaRef(".schema.json"), ".schema.json");
  EXPECT_EQ(PortableSchemaRef("a/.schema.json"), "a/.schema.json");
  EXPECT_EQ(PortableSchemaRef(""), "");
}

// Every shipped lesson's and scenario's relative "$schema" names a schema that exists beside it, and
// packing the course writes only URLs of existing schemas.
TEST(SchemaUrl, ABundleNamesEachSchemaByUrl) {
  const nlohmann::json b = bw::data::PackBundle(kRoot / "lessons" / "course.json");
  std::set<std::string> refs;
  CollectSchemaRefs(b, refs);
  for (const auto& [path, doc] : b["files"].items()) {
    if (path.starts_with("recordings/")) continue;  // a gpu_run scenario's recordings (assets/gpu/): no "$schema"
    const fs::path original = kRoot / "lessons" / path;
    const nlohmann::json before = bw::data::ReadJsonFile(original);
    if (before.contains("$schema")) {
      const std::string rel = before["$schema"].get<std::string>();
      EXPECT_TRUE(fs::exists(original.parent_path() / rel)) << path << ": " << rel;
      ASSERT_TRUE(doc.contains("$schema")) << path;
      EXPECT_EQ(doc["$schema"], PortableSchemaRef(rel)) << path;
    }
    CollectSchemaRefs(doc, refs);
  }
  EXPECT_GE(refs.size(), 6u);  // bundle, course, lesson and at least three scenario kinds
  for (const std::string& r : refs) {
    ASSERT_TRUE(r.starts_with(bw::data::kSchemaBaseUrl)) << r;
    EXPECT_TRUE(fs::exists(kRoot / "schemas" / r.substr(bw::data::kSchemaBaseUrl.size()))) << r;
  }
}
