// Checked exercises (issue 11): a typed answer is checked against the engine's value before the
// answer is revealed — 160/7 typed as 160/7 or 22.857 is right, the wrong average 65/3 is not.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "data/json_file.h"
#include "view/exercise.h"
#include "view/lesson_model.h"

namespace bw::view {
namespace {

const std::string kRoot = BLOCKWISE_ROOT;

ExpectedNumber Exact(long num, long den) {
  ExpectedNumber n;
  n.exact = engine::Rational(num) / engine::Rational(den);
  n.value = static_cast<double>(num) / static_cast<double>(den);
  return n;
}

TEST(Exercise, TypedNumberAgainstAnExactValue) {
  const auto e = Exact(160, 7);
  for (const char* right : {"160/7", "320/14", "22.857", "22.86", "22.9", "22.857142857", " 160 / 7 ", "≈22.857",
                            "１６０／７", "２２．８５７", "+160/7", "22,86", "22,857", "２２，８６"})  // a decimal comma too (issue 29)
    EXPECT_EQ(CheckTypedNumber(right, e), CheckVerdict::kRight) << right;
  for (const char* wrong : {"65/3", "21.67", "21.7", "22.8", "22", "-160/7", "−22.857", "22.858", "161/7", "0"})
    EXPECT_EQ(CheckTypedNumber(wrong, e), CheckVerdict::kWrong) << wrong;
  EXPECT_EQ(CheckTypedNumber("23", e), CheckVerdict::kTooCoarse);       // right to the unit, too few digits
  EXPECT_EQ(CheckTypedNumber("21,67", e), CheckVerdict::kWrong);
  for (const char* junk : {"", "abc", "22.", "160/0", "1/2/3", "2,2,857", "22,857.1", "1e3", "12345678901234567890"})
    EXPECT_EQ(CheckTypedNumber(junk, e), CheckVerdict::kUnreadable) << junk;
}

TEST(Exercise, TypedNumberAgainstACount) {
  const auto e = Exact(8, 1);
  EXPECT_EQ(CheckTypedNumber("8", e), CheckVerdict::kRight);
  EXPECT_EQ(CheckTypedNumber("8.0", e), CheckVerdict::kRight);
  EXPECT_EQ(CheckTypedNumber("16/2", e), CheckVerdict::kRight);
  EXPECT_EQ(CheckTypedNumber("9", e), CheckVerdict::kWrong);
  EXPECT_EQ(CheckTypedNumber("8.4", e), CheckVerdict::kWrong);
  ASSERT_TRUE(WholeNumber("1,234"));
  EXPECT_EQ(WholeNumber("1,234")->value, 1234);
  EXPECT_FALSE(WholeNumber("22.86"));
  EXPECT_FALSE(WholeNumber("160/7 \u2248 22.86"));
}

// α = 1/2 (N50/s1): 0 and 1 — block 1's α and block 2's β, the mix-up the step asks about — are wrong,
// not "on the right track": exactly half a unit away is no rounding, and 0 has no significant digit.
// 0.5 is right; 0.50 and 1/2 too. (Issue 29's walk-through typed 0 and was told to add digits.)
TEST(Exercise, ATieOrAZeroIsNoRounding) {
  const auto half = Exact(1, 2);
  for (const char* t : {"0", "1", "0.0", "-0", "00"}) EXPECT_EQ(CheckTypedNumber(t, half), CheckVerdict::kWrong) << t;
  for (const char* t : {"0.5", "0.50", "1/2", "2/4"}) EXPECT_EQ(CheckTypedNumber(t, half), CheckVerdict::kRight) << t;
  EXPECT_EQ(CheckTypedNumber("0", Exact(0, 1)), CheckVerdict::kRight);              // zero is right for zero
  EXPECT_EQ(CheckTypedNumber("2", Exact(19, 9)), CheckVerdict::kTooCoarse);         // 2.11…: 2 is its rounding
  EXPECT_EQ(CheckTypedNumber("0.002", Exact(1, 500)), CheckVerdict::kRight);       // = the value exactly
  EXPECT_EQ(CheckTypedNumber("0.00", Exact(1, 1000)), CheckVerdict::kWrong);        // no significant digit
  ExpectedNumber d{0.5, std::nullopt};
  for (const char* t : {"0", "1"}) EXPECT_EQ(CheckTypedNumber(t, d), CheckVerdict::kWrong) << t;
}

// Without an exact value (a double), a decimal must still be correctly rounded; NaN is never right.
TEST(Exercise, TypedNumberAgainstADouble) {
  ExpectedNumber e{0.1234567, std::nullopt};
  EXPECT_EQ(CheckTypedNumber("0.123", e), CheckVerdict::kRight);
  EXPECT_EQ(CheckTypedNumber("0.1235", e), CheckVerdict::kRight);
  EXPECT_EQ(CheckTypedNumber("0.124", e), CheckVerdict::kWrong);
  EXPECT_EQ(CheckTypedNumber("0.12", e), CheckVerdict::kTooCoarse);
  ExpectedNumber nan{std::nan(""), std::nullopt};
  for (const char* t : {"0", "nan", "0.0"}) EXPECT_NE(CheckTypedNumber(t, nan), CheckVerdict::kRight) << t;
}

// The shipped lessons: N50/w1 checks the merged output 160/7 of the worked example; every number
// check names a number the engine has at the step's position.
TEST(Exercise, ShippedLessonsCheckEngineValues) {
  const auto m = LoadLessonModel(kRoot + "/lessons/n50-worked-example.json");
  const int w1 = m.lesson.FindStep("N50/w1");
  ASSERT_GE(w1, 0);
  const auto& check = m.lesson.steps[w1].check;
  ASSERT_TRUE(check);
  EXPECT_EQ(check->number, "output");
  const auto expected = m.ScenarioOf(w1).NumberAt(m.EventOf(w1), check->number);
  ASSERT_TRUE(expected && expected->exact);
  EXPECT_TRUE(*expected->exact == engine::Rational(160) / engine::Rational(7));
  EXPECT_EQ(CheckTypedNumber("160/7", *expected), CheckVerdict::kRight);
  EXPECT_EQ(CheckTypedNumber("22.857", *expected), CheckVerdict::kRight);
  // The wrong average of the block outputs, as the engine computes it, is refused.
  const auto average = m.ScenarioOf(w1).NumberAt(m.EventOf(w1), "average");
  ASSERT_TRUE(average && average->exact);
  EXPECT_TRUE(*average->exact == engine::Rational(65) / engine::Rational(3));
  EXPECT_EQ(CheckTypedNumber("65/3", *expected), CheckVerdict::kWrong);
  EXPECT_EQ(CheckTypedNumber("21.67", *expected), CheckVerdict::kWrong);
  // α for the larger maximum of block 2 is exactly 1/2.
  const int s1 = m.lesson.FindStep("N50/s1");
  const auto alpha = m.ScenarioOf(s1).NumberAt(m.EventOf(s1), m.lesson.steps[s1].check->number);
  ASSERT_TRUE(alpha && alpha->exact);
  EXPECT_TRUE(*alpha->exact == engine::Rational(1) / engine::Rational(2));
  EXPECT_EQ(CheckTypedNumber("0.5", *alpha), CheckVerdict::kRight);
}

TEST(Exercise, UnknownNumberNamesTheJsonPath) {
  const auto dir = std::filesystem::temp_directory_path() / ("bw_exercise_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "scenarios");
  std::filesystem::copy_file(kRoot + "/lessons/scenarios/worked_214.json", dir / "scenarios/w.json",
                             std::filesystem::copy_options::overwrite_existing);
  const std::string step =
      R"({"id": "X/1", "scenario": "w", "position": "start", "title": {"zh": "t", "en": "t"}, "body": {"zh": "b", "en": "b"},
          "further": {"zh": "f", "en": "f"}, "teacher_notes": {"zh": "n", "en": "n"}, "source": {"zh": "s", "en": "s"},
          "predict": {"zh": "p", "en": "p"}, "check": {"number": "l"}})";
  std::ofstream(dir / "x.json") << R"({"schema_version": 1, "id": "X", "title": {"zh": "x", "en": "x"},
      "scenarios": {"w": "scenarios/w.json"}, "steps": [)" << step << "]}";
  try {
    LoadLessonModel(dir / "x.json");   // at "start" nothing is merged: l is not a number yet
    FAIL() << "expected a LoadError";
  } catch (const data::LoadError& e) {
    EXPECT_EQ(e.json_path(), "/steps/0/check/number");
    EXPECT_NE(std::string(e.what()).find("no single number \"l\""), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace bw::view
