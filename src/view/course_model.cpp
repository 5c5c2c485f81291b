// See course_model.h.
#include "view/course_model.h"

#include "data/document_kind.h"
#include "data/json_file.h"

namespace bw::view {

CourseStep CourseModel::FindStep(const std::string& step_id) const {
  for (int i = 0; i < LessonCount(); ++i)
    if (const int k = outlines[static_cast<size_t>(i)].FindStep(step_id); k >= 0) return {i, k};
  return {};
}

int CourseModel::FindLesson(const std::filesystem::path& path) const {
  std::error_code ec;
  for (int i = 0; i < LessonCount(); ++i)
    if (std::filesystem::equivalent(course.lessons[static_cast<size_t>(i)].path, path, ec)) return i;
  return -1;
}

int CourseModel::TotalMinutes() const {
  int m = 0;
  for (const auto& l : course.lessons) m += l.minutes;
  return m;
}

CourseModel LoadCourseModel(const std::filesystem::path& path) { return ParseCourseModel(data::ReadJsonFile(path), path); }

CourseModel ParseCourseModel(const nlohmann::json& doc, const std::filesystem::path& path) {
  CourseModel m;
  m.course = data::ParseCourse(doc, path);
  for (size_t i = 0; i < m.course.lessons.size(); ++i) {
    const std::string file_path = data::JsonPath(data::JsonPath("/lessons", i), "file");
    const auto& lesson_path = m.course.lessons[i].path;
    const auto lesson_doc = data::ReadJsonFile(lesson_path);
    if (data::KindOfDocument(lesson_doc) != data::DocumentKind::kLesson)
      throw data::LoadError(m.course.file, file_path, "\"" + m.course.lessons[i].relative_path + "\" is not a lesson (a lesson file has \"steps\")");
    data::Lesson outline = data::ParseLesson(lesson_doc, lesson_path);  // its errors name the lesson's own file
    for (const auto& st : outline.steps)
      if (const CourseStep at = m.FindStep(st.id); at.lesson >= 0)
        throw data::LoadError(m.course.file, file_path,
                              "step id \"" + st.id + "\" is also a step of lesson \"" + m.outlines[static_cast<size_t>(at.lesson)].id +
                                  "\"; a step id names one step of the course");
    m.outlines.push_back(std::move(outline));
  }
  return m;
}

}  // namespace bw::view
