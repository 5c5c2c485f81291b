// CourseModel: a course file (data/course.h) with every lesson's outline read — its id, title and
// steps, not its scenarios (those load when the lesson is opened: LoadLessonModel) — for the title
// cards between lessons, the presenter's outline, the library and `--step ID` (which lesson owns a
// step id). Loading fails as a whole (LoadError) if a lesson file does not load as a lesson or two
// lessons share a step id (a step id names one step of the whole course).
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "data/course.h"
#include "data/lesson.h"

namespace bw::view {

struct CourseStep {
  int lesson = -1, step = -1;  // indices into CourseModel::outlines and its steps; -1 = none
};

struct CourseModel {
  data::Course course;
  std::vector<data::Lesson> outlines;  // [lesson] as data::LoadLesson read it, in the course's order

  int LessonCount() const { return static_cast<int>(outlines.size()); }
  // The lesson and step of the step with this id, or {-1, -1}.
  CourseStep FindStep(const std::string& step_id) const;
  // The lesson whose file is `path` (the same file, however written), or -1.
  int FindLesson(const std::filesystem::path& path) const;
  int TotalMinutes() const;
};

CourseModel LoadCourseModel(const std::filesystem::path& path);
// The same for the course `doc`, already read from `path`: each lesson file is read once.
CourseModel ParseCourseModel(const nlohmann::json& doc, const std::filesystem::path& path);

}  // namespace bw::view
