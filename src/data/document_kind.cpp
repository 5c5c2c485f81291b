// See document_kind.h.
#include "data/document_kind.h"

#include <nlohmann/json.hpp>

namespace bw::data {

DocumentKind KindOfDocument(const nlohmann::json& doc) {
  if (!doc.is_object()) return DocumentKind::kScenario;
  if (doc.contains("steps")) return DocumentKind::kLesson;
  if (doc.contains("lessons")) return DocumentKind::kCourse;
  if (doc.contains("files")) return DocumentKind::kBundle;
  return DocumentKind::kScenario;
}

}  // namespace bw::data
