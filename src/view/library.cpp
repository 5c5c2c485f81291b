// See library.h.
#include "view/library.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "data/document_kind.h"

namespace bw::view {

namespace {

std::string Folded(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

data::LocalText TitleOf(const nlohmann::json& doc, const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  data::LocalText t{name, name};
  if (doc.is_object() && doc.contains("title") && doc["title"].is_object()) {
    const auto& j = doc["title"];
    if (j.contains("zh") && j["zh"].is_string()) t.zh = j["zh"].get<std::string>();
    if (j.contains("en") && j["en"].is_string()) t.en = j["en"].get<std::string>();
  }
  return t;
}

}  // namespace

std::vector<LibraryEntry> BuildLibrary(const std::vector<std::string>& files, const CourseModel* course) {
  std::vector<LibraryEntry> lessons_in_course, others;
  if (course)
    for (int i = 0; i < course->LessonCount(); ++i) {
      const auto& o = course->outlines[static_cast<size_t>(i)];
      const auto& l = course->course.lessons[static_cast<size_t>(i)];
      lessons_in_course.push_back({LibraryEntry::Kind::kLesson, l.path.string(), o.id, o.title, l.covers,
                                   static_cast<int>(o.steps.size()), l.minutes, i});
    }
  std::vector<std::string> sorted = files;
  std::sort(sorted.begin(), sorted.end());
  for (const auto& f : sorted) {
    if (course && course->FindLesson(f) >= 0) continue;  // listed above, in teaching order
    nlohmann::json doc;
    try {
      doc = data::ReadJsonFile(f);
    } catch (const std::exception&) {
      continue;
    }
    const data::DocumentKind kind = data::KindOfDocument(doc);
    if (kind == data::DocumentKind::kCourse) continue;
    LibraryEntry e;
    e.path = f;
    e.title = TitleOf(doc, f);
    if (kind == data::DocumentKind::kLesson) {
      e.kind = LibraryEntry::Kind::kLesson;
      if (doc.contains("id") && doc["id"].is_string()) e.id = doc["id"].get<std::string>();
      if (doc["steps"].is_array()) e.steps = static_cast<int>(doc["steps"].size());
    } else {
      e.kind = LibraryEntry::Kind::kScenario;
    }
    others.push_back(std::move(e));
  }
  // Lessons before scenarios (stable: by file name within each).
  std::stable_partition(others.begin(), others.end(), [](const LibraryEntry& e) { return e.kind == LibraryEntry::Kind::kLesson; });
  lessons_in_course.insert(lessons_in_course.end(), others.begin(), others.end());
  return lessons_in_course;
}

bool LibraryMatches(const LibraryEntry& e, const std::string& query) {
  const std::string hay = Folded(e.id + "\n" + e.title.zh + "\n" + e.title.en + "\n" + std::filesystem::path(e.path).filename().string());
  std::istringstream words(query);
  std::string w;
  while (words >> w)
    if (hay.find(Folded(w)) == std::string::npos) return false;
  return true;
}

}  // namespace bw::view
