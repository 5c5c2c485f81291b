// See document.h.
#include "view/document.h"

#include "data/bundle.h"
#include "data/json_file.h"

namespace bw::view {

OpenedDocument OpenDocument(const std::filesystem::path& path) {
  OpenedDocument d;
  const auto doc = data::ReadJsonFile(path.string());
  if (doc.is_object() && doc.contains("steps")) {
    d.lesson = LoadLessonModel(path);
  } else if (data::IsBundleDocument(doc)) {
    // Unpacked into a folder of its own and opened from there with the same loaders; an error in one
    // of its files is told against the bundle (/files/<path>/…). Nothing is returned unless it all loads.
    const auto unpacked = data::UnpackBundle(data::ParseBundle(doc, path.string()), path.string());
    try {
      d = OpenDocument(unpacked.main);
    } catch (const data::LoadError& e) {
      throw data::RebaseError(e, unpacked.folder, path.string());
    }
    d.bundle = path;
  } else if (data::IsCourseDocument(doc)) {
    d.course = LoadCourseModel(path);
    d.lesson = LoadLessonModel(d.course->course.lessons.front().path);
  } else {
    d.scenario = ParseScenarioModel(doc, path.string());
  }
  return d;
}

}  // namespace bw::view
