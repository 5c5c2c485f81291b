// The library: what there is to teach, as data for the start screen and the Ctrl+O dialog — the
// course's lessons in teaching order (title, what each covers, steps, planned minutes), then other
// lessons, then scenarios, each with its title in both languages — and the one filter rule both use
// (type to filter: every word of the query, case-insensitive, in the id, either title or the file name).
#pragma once

#include <string>
#include <vector>

#include "data/json_file.h"
#include "view/course_model.h"

namespace bw::view {

struct LibraryEntry {
  enum class Kind { kLesson, kScenario } kind = Kind::kLesson;
  std::string path;            // the file to open
  std::string id;              // a lesson's id ("N50"); "" for a scenario
  data::LocalText title;       // a lesson's or scenario's own title; the file name when it has none
  data::LocalText covers;      // a course lesson's "covers" (title cards); empty otherwise
  int steps = 0, minutes = 0;  // a lesson's step count; a course lesson's planned minutes (0: none)
  int course_lesson = -1;      // its index in the course, or -1
};

// The entries for `files` (lessons and scenarios; a course file is not an entry, its lessons are):
// the course's lessons first, in its order, then the other lessons and the scenarios by file name.
// A file that does not read as JSON is left out (opening it says why).
std::vector<LibraryEntry> BuildLibrary(const std::vector<std::string>& files, const CourseModel* course);

// Every whitespace-separated word of `query` occurs (ASCII case folded) in the entry's id, its zh or
// en title or its file name. An empty query matches everything.
bool LibraryMatches(const LibraryEntry& e, const std::string& query);

}  // namespace bw::view
