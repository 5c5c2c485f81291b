// Issue 35, item 4: a file opened is read once and its kind decided once (view::OpenDocument). The
// kernel counts the opens (inotify IN_OPEN on the folder), so a second read anywhere on the way — the
// document read to tell its kind and then again by the lesson's or the course's loader, a course's
// lesson read to check it is one and again for its outline, the first lesson read for the course's
// outline and again to open it — fails the count, whatever code does it.
#include <gtest/gtest.h>

#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "data/document_kind.h"
#include "view/document.h"

namespace bw::view {
namespace {

namespace fs = std::filesystem;
const std::string kRoot = BLOCKWISE_ROOT;

// A copy of the worked example (a lesson and its scenario) and a course of it, in a folder of its own.
fs::path ExampleFolder(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("bw-document-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "scenarios");
  fs::copy_file(kRoot + "/lessons/examples/my-first-lesson.json", dir / "lesson.json");
  fs::copy_file(kRoot + "/lessons/examples/scenarios/six_keys.json", dir / "scenarios" / "six_keys.json");
  std::ofstream(dir / "course.json") << R"({"schema_version": 1, "id": "C", "title": {"zh": "课", "en": "Course"},
    "lessons": [{"file": "lesson.json", "minutes": 5, "covers": {"zh": "例", "en": "example"}}]})";
  return dir;
}

// How often each file of `dirs` is opened while `f` runs, by name relative to the first folder. (The
// closes are watched too: the kernel folds an event into an identical one still unread, so two opens
// in a row would count once; an open, a close and an open do not fold.)
template <class F>
std::map<std::string, int> OpensDuring(const std::vector<fs::path>& dirs, F f) {
  const int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  EXPECT_GE(fd, 0) << "inotify: " << errno;
  std::map<int, std::string> prefix;
  for (const auto& d : dirs) {
    const int wd = inotify_add_watch(fd, d.c_str(), IN_OPEN | IN_CLOSE);
    EXPECT_GE(wd, 0) << d;
    const std::string rel = fs::relative(d, dirs.front()).string();
    prefix[wd] = rel == "." ? "" : rel + "/";
  }
  f();
  std::map<std::string, int> opens;
  alignas(inotify_event) char buf[64 * 1024];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
    for (char* p = buf; p < buf + n;) {
      const auto* ev = reinterpret_cast<const inotify_event*>(p);
      if (ev->len > 0 && (ev->mask & IN_OPEN) && !(ev->mask & IN_ISDIR)) ++opens[prefix[ev->wd] + ev->name];
      p += sizeof(inotify_event) + ev->len;
    }
  close(fd);
  return opens;
}

TEST(Document, ALessonFileIsReadOnceOnOpen) {
  const fs::path dir = ExampleFolder("lesson");
  OpenedDocument d;
  const auto opens = OpensDuring({dir, dir / "scenarios"}, [&] { d = OpenDocument(dir / "lesson.json"); });
  ASSERT_TRUE(d.lesson);
  EXPECT_EQ(d.lesson->lesson.id, "EXAMPLE");
  EXPECT_EQ(opens, (std::map<std::string, int>{{"lesson.json", 1}, {"scenarios/six_keys.json", 1}}));
  fs::remove_all(dir);
}

TEST(Document, ACourseAndItsLessonAreEachReadOnceOnOpen) {
  const fs::path dir = ExampleFolder("course");
  OpenedDocument d;
  const auto opens = OpensDuring({dir, dir / "scenarios"}, [&] { d = OpenDocument(dir / "course.json"); });
  ASSERT_TRUE(d.course);
  ASSERT_TRUE(d.lesson);
  EXPECT_EQ(d.lesson->lesson.id, "EXAMPLE");
  EXPECT_EQ(opens, (std::map<std::string, int>{{"course.json", 1}, {"lesson.json", 1}, {"scenarios/six_keys.json", 1}}));
  fs::remove_all(dir);
}

TEST(Document, AScenarioFileIsReadOnceOnOpen) {
  const fs::path dir = ExampleFolder("scenario");
  OpenedDocument d;
  const auto opens = OpensDuring({dir, dir / "scenarios"}, [&] { d = OpenDocument(dir / "scenarios" / "six_keys.json"); });
  ASSERT_TRUE(d.scenario);
  EXPECT_EQ(opens, (std::map<std::string, int>{{"scenarios/six_keys.json", 1}}));
  fs::remove_all(dir);
}

// The one rule (data::KindOfDocument) by its keys: "steps" wins, then "lessons", then "files".
TEST(Document, KindOfDocumentByItsKeys) {
  using data::DocumentKind;
  using nlohmann::json;
  EXPECT_EQ(data::KindOfDocument(json{{"steps", json::array()}, {"lessons", 1}, {"files", 1}}), DocumentKind::kLesson);
  EXPECT_EQ(data::KindOfDocument(json{{"lessons", json::array()}, {"files", 1}}), DocumentKind::kCourse);
  EXPECT_EQ(data::KindOfDocument(json{{"files", json::object()}}), DocumentKind::kBundle);
  EXPECT_EQ(data::KindOfDocument(json{{"kind", "attention"}}), DocumentKind::kScenario);
  EXPECT_EQ(data::KindOfDocument(json::array()), DocumentKind::kScenario);
}

}  // namespace
}  // namespace bw::view
