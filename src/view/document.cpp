// See document.h.
#include "view/document.h"

#include "data/bundle.h"
#include "data/document_kind.h"
#include "data/json_file.h"

namespace bw::view {

OpenedDocument OpenDocument(const std::filesystem::path& path, const ModelOptions& options) {
  OpenedDocument d;
  const auto doc = data::ReadJsonFile(path.string());
  const data::DocumentKind kind = data::KindOfDocument(doc);
  if (kind == data::DocumentKind::kLesson) {
    d.lesson = LoadLessonModel(data::ParseLesson(doc, path), options);
  } else if (kind == data::DocumentKind::kBundle) {
    // Unpacked into a folder of its own and opened from there with the same loaders; an error in one
    // of its files is told against the bundle (/files/<path>/…). Nothing is returned unless it all loads.
    const auto unpacked = data::UnpackBundle(data::ParseBundle(doc, path.string()), path.string());
    try {
      d = OpenDocument(unpacked.main, options);
    } catch (const data::LoadError& e) {
      throw data::RebaseError(e, unpacked.folder, path.string());
    }
    d.bundle = path;
  } else if (kind == data::DocumentKind::kCourse) {
    d.course = ParseCourseModel(doc, path);
    d.lesson = LoadLessonModel(d.course->outlines.front(), options);   // the outline read: not again
  } else {
    d.scenario = ParseScenarioModel(doc, path.string(), options);
  }
  return d;
}

}  // namespace bw::view
