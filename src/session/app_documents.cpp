// AppState's documents (see app_state.h): opening a lesson, a course, a bundle or a scenario and the
// library's entries, watching the file shown and reloading it when it changes on disk (keeping what
// the class has seen), and the editor's edits, kept until saved or reverted.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <set>
#include <utility>

#include "data/json_file.h"
#include "data/user_file.h"
#include "session/app_state.h"
#include "session/shown.h"
#include "view/document.h"

namespace bw::app {

namespace {

// The current lesson's revealed steps by id, and back (a step id that is gone is dropped).
std::set<std::string> RevealedIds(const AppState& s) {
  std::set<std::string> ids;
  for (const int k : s.ui.revealed_steps)
    if (k >= 0 && k < static_cast<int>(s.model.lesson->lesson.steps.size())) ids.insert(s.model.lesson->lesson.steps[static_cast<size_t>(k)].id);
  return ids;
}
void RestoreRevealed(AppState& s, const std::set<std::string>& ids) {
  for (const auto& id : ids)
    if (const int k = s.model.lesson->lesson.FindStep(id); k >= 0) s.ui.revealed_steps.insert(k);
}

// What a watched file holds now. The bytes are hashed when the time or the size moved, or while the
// last hash was taken within 2 s of the file's time (a file system's timestamps can be that coarse: a
// write completed within the same tick changes nothing else; git's rule for racy timestamps) — so an
// idle poll of a settled file reads nothing.
Transient::WatchedFile Look(const std::string& path, const Transient::WatchedFile* before) {
  namespace fs = std::filesystem;
  Transient::WatchedFile f;
  f.path = path;
  std::error_code ec;
  f.mtime = fs::last_write_time(path, ec);
  if (ec) f.mtime = fs::file_time_type::min();
  f.size = ec ? 0 : fs::file_size(path, ec);
  if (ec) f.size = 0;
  // (Compared as "mtime > hashed_at − 2 s": hashed_at − mtime overflows for a file dated 1880.)
  if (before && before->mtime == f.mtime && before->size == f.size && !(f.mtime > before->hashed_at - std::chrono::seconds(2))) {
    f.hash = before->hash;
    f.readable = before->readable;
    f.hashed_at = before->hashed_at;
    return f;
  }
  f.hashed_at = fs::file_time_type::clock::now();
  try {
    f.hash = std::hash<std::string>{}(data::ReadUserFile(path, data::kMaxFileBytes));
    f.readable = true;
  } catch (const std::exception&) {
    f.readable = false;
  }
  return f;
}

// Two looks at one file see the same content: the same bytes, or (unreadable) the same time.
bool SameContent(const Transient::WatchedFile& a, const Transient::WatchedFile& b) {
  return a.readable == b.readable && a.size == b.size && a.hash == b.hash && (a.readable || a.mtime == b.mtime);
}

void Watch(AppState& s, const std::string& path) {
  s.ui.opened_path = path;
  s.ui.watched.clear();
  s.ui.unsaved.clear();  // what is shown is what is on disk
  s.ui.disk_newer = s.ui.disk_changed = false;
  s.ui.watched.push_back(Look(path, nullptr));
  if (s.model.lesson && !s.model.standalone)
    for (const auto& [key, ref] : s.model.lesson->lesson.scenarios) s.ui.watched.push_back(Look(ref.path.string(), nullptr));
}

void Reload(AppState& s) {
  const int step = s.ui.step, event = s.ui.event;
  const bool card = s.OnTitleCard();
  // A file saved while the class watches (a typo fixed mid-lecture) keeps what the class has seen:
  // the answers revealed, in this lesson and the course's others, and the title card.
  auto revealed = s.ui.course_revealed;
  if (s.InLesson()) revealed[s.ui.course_lesson] = RevealedIds(s);
  auto watched = s.ui.watched;
  const auto unsaved = s.ui.unsaved;
  const bool newer = s.ui.disk_newer, asked = s.ui.disk_changed;
  if (OpenFile(s, s.ui.opened_path)) {
    // The author's loop (edit, save, look): a number question whose answer the engine draws while it
    // is open is named in the status line, as blockwise-cli check refuses it (issue 32) — by step and
    // place only, never the number: the status line may be on the projector. (Every question is
    // open here: OpenFile asks each afresh; what the class had revealed is restored below.)
    std::string shown;
    for (const AnswerShown& a : AnswersShownBeforeReveal(s))
      shown += "; \u26a0 " + a.step_id + ": the answer to its question is on screen while it is open (" + a.where + ")";
    s.ui.course_revealed = revealed;
    if (s.InLesson()) {
      RestoreRevealed(s, revealed[s.ui.course_lesson]);
      GoToStep(s, step);
    }
    SetEvent(s, event);
    s.ui.title_card = card && s.InCourse();
    SetStatus(s, "reloaded " + s.ui.opened_path + shown);
  } else {
    s.ui.watched = watched;  // keep watching the file that failed, with what it holds now
    s.ui.unsaved = unsaved;  // the model still holds the edits
    s.ui.disk_newer = newer;
    s.ui.disk_changed = asked;
  }
}

}  // namespace

bool ReloadIfChanged(AppState& s) {
  bool changed = false;
  for (auto& w : s.ui.watched) {
    Transient::WatchedFile now = Look(w.path, &w);
    if (!SameContent(now, w)) changed = true;
    w = std::move(now);  // a file that fails to load is not retried until it changes again
  }
  if (!changed) return false;
  if (!s.ui.unsaved.empty()) {
    // The editor's numbers are the user's work: never replaced without a word (issue 31). Asked once
    // per change on disk; the banner offers the file's version or keeps these.
    s.ui.disk_newer = s.ui.disk_changed = true;  // (the banner says it: no status line or toast besides)
    return true;
  }
  Reload(s);
  return true;
}

void ReloadFromDisk(AppState& s) { Reload(s); }  // a load that fails keeps the edits and the question

void KeepEdits(AppState& s) { s.ui.disk_changed = false; }

namespace {

std::string EditKey(const AppState& s) {
  return s.InLesson() ? s.model.lesson->lesson.steps[static_cast<size_t>(s.ui.step)].scenario : std::string();
}

// No edit is unsaved any more: the question is moot, and a file that changed meanwhile is loaded now
// (it was put off, not forgotten).
void EditsGone(AppState& s) {
  if (!s.ui.unsaved.empty()) return;
  s.ui.disk_changed = false;
  if (s.ui.disk_newer) Reload(s);
}

}  // namespace

void EditsSaved(AppState& s) {
  s.ui.unsaved.erase(EditKey(s));
  EditsGone(s);
}

namespace {

// Runs `load` (which changes the model only once everything it needs has loaded): a file that fails
// sets s.ui.error to its one line and leaves the model as it was.
template <typename F>
bool Loading(AppState& s, const std::string& path, F&& load) {
  try {
    load();
    s.ui.error.clear();
    s.ui.fonts_dirty = true;  // new strings may need new glyphs
    return true;
  } catch (const data::LoadError& e) {
    s.ui.error = e.what();
  } catch (const std::exception& e) {  // an engine refusal (ValidationError) or allocation failure
    s.ui.error = path + ": (document): " + e.what();
  }
  s.ui.fonts_dirty = true;  // the error line may name a path with new characters
  return false;
}

// The course.json beside a lesson, when it lists that lesson: a lesson opened on its own (the
// library, Ctrl+O, --lesson) still goes on to the next lesson of its course. A course file there
// that does not load leaves the lesson on its own and says why in the status line.
std::optional<view::CourseModel> CourseBeside(AppState& s, const std::filesystem::path& lesson) {
  const auto file = (lesson.parent_path().empty() ? std::filesystem::path(".") : lesson.parent_path()) / "course.json";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
  try {
    view::CourseModel c = view::LoadCourseModel(file);
    if (c.FindLesson(lesson) >= 0) return c;
  } catch (const std::exception& e) {
    SetStatus(s, e.what());
  }
  return std::nullopt;
}

// Shows `lesson`, lesson `index` of a course: of the open course when `same_course` (its answers
// revealed so far are kept, lesson by lesson), else of `course` (nullopt: a lesson on its own). A
// `course` given with `same_course` is a fresh read of the open course's file and replaces it.
void ShowLesson(AppState& s, view::LessonModel lesson, int index, bool same_course, std::optional<view::CourseModel> course) {
  if (same_course && s.InLesson()) s.ui.course_revealed[s.ui.course_lesson] = RevealedIds(s);
  else if (!same_course) s.ui.course_revealed.clear();
  if (course || !same_course) s.model.course = std::move(course);
  s.model.standalone.reset();
  s.model.lesson = std::move(lesson);
  s.model.unedited.clear();
  s.ui.course_lesson = s.model.course ? index : 0;
  s.ui.revealed_steps.clear();
  if (s.model.course) RestoreRevealed(s, s.ui.course_revealed[index]);
}

}  // namespace

bool OpenCourseLesson(AppState& s, int index, bool at_end) {
  if (!s.model.course || index < 0 || index >= s.model.course->LessonCount()) return false;
  const std::string path = s.model.course->course.lessons[static_cast<size_t>(index)].path.string();
  return Loading(s, path, [&] {
    view::LessonModel lesson = view::LoadLessonModel(path, s.model.options);
    ShowLesson(s, std::move(lesson), index, /*same_course=*/true, std::nullopt);
    s.ui.playing = false;
    GoToStep(s, at_end ? static_cast<int>(s.model.lesson->lesson.steps.size()) - 1 : 0);
    if (at_end) s.ui.text_page = -1;  // PageUp back into a lesson: its last step's last page
    Watch(s, path);
  });
}

bool GoToStepId(AppState& s, const std::string& step_id) {
  if (const int k = s.InLesson() ? s.model.lesson->lesson.FindStep(step_id) : -1; k >= 0) {
    GoToStep(s, k);
    return true;
  }
  if (!s.model.course) return false;
  // "end": the course's end card, where PageDown after its last lesson's last step goes (--step end:
  // a screenshot of it, a test's Ctrl+E there). A lesson's own step named "end" came first, above.
  if (step_id == "end") {
    if (!OpenCourseLesson(s, s.model.course->LessonCount() - 1, /*at_end=*/true)) return false;
    s.ui.end_card = true;
    return true;
  }
  for (int i = 0; i < s.model.course->LessonCount(); ++i)  // a lesson's id: its title card
    if (s.model.course->outlines[static_cast<size_t>(i)].id == step_id) {
      if (!OpenCourseLesson(s, i, /*at_end=*/false)) return false;
      s.ui.title_card = true;
      return true;
    }
  const view::CourseStep at = s.model.course->FindStep(step_id);
  if (at.lesson < 0 || !OpenCourseLesson(s, at.lesson, false)) return false;
  const int k = s.model.lesson->lesson.FindStep(step_id);  // the file may have changed since the outline was read
  if (k >= 0) GoToStep(s, k);
  return k >= 0;
}

std::string ApplyEdit(AppState& s, std::shared_ptr<const view::ScenarioModel> model) {
  const int event = s.ui.event;
  if (!s.InLesson()) {
    s.ui.unsaved.insert("");  // cleared by a load from disk and by Save As
    s.model.standalone = std::move(model);
    SetEvent(s, std::min(event, s.Current()->EventCount() - 1));
    return "";
  }
  auto& L = *s.model.lesson;
  const std::string key = L.lesson.steps[static_cast<size_t>(s.ui.step)].scenario;
  std::vector<int> events = L.step_events;
  for (size_t i = 0; i < L.lesson.steps.size(); ++i) {
    const auto& st = L.lesson.steps[i];
    if (st.scenario != key) continue;
    const int e = model->FindPosition(st.position);
    if (e < 0)
      return view::UiFormat(view::Str::edit_refused, s.options.lang, {st.id, st.position, model->PositionHelp()});
    events[i] = e;
  }
  s.ui.unsaved.insert(key);
  s.model.unedited.emplace(key, L.scenarios.at(key));  // the first edit keeps the loaded one
  L.scenarios[key] = std::move(model);
  L.step_events = std::move(events);
  SetEvent(s, std::min(event, s.Current()->EventCount() - 1));
  return "";
}

bool EditedNow(const AppState& s) {
  return s.InLesson() && s.model.unedited.count(s.model.lesson->lesson.steps[static_cast<size_t>(s.ui.step)].scenario) > 0;
}

void RevertEdit(AppState& s) {
  if (!EditedNow(s)) return;
  const std::string key = s.model.lesson->lesson.steps[static_cast<size_t>(s.ui.step)].scenario;
  // The loaded trace holds every step's position (it loaded), so ApplyEdit cannot refuse it; its
  // emplace keeps the entry it finds, which is then dropped.
  ApplyEdit(s, s.model.unedited.at(key));
  s.model.unedited.erase(key);
  s.ui.unsaved.erase(key);  // the shipped numbers are back: nothing to lose
  EditsGone(s);
}

bool OpenFile(AppState& s, const std::string& path) {
  s.ui.error_library_instead = false;   // a later error is about this file, with what was open kept
  const bool ok = Loading(s, path, [&] {
    view::OpenedDocument doc = view::OpenDocument(path, s.model.options);
    // A bundle's lesson is the file unpacked from it: the course beside it is the bundle's own (a
    // bundle in a folder of lessons never joins their course), and that file is the one watched.
    const std::string lesson_path = doc.bundle && doc.lesson ? doc.lesson->lesson.file : path;
    if (doc.lesson) {
      std::optional<view::CourseModel> course = std::move(doc.course);
      int index = 0;
      bool same_course = false;
      if (course) {  // a course file: its first lesson
        same_course = s.model.course && s.model.course->course.file == course->course.file;
      } else if (const int k = s.model.course ? s.model.course->FindLesson(lesson_path) : -1; k >= 0) {
        same_course = true;  // a lesson of the open course: it stays open
        index = k;
      } else if ((course = CourseBeside(s, lesson_path))) {  // else the course of the lesson's folder, if it lists it
        index = course->FindLesson(lesson_path);
      }
      ShowLesson(s, std::move(*doc.lesson), index, same_course, std::move(course));
      // A file opened (or reopened) starts the class afresh: every question asks again.
      s.ui.course_revealed.clear();
      s.ui.revealed_steps.clear();
      GoToStep(s, 0);
    } else {
      s.model.standalone = std::move(doc.scenario);
      s.model.course.reset();
      s.ui.event = 0;
    }
    s.ui.playing = false;
    // A course is watched through its lesson: the file shown is the one that reloads.
    Watch(s, s.InCourse() ? s.model.course->course.lessons[static_cast<size_t>(s.ui.course_lesson)].path.string() : lesson_path);
  });
  if (!ok) return false;
  if (std::exchange(s.ui.status_of_save, false)) ClearStatus(s);  // "saved x.json" is not about this file
  // Recent files are absolute (and normal), so they open from any working folder.
  std::error_code ec;
  const std::string full = std::filesystem::absolute(path, ec).lexically_normal().string();
  auto& recent = s.options.recent;
  recent.erase(std::remove(recent.begin(), recent.end(), full), recent.end());
  recent.insert(recent.begin(), full);
  if (recent.size() > kMaxRecent) recent.resize(kMaxRecent);
  s.ui.settings_dirty = true;
  return true;
}

std::vector<int> LibraryShown(const AppState& s) {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(s.model.library.size()); ++i) {
    const auto& e = s.model.library[static_cast<size_t>(i)];
    if (e.kind == view::LibraryEntry::Kind::kLesson && view::LibraryMatches(e, s.ui.library_filter)) out.push_back(i);
  }
  return out;
}

void LibraryMove(AppState& s, int delta) {
  const int n = static_cast<int>(LibraryShown(s).size());
  s.ui.library_pick = n == 0 ? 0 : std::clamp(s.ui.library_pick + delta, 0, n - 1);
}

bool OpenLibraryEntry(AppState& s, const view::LibraryEntry& e) {
  // A lesson of the course opens on its title card, as the clicker reaches it (the next PageDown begins).
  const bool in_course = e.course_lesson >= 0 && s.model.course && s.model.course->FindLesson(e.path) == e.course_lesson;
  const bool ok = in_course ? OpenCourseLesson(s, e.course_lesson, /*at_end=*/false) : OpenFile(s, e.path);
  if (ok && in_course) s.ui.title_card = true;
  if (ok) {
    s.ui.show_library = s.ui.show_open = false;
    s.ui.library_filter.clear();
  }
  return ok;
}

bool LibraryOpen(AppState& s) {
  const auto shown = LibraryShown(s);
  if (shown.empty()) return false;
  const int k = shown[static_cast<size_t>(std::clamp(s.ui.library_pick, 0, static_cast<int>(shown.size()) - 1))];
  const view::LibraryEntry e = s.model.library[static_cast<size_t>(k)];  // a copy, not a reference into the model being opened
  return OpenLibraryEntry(s, e);
}

}  // namespace bw::app
