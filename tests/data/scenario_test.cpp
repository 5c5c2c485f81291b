// Scenario v1 and lesson v1 loaders: the shipped files load; every bad file gives one LoadError
// naming the file, the JSON path and the reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "data/json_file.h"
#include "data/lesson.h"
#include "data/scenario.h"

namespace bw::data {
namespace {

const std::string kRoot = BLOCKWISE_ROOT;

TEST(Scenario, WorkedExampleLoadsWithExactInputs) {
  const auto sc = LoadSingleQueryScenario(kRoot + "/lessons/scenarios/worked_214.json");
  EXPECT_EQ(sc.problem.scores, (std::vector<double>{2, 1, 4}));
  EXPECT_EQ(sc.problem.block_sizes, (std::vector<int>{2, 1}));
  ASSERT_TRUE(sc.problem.exact_weights.has_value());
  EXPECT_EQ((*sc.problem.exact_values)[2][0], 30);
  EXPECT_FALSE(sc.title.zh.empty());
}

TEST(Scenario, LogitsAreNotExact) {
  const auto sc = LoadSingleQueryScenario(kRoot + "/lessons/scenarios/logits_ln2_0_ln4.json");
  EXPECT_EQ(sc.problem.score_kind, engine::ScoreKind::kLogits);
  EXPECT_FALSE(sc.problem.exact_weights.has_value());
}

TEST(Scenario, ZeroWeightIsAMaskedPositionAndFine) {
  const auto sc = LoadSingleQueryScenario(kRoot + "/tests/data/good_masked_block.json");
  const auto run = engine::RunSingleQuery(sc.problem);
  EXPECT_EQ(run.exact->output[0], 30);
}

struct BadCase {
  const char* file;
  const char* path;
  const char* reason;  // a substring of the reason
};

class BadScenario : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadScenario, OneLineWithFilePathAndReason) {
  const BadCase c = GetParam();
  const std::string file = kRoot + "/tests/data/bad/" + c.file;
  try {
    LoadSingleQueryScenario(file);
    FAIL() << c.file << " loaded without error";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), file);
    EXPECT_EQ(e.json_path(), c.path) << e.what();
    EXPECT_NE(e.reason().find(c.reason), std::string::npos) << e.what();
    const std::string line = e.what();
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_EQ(line.rfind(file + ": ", 0), 0u) << line;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, BadScenario,
    ::testing::Values(BadCase{"malformed_truncated.json", "", "malformed JSON"},
                      BadCase{"nan_literal.json", "/weights/1", "malformed JSON"},
                      BadCase{"nan_string.json", "/weights/1", "non-finite"},
                      BadCase{"infinite_weight.json", "/weights/2", "out of the double range"},
                      BadCase{"negative_weight.json", "/weights/1", "negative"},
                      BadCase{"length_mismatch.json", "/values", "has 2 entries but \"weights\" has 3"},
                      BadCase{"block_size_zero.json", "/block_sizes/1", "below the minimum 1"},
                      BadCase{"block_sum_wrong.json", "/block_sizes", "sum to 4 but there are 3"},
                      BadCase{"block_size_fraction.json", "/block_sizes/1", "whole number"},
                      BadCase{"bad_mode.json", "/mode", "\"raw\" or \"stable\""},
                      BadCase{"ragged_values.json", "/values/1", "components"}),
    [](const auto& info) {
      std::string n = info.param.file;
      return n.substr(0, n.find('.'));
    });

TEST(JsonFile, MissingFileAndDuplicateKeysAndDepthAndBom) {
  EXPECT_THROW(ReadJsonFile(kRoot + "/tests/data/bad/no_such_file.json"), LoadError);
  try {
    ParseJsonText(R"({"a": {"b": [1, {"c": 1, "c": 2}]}})", "x.json");
    FAIL();
  } catch (const LoadError& e) {
    EXPECT_EQ(e.json_path(), "/a/b/1/c");
  }
  EXPECT_THROW(ParseJsonText(std::string(200, '[') + std::string(200, ']'), "deep.json"), LoadError);
  EXPECT_EQ(ParseJsonText("\xEF\xBB\xBF{\"a\": 1}", "bom.json")["a"], 1);
}

TEST(Lesson, RcT3LoadsWithFourBoundSteps) {
  const Lesson l = LoadLesson(kRoot + "/lessons/rc-t3.json");
  ASSERT_EQ(l.steps.size(), 4u);
  const char* ids[] = {"RC-T3/b0", "RC-T3/b1", "RC-T3/b2", "RC-T3/b3"};
  const char* positions[] = {"start", "update:1", "update:2", "write"};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(l.steps[i].id, ids[i]);
    EXPECT_EQ(l.steps[i].position, positions[i]);
  }
  EXPECT_EQ(l.FindStep("RC-T3/b2"), 2);
}

TEST(Lesson, BadLessonsNameThePath) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "bw_lesson_test";
  fs::create_directories(dir / "scenarios");
  fs::copy_file(kRoot + "/lessons/scenarios/worked_214.json", dir / "scenarios/w.json",
                fs::copy_options::overwrite_existing);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const std::string step =
      R"("title": {"zh": "t", "en": "t"}, "body": {"zh": "b", "en": "b"}, "further": {"zh": "f", "en": "f"},
         "teacher_notes": {"zh": "n", "en": "n"}, "source": {"zh": "s", "en": "s"})";
  const auto lesson = [&](const std::string& scen, const std::string& position, const std::string& extra = "") {
    return R"({"schema_version": 1, "id": "X", "title": {"zh": "x", "en": "x"}, "scenarios": {"w": ")" + scen +
           R"("}, "steps": [{"id": "X/1", "scenario": "w", "position": ")" + position + "\", " + step + extra + "}]}";
  };
  const struct {
    std::string name, text, path;
  } cases[] = {
      {"outside.json", lesson("../outside.json", "start"), "/scenarios/w"},
      {"absolute.json", lesson("/etc/passwd", "start"), "/scenarios/w"},
  };
  for (const auto& c : cases) {
    try {
      LoadLesson(write(c.name, c.text));
      FAIL() << c.name;
    } catch (const LoadError& e) {
      EXPECT_EQ(e.json_path(), c.path) << e.what();
    }
  }
  // A missing English text.
  std::string no_en = lesson("scenarios/w.json", "start");
  no_en.replace(no_en.find(R"("body": {"zh": "b", "en": "b"})"), 30, R"("body": {"zh": "b"})");
  try {
    LoadLesson(write("no_en.json", no_en));
    FAIL();
  } catch (const LoadError& e) {
    EXPECT_EQ(e.json_path(), "/steps/0/body/en") << e.what();
  }
  EXPECT_NO_THROW(LoadLesson(write("good.json", lesson("scenarios/w.json", "write"))));
}

}  // namespace
}  // namespace bw::data

namespace bw::data {
namespace {

TEST(Scenario, WritesBackWhatItReads) {
  for (const char* f : {"worked_214.json", "worked_214_stable.json", "logits_ln2_0_ln4.json", "historical_213.json"}) {
    SCOPED_TRACE(f);
    const auto sc = LoadSingleQueryScenario(kRoot + "/lessons/scenarios/" + f);
    const auto again = ParseSingleQueryScenario(SingleQueryScenarioToJson(sc), "(round trip)");
    EXPECT_EQ(again.problem.scores, sc.problem.scores);
    EXPECT_EQ(again.problem.values, sc.problem.values);
    EXPECT_EQ(again.problem.block_sizes, sc.problem.block_sizes);
    EXPECT_EQ(again.problem.mode, sc.problem.mode);
    EXPECT_EQ(again.problem.exact_weights.has_value(), sc.problem.exact_weights.has_value());
    EXPECT_EQ(again.title.en, sc.title.en);
  }
}

}  // namespace
}  // namespace bw::data
