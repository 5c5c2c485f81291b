// Issue 31: every read of a user file goes through data::ReadUserFile, which names what is wrong
// instead of blocking, reading without bound or saying "file not found" for a loop; every document
// written goes through data::DumpJson, which cannot throw on a file name that is not UTF-8; an error
// line never carries a control character to the terminal or the window.
#include "data/user_file.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>

#include "data/json_file.h"
#include "data/load_error.h"
#include "data/scenario.h"

namespace {

namespace fs = std::filesystem;
using bw::data::LoadError;
using bw::data::ReadUserFile;

fs::path FreshDir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("bw_userfile_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string ReasonOf(const fs::path& p, std::uintmax_t cap = 1000) {
  try {
    ReadUserFile(p, cap);
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), p.string());
    EXPECT_EQ(e.json_path(), "");
    return e.reason();
  }
  return "(read)";
}

TEST(ReadUserFile, ReadsARegularFileWhole) {
  const auto d = FreshDir("ok");
  std::ofstream(d / "a.json") << "{\"x\": 1}";
  EXPECT_EQ(ReadUserFile(d / "a.json", 8), "{\"x\": 1}");
  EXPECT_EQ(ReasonOf(d / "a.json", 7), "file is 8 bytes; the limit is 7");
  fs::remove_all(d);
}

TEST(ReadUserFile, NamesWhatIsNotARegularFile) {
  const auto d = FreshDir("kinds");
  EXPECT_EQ(ReasonOf(d / "missing.json"), "file not found");
  EXPECT_EQ(ReasonOf(d), "is a folder, not a file");
  fs::create_symlink(d / "loop_b", d / "loop_a");
  fs::create_symlink(d / "loop_a", d / "loop_b");
  EXPECT_NE(ReasonOf(d / "loop_a").find("symbolic link loop"), std::string::npos);
  EXPECT_NE(ReasonOf(d / std::string(5000, 'x')).find("longer than the file system allows"), std::string::npos);
  std::ofstream(d / "file") << "x";
  EXPECT_NE(ReasonOf(d / "file" / "below.json").find("file not found"), std::string::npos);
  EXPECT_NE(ReasonOf("/dev/zero").find("not a regular file"), std::string::npos) << "never read whole";
  fs::remove_all(d);
}

// A FIFO was opened and waited on for ever (settings.json, --recording): refused at once.
TEST(ReadUserFile, RefusesAFifoWithoutWaiting) {
  const auto d = FreshDir("fifo");
  ASSERT_EQ(::mkfifo((d / "settings.json").c_str(), 0600), 0);
  auto reason = std::async(std::launch::async, [&] { return ReasonOf(d / "settings.json"); });
  if (reason.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    // Release the blocked reader (a writer opens the FIFO), so the test fails instead of hanging.
    const int fd = ::open((d / "settings.json").c_str(), O_RDWR | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
    FAIL() << "blocked on the FIFO";
  }
  EXPECT_NE(reason.get().find("not a regular file"), std::string::npos);
  fs::remove_all(d);
}

TEST(Utf8, WellFormedOnly) {
  EXPECT_TRUE(bw::data::IsUtf8("caf\xC3\xA9 甲 \xF0\x9F\x98\x80"));
  EXPECT_FALSE(bw::data::IsUtf8("caf\xE9.json"));        // Latin-1
  EXPECT_FALSE(bw::data::IsUtf8("\xC0\xAF"));            // overlong '/'
  EXPECT_FALSE(bw::data::IsUtf8("\xED\xA0\x80"));        // a surrogate
  EXPECT_FALSE(bw::data::IsUtf8("\xF4\x90\x80\x80"));    // past U+10FFFF
  EXPECT_FALSE(bw::data::IsUtf8("\xE7\x94"));            // cut short
}

// nlohmann's dump throws type_error 316 on such bytes: the app aborted on its first frame.
TEST(DumpJson, AFileNameThatIsNotUtf8IsWrittenNotThrown) {
  const nlohmann::json j = {{"file", "/tmp/caf\xE9.json"}, {"title", "甲"}};
  std::string text;
  ASSERT_NO_THROW(text = bw::data::DumpJson(j, 2));
  EXPECT_NE(text.find("caf\xEF\xBF\xBD.json"), std::string::npos) << "U+FFFD in its place";
  EXPECT_NE(text.find("甲"), std::string::npos);
  EXPECT_NO_THROW(nlohmann::json::parse(text));
}

TEST(ParseJsonText, RefusesUPlus0000WithItsPath) {
  try {
    bw::data::ParseJsonText(R"({"title": {"zh": "甲", "en": "a\u0000b"}})", "t.json");
    ADD_FAILURE() << "U+0000 accepted";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.json_path(), "/title/en");
    EXPECT_NE(e.reason().find("U+0000"), std::string::npos);
  }
  EXPECT_NO_THROW(bw::data::ParseJsonText(R"({"t": "a\u0001b\nc"})", "t.json")) << "other escapes are text";
}

// U+009B is a terminal's CSI, U+202E turns the rest of the line around: neither reaches a terminal.
TEST(LoadError, EscapesC1AndBidiControls) {
  const LoadError e("f\xE2\x80\xAE.json", "/a", "bad \xC2\x9B" "2J value");
  const std::string line = e.what();
  EXPECT_EQ(line, "f\\u202E.json: /a: bad \\u009B2J value");
}

// The deepest document the loaders read is kMaxJsonDepth levels; one more is refused by name, and a
// million levels are refused as quickly, never recursed into.
TEST(ParseJsonText, NestingIsBounded) {
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  try {
    bw::data::ParseJsonText(deep, "deep.json");
    ADD_FAILURE() << "accepted";
  } catch (const LoadError& e) {
    EXPECT_NE(e.reason().find("nesting is deeper than 64"), std::string::npos) << e.reason();
  }
}

}  // namespace
