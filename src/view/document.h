// OpenDocument: the one place that opens a file of any kind. The app's File ▸ Open, `blockwise-cli
// check` and the bad-input corpus test all open files through it, so they cannot disagree. The file
// is read once and its kind decided once (data::KindOfDocument): a lesson (LoadLessonModel on the
// parsed lesson), a course (ParseCourseModel, and its first lesson's outline opened as a lesson), a
// bundle (unpacked, then its main file opened by these same rules) or a scenario (ParseScenarioModel,
// which dispatches on its "kind").
#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "view/course_model.h"
#include "view/lesson_model.h"

namespace bw::view {

struct OpenedDocument {
  std::optional<LessonModel> lesson;               // set for a lesson, and for a course (its first lesson)
  std::optional<CourseModel> course;               // set for a course
  std::shared_ptr<const ScenarioModel> scenario;   // set for a scenario
  // Set when `path` was a bundle (data/bundle.h): the lesson, course or scenario above came from its
  // files, unpacked under the temporary folder (their paths are there).
  std::optional<std::filesystem::path> bundle;
};

// Throws data::LoadError (file, JSON path, reason) for a bad file, and whatever the engine throws
// (engine::ValidationError) for a problem it refuses.
// Models are built under `options` (ModelOptions: the app's, or the default).
OpenedDocument OpenDocument(const std::filesystem::path& path, const ModelOptions& options = {});

}  // namespace bw::view
