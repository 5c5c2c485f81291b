// Course file v1: a lecture as a playlist of lessons, in teaching order.
//   { "$schema": "../schemas/course-v1.schema.json", "schema_version": 1, "id": "FLASH",
//     "title": {"zh","en"},
//     "lessons": [ { "file": "rc-t3.json",            — relative to the course file, never outside
//                                                       its folder; each lesson once
//                    "minutes": 8,                    — the time the teacher plans for it (1–240)
//                    "covers": {"zh","en"} }, … ] }  — one or two sentences for the title card
// The app plays a course lesson after lesson: PageDown on a lesson's last step shows the next
// lesson's title card (app_state.h). Errors: LoadError (file, JSON path, reason). This loader checks
// the format and that each lesson file exists; view::LoadCourseModel reads each lesson's outline.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "data/json_file.h"

namespace bw::data {

inline constexpr int kMaxCourseLessons = 64;
inline constexpr int kMaxLessonMinutes = 240;

struct CourseLesson {
  std::string relative_path;     // as written in the course
  std::filesystem::path path;    // resolved, inside the course's folder
  int minutes = 0;               // planned minutes, 1–240
  LocalText covers;              // what the lesson covers, for its title card
};

struct Course {
  std::string file;
  std::string id;
  LocalText title;
  std::vector<CourseLesson> lessons;  // 1–64, in teaching order
};

Course LoadCourse(const std::filesystem::path& path);
// The same for `doc`, already read from `path` (a file is read once: view::OpenDocument).
Course ParseCourse(const nlohmann::json& doc, const std::filesystem::path& path);

}  // namespace bw::data
