// The one rule that tells the kinds of Blockwise file apart, from the parsed document: view::OpenDocument,
// the library, a course's lessons and bundles decide through it (and nothing else looks at the keys).
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace bw::data {

enum class DocumentKind {
  kLesson,    // an object with "steps" (lesson.h)
  kCourse,    // an object with "lessons", without "steps" (course.h)
  kBundle,    // an object with "files", without "steps" or "lessons" (bundle.h)
  kScenario,  // anything else: a scenario, whose "kind" picks its loader (view::ParseScenarioData)
};
DocumentKind KindOfDocument(const nlohmann::json& doc);

}  // namespace bw::data
