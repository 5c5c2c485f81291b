// Course file v1 loader; see course.h for the format.
#include "data/course.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace bw::data {

Course LoadCourse(const std::filesystem::path& path) { return ParseCourse(ReadJsonFile(path), path); }

Course ParseCourse(const nlohmann::json& doc, const std::filesystem::path& path) {
  const std::string file = path.string();
  JsonReader r(file);
  r.ExpectObject(doc, "");
  r.Fields(doc, "", {"$schema", "schema_version", "id", "title", "lessons"});
  r.SchemaVersion(doc, 1);

  Course course;
  course.file = file;
  course.id = r.String(r.Require(doc, "", "id"), "/id");
  if (course.id.empty()) r.Fail("/id", "the course id is empty");
  course.title = r.Text(r.Require(doc, "", "title"), "/title");

  const auto folder = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  const auto& lessons = r.Require(doc, "", "lessons");
  r.ExpectArray(lessons, "/lessons", 1);
  if (lessons.size() > static_cast<size_t>(kMaxCourseLessons))
    r.Fail("/lessons", std::to_string(lessons.size()) + " lessons; the limit is " + std::to_string(kMaxCourseLessons));
  for (size_t i = 0; i < lessons.size(); ++i) {
    const std::string lp = JsonPath("/lessons", i);
    const auto& l = lessons[i];
    r.ExpectObject(l, lp);
    r.Fields(l, lp, {"file", "minutes", "covers"});
    CourseLesson cl;
    const std::string fp = JsonPath(lp, "file");
    cl.relative_path = r.String(r.Require(l, lp, "file"), fp);
    const std::filesystem::path rel(cl.relative_path);
    if (cl.relative_path.empty()) r.Fail(fp, "the lesson file name is empty");
    if (rel.is_absolute()) r.Fail(fp, "lesson path must be relative to the course file");
    cl.path = folder / rel;
    std::error_code ec;
    const bool inside = InsideFolder(folder, cl.path, ec);
    if (ec) r.Fail(fp, "lesson path cannot be resolved: " + ec.message());
    if (!inside) r.Fail(fp, "lesson path \"" + cl.relative_path + "\" leaves the course's folder");
    if (!std::filesystem::exists(cl.path, ec)) r.Fail(fp, "no lesson file \"" + cl.relative_path + "\" beside the course");
    if (!std::filesystem::is_regular_file(cl.path, ec))  // a folder, a FIFO, a device: never read (a FIFO would block)
      r.Fail(fp, "\"" + cl.relative_path + "\" is not a regular file");
    for (const auto& before : course.lessons)
      if (std::filesystem::equivalent(before.path, cl.path, ec))
        r.Fail(fp, "lesson \"" + cl.relative_path + "\" is listed twice");
    cl.minutes = static_cast<int>(r.Integer(r.Require(l, lp, "minutes"), JsonPath(lp, "minutes"), 1, kMaxLessonMinutes));
    cl.covers = r.Text(r.Require(l, lp, "covers"), JsonPath(lp, "covers"));
    course.lessons.push_back(std::move(cl));
  }
  return course;
}

}  // namespace bw::data
