// The bad-input corpus (tests/corpus/manifest.json, files made by make_corpus.py): every file gives
// exactly its expected result, through the loaders the app uses and through `blockwise-cli check`:
//   - good files load, and every trace event's scene, panels and quantities build with no NaN that
//     the numerics report leaves unexplained (view::UnexplainedNaNs, shared with the fuzz targets);
//     the report holds exactly the kinds the manifest's "numerics" lists (none when absent);
//   - bad files throw one LoadError whose file, JSON path and reason are the manifest's, printed as
//     one line of valid UTF-8 "file: /path: reason"; the CLI exits 2 with exactly that line.
// Files too big to commit (over the 16 MiB limit) and odd file kinds (folder, FIFO, device) are
// made here.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <set>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "data/json_file.h"
#include "view/document.h"
#include "view/lesson_model.h"
#include "view/numerics_panel.h"
#include "view/scenario_model.h"

namespace {

namespace fs = std::filesystem;
const fs::path kCorpus = fs::path(BLOCKWISE_ROOT) / "tests" / "corpus";
const std::string kCli = BLOCKWISE_CLI;

struct Case {
  std::string file, loader, path, reason;
  std::string opened_path, opened_reason;  // as the app opens it, when that differs
  bool ok = false;
  std::set<std::string> numerics;          // kinds the numerics report must hold (ok files)
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.file; }

std::vector<Case> ReadManifest() {
  std::ifstream in(kCorpus / "manifest.json");
  const auto j = nlohmann::json::parse(in);
  std::vector<Case> cases;
  for (const auto& c : j.at("cases")) {
    Case k;
    k.file = c.at("file");
    k.loader = c.at("loader");
    k.ok = c.value("ok", false);
    if (c.contains("numerics"))
      for (const auto& kind : c.at("numerics")) k.numerics.insert(kind.get<std::string>());
    if (!k.ok) {
      k.path = c.at("path").is_string() ? c.at("path").get<std::string>() : "<unset in manifest>";
      k.reason = c.at("reason").is_string() ? c.at("reason").get<std::string>() : "<unset in manifest>";
      k.opened_path = c.value("opened_path", k.path);
      k.opened_reason = c.value("opened_reason", k.reason);
    }
    cases.push_back(k);
  }
  return cases;
}

// The app's and the CLI's dispatch: one function, view::OpenDocument.
bw::view::OpenedDocument OpenAsApp(const std::string& path) { return bw::view::OpenDocument(path); }

bool ValidUtf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

// Everything the app would compute for each event; no NaN may reach the screen unless the numerics
// report names its cause, and the report holds exactly the kinds expected.
void ExerciseModel(const bw::view::ScenarioModel& m, const std::set<std::string>& numerics = {}) {
  const int n = m.EventCount();
  ASSERT_GE(n, 1);
  const auto palette = bw::view::ClassroomPalette();
  for (int e = 0; e < n; ++e)
    for (const char* lang : {"zh", "en"}) m.BuildScene(e, lang, palette);
  for (const auto& line : bw::view::UnexplainedNaNs(m)) ADD_FAILURE() << "NaN shown with no cause named: " << line;
  std::set<std::string> kinds;
  if (const auto* rep = m.Numerics())
    for (const auto& ev : rep->events) kinds.insert(bw::engine::ToString(ev.kind));
  for (const auto& k : numerics) EXPECT_TRUE(kinds.count(k)) << "the numerics report lacks " << k;
  if (numerics.empty()) {
    EXPECT_TRUE(kinds.empty()) << "unexpected numerics event: " << *kinds.begin();
  }
}

// "file: /json/path: " as the one-line error starts (the path escaped as LoadError prints it: a key
// holding a newline shows as \n).
std::string Head(const std::string& file, const std::string& path) { return bw::data::LoadError(file, path, "").what(); }

// Expects the one-line error for `file` with this JSON path and reason.
void ExpectError(const std::function<void()>& load, const std::string& file, const std::string& path,
                 const std::string& reason) {
  try {
    load();
    ADD_FAILURE() << file << " loaded; expected " << path << ": " << reason;
  } catch (const bw::data::LoadError& e) {
    const std::string line = e.what();
    EXPECT_EQ(e.file(), file);
    EXPECT_EQ(e.json_path(), path) << line;
    EXPECT_NE(e.reason().find(reason), std::string::npos) << "reason \"" << e.reason() << "\" lacks \"" << reason << "\"";
    EXPECT_NE(line.find(reason), std::string::npos) << "the line, cut to fit, lost its reason: " << line;
    EXPECT_EQ(line.rfind(Head(file, path), 0), 0u) << line;
    EXPECT_EQ(line.find('\n'), std::string::npos) << "not one line: " << line;
    EXPECT_TRUE(ValidUtf8(line)) << "not UTF-8: " << line;
    EXPECT_LE(line.size(), file.size() + 1000) << "an error line should not echo the whole file";
  } catch (const std::exception& e) {
    ADD_FAILURE() << file << ": not a LoadError: " << e.what();
  }
}

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};
CliResult RunCli(const std::string& file) {
  const fs::path err_file = fs::temp_directory_path() / ("bw_corpus_err_" + std::to_string(::getpid()));
  const std::string cmd = "'" + kCli + "' check '" + file + "' 2>'" + err_file.string() + "'";
  CliResult r;
  FILE* p = ::popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream in(err_file, std::ios::binary);
  r.err.assign(std::istreambuf_iterator<char>(in), {});
  fs::remove(err_file);
  return r;
}

class Corpus : public testing::TestWithParam<Case> {};

TEST_P(Corpus, LoaderAndCliGiveTheExpectedResult) {
  const Case& c = GetParam();
  const std::string file = (kCorpus / "files" / c.file).string();
  ASSERT_TRUE(fs::exists(file)) << file;
  // 1. The loader the manifest names.
  if (c.ok) {
    try {
      if (c.loader == "lesson") {
        const auto m = bw::view::LoadLessonModel(file);
        for (const auto& [key, sc] : m.scenarios) ExerciseModel(*sc);
      } else if (c.loader == "bundle") {  // a lesson bundle: opened as the app opens it
        const auto d = OpenAsApp(file);
        ASSERT_TRUE(d.bundle.has_value());
        ASSERT_TRUE(d.lesson.has_value());
        for (const auto& [key, sc] : d.lesson->scenarios) ExerciseModel(*sc);
      } else {
        ExerciseModel(*bw::view::LoadScenarioModel(file), c.numerics);
      }
    } catch (const std::exception& e) {
      FAIL() << "expected to load: " << e.what();
    }
  } else if (c.loader == "lesson") {
    ExpectError([&] { bw::view::LoadLessonModel(file); }, file, c.path, c.reason);
  } else if (c.loader == "bundle") {
    ExpectError([&] { OpenAsApp(file); }, file, c.path, c.reason);
  } else {
    ExpectError([&] { bw::view::LoadScenarioModel(file); }, file, c.path, c.reason);
  }
  // 2. The app's dispatch (lesson when the document has "steps") gives the same.
  if (!c.ok) ExpectError([&] { OpenAsApp(file); }, file, c.opened_path, c.opened_reason);
  // 3. The CLI: exit 0 and "ok: …", or exit 2 and exactly one line "error: <file>: <path>: <reason…>".
  const CliResult r = RunCli(file);
  if (c.ok) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("ok: " + file + ": ", 0), 0u) << r.out;
  } else {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    const std::string head = "error: " + Head(file, c.opened_path);
    EXPECT_EQ(r.err.rfind(head, 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(ValidUtf8(r.err)) << r.err;
  }
}

std::string CaseName(const testing::TestParamInfo<Case>& info) {
  std::string n = info.param.file.substr(0, info.param.file.size() - 5);
  for (auto& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Manifest, Corpus, testing::ValuesIn(ReadManifest()), CaseName);

TEST(CorpusManifest, EveryFileIsListed) {
  std::set<std::string> listed;
  for (const auto& c : ReadManifest()) EXPECT_TRUE(listed.insert(c.file).second) << "listed twice: " << c.file;
  for (const auto& e : fs::directory_iterator(kCorpus / "files")) {
    if (e.is_regular_file()) {
      EXPECT_TRUE(listed.count(e.path().filename().string())) << "not in manifest.json: " << e.path();
    }
  }
}

// ---- made here, not committed ------------------------------------------------------------------

fs::path ScratchDir() {
  const fs::path d = fs::temp_directory_path() / ("bw_corpus_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

TEST(CorpusGenerated, FileOverTheSizeLimitIsRefusedBeforeReading) {
  const fs::path f = ScratchDir() / "huge.json";
  { std::ofstream(f) << "{"; }
  fs::resize_file(f, bw::data::kMaxFileBytes + 1);  // sparse: costs no disk
  ExpectError([&] { bw::view::LoadScenarioModel(f); }, f.string(), "", "bytes; the limit is 16777216");
  const CliResult r = RunCli(f.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: " + f.string() + ": (document): file is 16777217 bytes; the limit is 16777216\n");
  fs::remove_all(f.parent_path());
}

TEST(CorpusGenerated, MissingFileFolderFifoAndDevice) {
  const fs::path d = ScratchDir();
  ExpectError([&] { bw::view::LoadScenarioModel(d / "nope.json"); }, (d / "nope.json").string(), "", "file not found");
  ExpectError([&] { bw::view::LoadLessonModel(d); }, d.string(), "", "is a folder, not a file");
  const fs::path fifo = d / "pipe.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Must not block waiting for a writer.
  ExpectError([&] { bw::view::LoadScenarioModel(fifo); }, fifo.string(), "", "not a regular file");
  ExpectError([&] { bw::view::LoadScenarioModel("/dev/zero"); }, "/dev/zero", "", "not a regular file");
  const CliResult r = RunCli(fifo.string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  fs::remove_all(d);
}

TEST(CorpusGenerated, UnreadableFile) {
  const fs::path d = ScratchDir();
  const fs::path f = d / "secret.json";
  { std::ofstream(f) << "{}"; }
  ::chmod(f.c_str(), 0);
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any file";
  ExpectError([&] { bw::view::LoadScenarioModel(f); }, f.string(), "", "cannot open for reading");
  fs::remove_all(d);
}

}  // namespace
