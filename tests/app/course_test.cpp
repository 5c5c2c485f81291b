// A lecture is a playlist (issue 29): the shipped course (lessons/course.json) holds every shipped
// lesson once, in teaching order; the clicker's PageDown alone walks it from the first step of the
// first lesson to the last step of the last, revealing every question before it moves on, with each
// lesson's title card between two lessons; PageUp walks it back the same way, and answers revealed in
// a lesson stay revealed when the class comes back to it. Also: --step by id across the course, a
// lesson opened on its own plays inside its folder's course, and the course file's errors.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <chrono>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "../lessons/lesson_files.h"
#include "session/app_state.h"
#include "app/settings.h"
#include "session/shown.h"
#include "data/load_error.h"
#include "view/course_model.h"

namespace bw::app {
namespace {

namespace fs = std::filesystem;

// What the screen shows after each press: a title card, or a step and whether its answer shows.
struct Shown {
  std::string lesson, step;
  bool card = false, revealed = false;
  bool operator==(const Shown&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Shown& s) {
  return os << s.lesson << (s.card ? " (title card)" : " " + s.step) << (s.revealed ? " revealed" : "");
}

Shown Now(const AppState& s) {
  return {s.model.lesson->lesson.id, s.CurrentStep()->id, s.OnTitleCard(), !s.OnTitleCard() && s.ui.revealed};
}

AppState OpenCourse() {
  AppState s;
  EXPECT_TRUE(OpenFile(s, lessons_test::kCourseFile)) << s.ui.error;
  return s;
}

TEST(Course, TheShippedCourseHoldsEveryLessonOnceInTeachingOrder) {
  const view::CourseModel c = view::LoadCourseModel(lessons_test::kCourseFile);
  std::vector<std::string> ids;
  std::set<fs::path> files;
  for (size_t i = 0; i < c.outlines.size(); ++i) {
    ids.push_back(c.outlines[i].id);
    files.insert(fs::canonical(c.course.lessons[i].path));
  }
  std::set<fs::path> shipped;
  for (const auto& f : lessons_test::ShippedLessons()) shipped.insert(fs::canonical(f));
  EXPECT_EQ(files, shipped) << "the course lists every shipped lesson, and nothing else";
  // The main sequence first, then the deep dives in the seeds' order, masks, backward, the merge at
  // larger scales (decoding, ring attention), MoE, CPU/GPU, the glossary last.
  EXPECT_EQ(ids, (std::vector<std::string>{"RC-T3", "N23", "N49", "N50", "N51", "MASK", "BWD", "DEC", "RING", "MOE", "HET", "GLOSS", "FA3"}));
  for (const auto& l : c.course.lessons) EXPECT_GE(l.minutes, 1);
}

TEST(Course, PageDownAloneWalksTheWholeCourseAndPageUpWalksItBack) {
  AppState s = OpenCourse();
  ASSERT_TRUE(s.InCourse());
  const view::CourseModel& C = *s.model.course;
  // The walk the rule gives, from the course's outlines: per step, a press that reveals its question
  // (the step again, revealed), then the next step; between lessons the next lesson's card.
  std::vector<Shown> want;
  for (int i = 0; i < C.LessonCount(); ++i) {
    const auto& L = C.outlines[static_cast<size_t>(i)];
    if (i > 0) want.push_back({L.id, L.steps.front().id, true, false});
    for (const auto& st : L.steps) {
      want.push_back({L.id, st.id, false, false});
      if (st.predict) want.push_back({L.id, st.id, false, true});
    }
  }
  std::vector<Shown> got{Now(s)};
  for (size_t k = 1; k < want.size() + 3; ++k) {
    StepLesson(s, +1);
    ASSERT_TRUE(s.ui.error.empty()) << s.ui.error;
    if (s.OnEndCard() || Now(s) == got.back()) break;  // the end: the course's end card
    got.push_back(Now(s));
  }
  EXPECT_EQ(got, want);
  // The last PageDown shows the course's end card (the clicker is seen to reach the end), and says so;
  // more presses change nothing; PageUp goes back to the last step.
  EXPECT_TRUE(s.OnEndCard());
  StepLesson(s, +1);
  EXPECT_TRUE(s.OnEndCard()) << "the card says it is the end, and what PageUp does";
  StepLesson(s, -1);
  EXPECT_FALSE(s.OnEndCard());
  EXPECT_EQ(Now(s), want.back());

  // Back with PageUp: every step again (each revealed now), every card, to the first step.
  std::vector<Shown> back{Now(s)};
  for (size_t k = 1; k < want.size() + 3; ++k) {
    StepLesson(s, -1);
    ASSERT_TRUE(s.ui.error.empty()) << s.ui.error;
    if (Now(s) == back.back()) break;
    back.push_back(Now(s));
  }
  std::vector<Shown> want_back;
  for (auto it = want.rbegin(); it != want.rend(); ++it) {
    Shown w = *it;
    if (w.card) {
      want_back.push_back(w);
      continue;
    }
    const auto& L = C.outlines[static_cast<size_t>(C.FindStep(w.step).lesson)];
    w.revealed = L.steps[static_cast<size_t>(L.FindStep(w.step))].predict.has_value();
    if (want_back.empty() || !(want_back.back() == w)) want_back.push_back(w);  // a reveal is not undone
  }
  // PageUp on the first step shows the first lesson's card, and stops there.
  want_back.push_back({"RC-T3", "RC-T3/b0", true, false});
  EXPECT_EQ(back, want_back);
  EXPECT_EQ(LessonStatus(s), view::Str::course_start);
}

TEST(Course, AnyMoveInTheTraceLeavesTheTitleCard) {
  AppState s = OpenCourse();
  ASSERT_TRUE(GoToStepId(s, "MASK"));
  EXPECT_TRUE(s.OnTitleCard());
  EXPECT_EQ(s.CurrentStep()->id, "MASK/k1");
  Reveal(s);
  EXPECT_FALSE(s.ui.revealed) << "R on the card reveals nothing the class has not seen";
  StepEvent(s, +1);
  EXPECT_FALSE(s.OnTitleCard());
  ASSERT_TRUE(GoToStepId(s, "MASK"));
  GoToStep(s, 0);
  EXPECT_FALSE(s.OnTitleCard());
}

TEST(Course, AStepIdOpensTheLessonThatOwnsIt) {
  AppState s = OpenCourse();
  ASSERT_TRUE(GoToStepId(s, "N50/w1"));
  EXPECT_EQ(s.model.lesson->lesson.id, "N50");
  EXPECT_EQ(s.CurrentStep()->id, "N50/w1");
  EXPECT_EQ(s.ui.course_lesson, 3);
  EXPECT_FALSE(s.OnTitleCard());
  const Shown before = Now(s);
  EXPECT_FALSE(GoToStepId(s, "N50/w9"));
  EXPECT_EQ(Now(s), before) << "an unknown id changes nothing";
}

TEST(Course, ALessonOpenedOnItsOwnPlaysInsideItsFoldersCourse) {
  AppState s;
  ASSERT_TRUE(OpenFile(s, lessons_test::kRoot + "/lessons/n51-three-blocks.json")) << s.ui.error;
  ASSERT_TRUE(s.InCourse());
  EXPECT_EQ(s.ui.course_lesson, 4);
  GoToStep(s, 1 << 20);
  while (s.PredictPending()) StepLesson(s, +1);
  StepLesson(s, +1);
  EXPECT_TRUE(s.OnTitleCard());
  EXPECT_EQ(s.model.lesson->lesson.id, "MASK");
}

// F5 on one screen (a mirrored projector): the notes window would open over the projected picture.
TEST(Lecture, F5OnOneScreenSaysSoBeforeTheNotesOpen) {
  AppState s = OpenCourse();
  s.options.lang = "en";
  TogglePresenter(s, 1);
  EXPECT_FALSE(s.ui.presenter) << "the first F5 on one screen opens nothing";
  EXPECT_EQ(s.ui.status, view::UiText(view::Str::presenter_one_screen, "en"));
  TogglePresenter(s, 1);
  EXPECT_TRUE(s.ui.presenter) << "the second F5 opens the notes anyway";
  EXPECT_TRUE(s.ui.status.empty());
  TogglePresenter(s, 1);
  EXPECT_FALSE(s.ui.presenter);
  TogglePresenter(s, 1);
  EXPECT_FALSE(s.ui.presenter) << "asked again after it was closed";
  AppState two = OpenCourse();
  TogglePresenter(two, 2);
  EXPECT_TRUE(two.ui.presenter) << "with a second screen the notes open at once";
}

// The first launch speaks the locale's language (POSIX order: LC_ALL, LC_MESSAGES, LANG).
TEST(Lecture, TheFirstLaunchFollowsTheLocale) {
  EXPECT_EQ(LanguageFromLocale(nullptr, nullptr, "en_US.UTF-8"), "en");
  EXPECT_EQ(LanguageFromLocale(nullptr, nullptr, "zh_CN.UTF-8"), "zh");
  EXPECT_EQ(LanguageFromLocale(nullptr, nullptr, "zh_TW.UTF-8"), "zh");
  EXPECT_EQ(LanguageFromLocale("en_GB.UTF-8", nullptr, "zh_CN.UTF-8"), "en");
  EXPECT_EQ(LanguageFromLocale("", "zh_CN.UTF-8", "en_US.UTF-8"), "zh");
  EXPECT_EQ(LanguageFromLocale(nullptr, nullptr, "de_DE.UTF-8"), "en");
  EXPECT_EQ(LanguageFromLocale(nullptr, nullptr, "C"), "en");
  EXPECT_EQ(LanguageFromLocale(nullptr, nullptr, nullptr), "en");
}

// What a step's question asks is concealed until its reveal (issue 29, item 4): MASK/k1's heatmap
// would count the skipped tiles; BWD/r1's comparison table and the materialising box would say which
// backward moves more data.
TEST(Lecture, WhatAQuestionAsksStaysOffTheScreenUntilTheReveal) {
  AppState s = OpenCourse();
  s.options.lang = "en";
  ASSERT_TRUE(GoToStepId(s, "MASK/k1"));
  ASSERT_TRUE(s.Current()->HeatmapAt(s.ui.event).has_value());
  EXPECT_TRUE(ConcealedNow(s, view::kConcealHeatmap));
  Reveal(s);
  EXPECT_FALSE(ConcealedNow(s, view::kConcealHeatmap));

  ASSERT_TRUE(GoToStepId(s, "BWD/r1"));
  const auto texts = [&] {
    std::string all;
    for (const auto& t : SceneNow(s).texts) all += t.text + "\n";
    return all;
  };
  const auto sections = [&] {
    std::set<std::string> ids;
    for (const auto& sec : PanelsNow(s)) ids.insert(sec.id);
    return ids;
  };
  EXPECT_EQ(sections().count("backward"), 0u);
  EXPECT_EQ(texts().find("scratch"), std::string::npos) << texts();
  EXPECT_EQ(texts().find("128"), std::string::npos) << "the materialising path's P reads";
  Reveal(s);
  EXPECT_EQ(sections().count("backward"), 1u);
  EXPECT_NE(texts().find("128"), std::string::npos);
  EXPECT_NE(texts().find("scratch"), std::string::npos);
}

// The library (the start screen, and the Ctrl+O list): the course's lessons in teaching order, then
// the scenarios; typed words filter it by id, either title or file name; Enter opens in the course.
TEST(Lecture, TheLibraryListsTheCourseAndFiltersAsYouType) {
  AppState s = OpenCourse();
  std::vector<std::string> files;
  for (const auto& f : lessons_test::ShippedLessons()) files.push_back(f.string());
  for (const auto& f : lessons_test::ShippedScenarios()) files.push_back(f.string());
  files.push_back(lessons_test::kCourseFile);
  s.model.library = view::BuildLibrary(files, &*s.model.course);
  const auto& L = s.model.library;
  ASSERT_EQ(L.size(), files.size() - 1) << "every lesson and scenario once, the course file not";
  const int lessons = static_cast<int>(s.model.course->outlines.size());
  ASSERT_EQ(lessons, 13);
  for (int i = 0; i < lessons; ++i) {
    EXPECT_EQ(L[static_cast<size_t>(i)].id, s.model.course->outlines[static_cast<size_t>(i)].id);
    EXPECT_EQ(L[static_cast<size_t>(i)].course_lesson, i);
    EXPECT_GT(L[static_cast<size_t>(i)].minutes, 0);
  }
  for (size_t i = static_cast<size_t>(lessons); i < L.size(); ++i) EXPECT_EQ(L[i].kind, view::LibraryEntry::Kind::kScenario) << L[i].path;
  s.ui.show_library = true;
  EXPECT_EQ(LibraryShown(s).size(), 13u) << "the start screen's cards: the lessons";
  s.ui.library_filter = "mask";
  ASSERT_EQ(LibraryShown(s).size(), 1u);
  EXPECT_EQ(L[static_cast<size_t>(LibraryShown(s)[0])].id, "MASK");
  s.ui.library_filter = "\u63a9\u7801";  // 掩码: the zh title
  ASSERT_EQ(LibraryShown(s).size(), 1u);
  s.ui.library_filter = "WORKED n50";  // every word, case folded
  ASSERT_EQ(LibraryShown(s).size(), 1u);
  s.ui.library_filter = "no such lesson";
  EXPECT_TRUE(LibraryShown(s).empty());
  EXPECT_FALSE(LibraryOpen(s));
  EXPECT_TRUE(s.ui.show_library);
  s.ui.library_filter.clear();
  LibraryMove(s, +3);
  LibraryMove(s, +100);
  EXPECT_EQ(s.ui.library_pick, 12);   // the last of the 13 lessons
  LibraryMove(s, -9);
  ASSERT_TRUE(LibraryOpen(s));
  EXPECT_FALSE(s.ui.show_library);
  EXPECT_EQ(s.model.lesson->lesson.id, "N50");
  EXPECT_EQ(s.ui.course_lesson, 3) << "opened inside the course: PageDown goes on to N51";
  EXPECT_TRUE(s.OnTitleCard()) << "a course lesson opens on its title card, as the clicker reaches it";
  StepLesson(s, +1);
  EXPECT_EQ(s.CurrentStep()->id, "N50/w1");
}

// → at the end of a scenario's trace, while the lesson goes on in another (N50/w3's trace ends; s1 uses
// the stable scenario), says that PageDown goes on instead of stopping silently; the line goes with the step.
TEST(Lecture, TheArrowAtATracesEndSaysPageDownGoesOn) {
  AppState s = OpenCourse();
  s.options.lang = "en";
  ASSERT_TRUE(GoToStepId(s, "N50/w3"));
  SetEvent(s, 1 << 20);
  const int last = s.ui.event;
  StepEvent(s, +1);
  EXPECT_EQ(s.ui.event, last);
  EXPECT_EQ(s.ui.status, view::UiFormat(view::Str::trace_end_next, "en", {"N50/s1"}));
  StepLesson(s, +1);
  EXPECT_EQ(s.CurrentStep()->id, "N50/s1");
  EXPECT_TRUE(s.ui.status.empty()) << "the line went with its step";
}

// A folder of one's own: a lesson without a course stays a lesson; a course there with two lessons.
class OwnFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("blockwise-course-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "scenarios");
    const fs::path lessons = fs::path(lessons_test::kRoot) / "lessons";
    for (const char* f : {"rc-t3.json", "n51-three-blocks.json"}) fs::copy_file(lessons / f, dir_ / f);
    for (const auto& e : fs::directory_iterator(lessons / "scenarios")) fs::copy_file(e.path(), dir_ / "scenarios" / e.path().filename());
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  std::string Course(const std::string& lessons) const {
    return R"({"schema_version": 1, "id": "MINE", "title": {"zh": "我的课", "en": "Mine"}, "lessons": [)" + lessons + "]}";
  }
  static std::string Entry(const std::string& file, int minutes = 5) {
    return R"({"file": ")" + file + R"(", "minutes": )" + std::to_string(minutes) + R"(, "covers": {"zh": "内容", "en": "What"}})";
  }
  // The loader's one line for a bad course, or "" when it loads.
  std::string Error(const std::string& text) {
    Write("course.json", text);
    try {
      view::LoadCourseModel(dir_ / "course.json");
      return "";
    } catch (const data::LoadError& e) {
      EXPECT_EQ(e.file(), (dir_ / "course.json").string()) << "the course's errors name the course file";
      return e.json_path() + ": " + e.reason();
    }
  }
  fs::path dir_;
};

TEST_F(OwnFolder, ALessonWithoutACourseEndsAtItsLastStep) {
  AppState s;
  ASSERT_TRUE(OpenFile(s, (dir_ / "rc-t3.json").string())) << s.ui.error;
  EXPECT_FALSE(s.InCourse());
  GoToStep(s, 1 << 20);
  while (s.PredictPending()) StepLesson(s, +1);
  StepLesson(s, +1);
  EXPECT_FALSE(s.OnTitleCard());
  EXPECT_EQ(LessonStatus(s), view::Str::lesson_end);
}

TEST_F(OwnFolder, ACourseOfOnesOwnPlaysInItsOrder) {
  Write("course.json", Course(Entry("n51-three-blocks.json") + "," + Entry("rc-t3.json", 7)));
  AppState s;
  ASSERT_TRUE(OpenFile(s, (dir_ / "course.json").string())) << s.ui.error;
  EXPECT_EQ(s.model.lesson->lesson.id, "N51");
  EXPECT_EQ(s.model.course->TotalMinutes(), 12);
  GoToStep(s, 1 << 20);
  while (s.PredictPending()) StepLesson(s, +1);
  StepLesson(s, +1);
  EXPECT_TRUE(s.OnTitleCard());
  EXPECT_EQ(s.model.lesson->lesson.id, "RC-T3");
  // A lesson of the course that no longer loads: the clicker stays where it was and says why.
  StepLesson(s, -1);
  ASSERT_EQ(s.model.lesson->lesson.id, "N51");
  Write("rc-t3.json", "{ broken");
  GoToStep(s, 1 << 20);
  while (s.PredictPending()) StepLesson(s, +1);
  const std::string before = s.CurrentStep()->id;
  StepLesson(s, +1);
  EXPECT_EQ(s.CurrentStep()->id, before);
  EXPECT_FALSE(s.OnTitleCard());
  EXPECT_NE(s.ui.error.find("rc-t3.json"), std::string::npos) << s.ui.error;
}

// A lesson saved while the class watches it (a typo fixed mid-lecture) reloads, and what the class has
// seen stays: the answers revealed in this lesson and in the course's others, and the title card.
TEST_F(OwnFolder, AReloadInACourseKeepsWhatTheClassHasSeen) {
  Write("course.json", Course(Entry("n51-three-blocks.json") + "," + Entry("rc-t3.json")));
  AppState s;
  ASSERT_TRUE(OpenFile(s, (dir_ / "course.json").string())) << s.ui.error;
  ASSERT_TRUE(s.PredictPending());
  StepLesson(s, +1);  // N51/t0 revealed
  ASSERT_TRUE(s.ui.revealed);
  GoToStep(s, 1 << 20);
  while (s.PredictPending()) StepLesson(s, +1);
  StepLesson(s, +1);  // RC-T3's card
  ASSERT_TRUE(s.OnTitleCard());
  StepLesson(s, +1);
  StepLesson(s, +1);  // RC-T3/b0 revealed
  ASSERT_TRUE(s.ui.revealed);
  // The file changes on disk (its bytes: a touch alone is no change, issue 31): the watch reloads it.
  const auto append_newline = [&] { std::ofstream(dir_ / "rc-t3.json", std::ios::app) << "\n"; };
  append_newline();
  ASSERT_TRUE(ReloadIfChanged(s));
  EXPECT_TRUE(s.ui.error.empty()) << s.ui.error;
  EXPECT_EQ(s.CurrentStep()->id, "RC-T3/b0");
  EXPECT_TRUE(s.ui.revealed) << "the answer on screen stays shown";
  StepLesson(s, -1);
  ASSERT_TRUE(s.OnTitleCard());
  append_newline();
  ASSERT_TRUE(ReloadIfChanged(s));
  EXPECT_TRUE(s.OnTitleCard()) << "the card stays on screen";
  StepLesson(s, -1);  // back to N51's last step, then its first: still revealed
  GoToStep(s, 0);
  EXPECT_EQ(s.CurrentStep()->id, "N51/t0");
  EXPECT_TRUE(s.ui.revealed);
}

TEST_F(OwnFolder, EveryCourseMistakeIsNamedWithItsPath) {
  EXPECT_EQ(Error(Course(Entry("rc-t3.json"))), "");
  EXPECT_EQ(Error(Course(Entry("missing.json"))), "/lessons/0/file: no lesson file \"missing.json\" beside the course");
  EXPECT_EQ(Error(Course(Entry("../rc-t3.json"))), "/lessons/0/file: lesson path \"../rc-t3.json\" leaves the course's folder");
  EXPECT_EQ(Error(Course(Entry("rc-t3.json") + "," + Entry("./rc-t3.json"))), "/lessons/1/file: lesson \"./rc-t3.json\" is listed twice");
  EXPECT_EQ(Error(Course(Entry("rc-t3.json", 0))), "/lessons/0/minutes: 0 is below the minimum 1");
  EXPECT_EQ(Error(Course(Entry("rc-t3.json", 241))), "/lessons/0/minutes: 241 is above the limit 240");
  EXPECT_EQ(Error(Course("")), "/lessons: expected at least 1 element, found 0");
  EXPECT_EQ(Error(R"({"schema_version": 1, "id": "X", "title": {"zh": "a", "en": "b"}, "lessons": [], "lesons": 1})"),
            "/lesons: unknown key; did you mean /lessons?");
  EXPECT_EQ(Error(Course(R"({"file": "rc-t3.json", "minutes": 5})")), "/lessons/0/covers: required field is missing");
  // A FIFO or a folder is refused by name, never opened (a FIFO would block the app).
  ASSERT_EQ(::mkfifo((dir_ / "fifo.json").c_str(), 0600), 0);
  EXPECT_EQ(Error(Course(Entry("fifo.json"))), "/lessons/0/file: \"fifo.json\" is not a regular file");
  EXPECT_EQ(Error(Course(Entry("scenarios"))), "/lessons/0/file: \"scenarios\" is not a regular file");
  // Not a lesson.
  Write("scenario.json", R"({"schema_version": 1, "weights": [1], "values": [1], "block_sizes": [1], "mode": "raw"})");
  EXPECT_EQ(Error(Course(Entry("scenario.json"))), "/lessons/0/file: \"scenario.json\" is not a lesson (a lesson file has \"steps\")");
  // Two lessons with one step id: --step could not tell them apart.
  fs::copy_file(dir_ / "rc-t3.json", dir_ / "copy.json");
  EXPECT_EQ(Error(Course(Entry("rc-t3.json") + "," + Entry("copy.json"))),
            "/lessons/1/file: step id \"RC-T3/b0\" is also a step of lesson \"RC-T3\"; a step id names one step of the course");
}

}  // namespace
}  // namespace bw::app
