// Where Blockwise's JSON schemas live on the web: each schema's "$id" is kSchemaBaseUrl + its file name
// (schemas/lesson-v1.schema.json → https://blockwise.invalid/schemas/lesson-v1.schema.json), and the web
// edition serves schemas/ beside index.html at that path, so a "$schema" written as this URL means the
// same file wherever the document goes (a relative "../schemas/…" breaks when a file is sent or
// unpacked from a bundle). tests/data/schema_url_test.cpp holds every schema's $id to this rule.
// The project has no web host yet: the domain is the reserved .invalid (RFC 2606), which never
// resolves; moving to a real host changes this constant and the schemas' $ids (the test names each
// one that differs). Until then an editor maps the URL to the local file (docs/authoring.md §"$schema").
#pragma once

#include <string>
#include <string_view>

namespace bw::data {

inline constexpr std::string_view kSchemaBaseUrl = "https://blockwise.invalid/schemas/";

// kSchemaBaseUrl + `schema_file` ("lesson-v1.schema.json").
inline std::string SchemaUrl(std::string_view schema_file) {
  return std::string(kSchemaBaseUrl) + std::string(schema_file);
}

// The portable form of a document's "$schema": a reference ending in "/NAME.schema.json" or equal to
// "NAME.schema.json" (a relative path such as "../../schemas/scenario-v1.schema.json", or the URL
// already) becomes SchemaUrl("NAME.schema.json"); anything else is returned as it was.
std::string PortableSchemaRef(std::string_view ref);

}  // namespace bw::data
