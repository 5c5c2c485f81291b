// See schema_url.h.
#include "data/schema_url.h"

namespace bw::data {

std::string PortableSchemaRef(std::string_view ref) {
  constexpr std::string_view kSuffix = ".schema.json";
  if (ref.size() <= kSuffix.size() || ref.substr(ref.size() - kSuffix.size()) != kSuffix) return std::string(ref);
  const size_t slash = ref.find_last_of('/');
  const std::string_view name = slash == std::string_view::npos ? ref : ref.substr(slash + 1);
  if (name.size() <= kSuffix.size()) return std::string(ref);
  return SchemaUrl(name);
}

}  // namespace bw::data
