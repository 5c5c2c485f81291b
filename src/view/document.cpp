// See document.h.
#include "view/document.h"

#include "data/json_file.h"

namespace bw::view {

OpenedDocument OpenDocument(const std::filesystem::path& path) {
  OpenedDocument d;
  const auto doc = data::ReadJsonFile(path.string());
  if (doc.is_object() && doc.contains("steps")) {
    d.lesson = LoadLessonModel(path);
  } else if (data::IsCourseDocument(doc)) {
    d.course = LoadCourseModel(path);
    d.lesson = LoadLessonModel(d.course->course.lessons.front().path);
  } else {
    d.scenario = ParseScenarioModel(doc, path.string());
  }
  return d;
}

}  // namespace bw::view
