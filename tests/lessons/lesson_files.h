// The shipped lessons and scenarios, found on disk (lessons/*.json but the course, lessons/scenarios/*.json,
// assets/scenarios/*.json) so a new file is tested without editing any list.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace bw::lessons_test {

inline const std::string kRoot = BLOCKWISE_ROOT;

inline std::vector<std::filesystem::path> JsonFilesIn(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::is_directory(dir)) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// lessons/course.json is the shipped course (data/course.h), not a lesson.
inline const std::string kCourseFile = kRoot + "/lessons/course.json";

inline std::vector<std::filesystem::path> ShippedLessons() {
  auto all = JsonFilesIn(kRoot + "/lessons");
  all.erase(std::remove(all.begin(), all.end(), std::filesystem::path(kCourseFile)), all.end());
  return all;
}

inline std::vector<std::filesystem::path> ShippedScenarios() {
  auto a = JsonFilesIn(kRoot + "/lessons/scenarios");
  const auto b = JsonFilesIn(kRoot + "/assets/scenarios");
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace bw::lessons_test
