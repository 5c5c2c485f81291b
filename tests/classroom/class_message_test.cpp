// The class protocol's parser (src/classroom/class_message.h) against tests/classroom/messages.json:
// every case is accepted, or refused at its JSON path with its reason. schema_agreement.py holds the
// schema to the same cases, so parser and schema agree.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "classroom/class_message.h"

namespace {

using namespace bw::classroom;

nlohmann::json Manifest() {
  std::ifstream in(std::string(BLOCKWISE_ROOT) + "/tests/classroom/messages.json");
  return nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
}

std::string CaseText(const nlohmann::json& c) {
  std::string text = c.at("text").get<std::string>();
  const int pad = c.value("pad", 0);
  if (pad > 0) text.insert(1, static_cast<size_t>(pad), ' ');
  return text;
}

TEST(ClassMessage, EveryCaseOfTheCorpusIsDecidedAsItSays) {
  const auto m = Manifest();
  int checked = 0;
  for (const auto& c : m.at("cases")) {
    const std::string name = c.at("name");
    SCOPED_TRACE(name);
    const std::string text = CaseText(c);
    if (c.at("ok").get<bool>()) {
      EXPECT_NO_THROW(ParseStudentMessage(text));
    } else {
      try {
        ParseStudentMessage(text);
        ADD_FAILURE() << name << ": accepted";
      } catch (const bw::data::LoadError& e) {
        EXPECT_EQ(e.file(), kMessageFile);
        EXPECT_EQ(e.json_path(), c.at("path").get<std::string>()) << e.what();
        EXPECT_NE(e.reason().find(c.at("reason").get<std::string>()), std::string::npos) << e.what();
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 60);
}

TEST(ClassMessage, FieldsAreReadAsSent) {
  const auto j = ParseStudentMessage(R"({"v":1,"kind":"join","code":"k7qx2m","nickname":"小明","token":"0123456789abcdef0123456789abcdef"})");
  const auto& join = std::get<JoinMessage>(j);
  EXPECT_EQ(join.code, "K7QX2M");  // lower case read as upper
  EXPECT_EQ(join.nickname, "小明");
  EXPECT_EQ(join.token, "0123456789abcdef0123456789abcdef");
  const auto a = std::get<AnswerMessage>(ParseStudentMessage(R"({"v":1,"kind":"answer","question":"N50/w1","round":2,"answer":"160/7"})"));
  EXPECT_EQ(a.question, "N50/w1");
  EXPECT_EQ(a.round, 2);
  EXPECT_EQ(a.answer, "160/7");
  EXPECT_TRUE(std::holds_alternative<FollowMessage>(ParseStudentMessage(R"({"v":1,"kind":"follow"})")));
  EXPECT_TRUE(std::holds_alternative<DetachMessage>(ParseStudentMessage(R"({"v":1,"kind":"detach"})")));
}

TEST(ClassMessage, TheByteLimitIsTheFramesLength) {
  std::string at_limit = R"({"v":1,"kind":"follow"})";
  at_limit.insert(1, kMaxMessageBytes - at_limit.size(), ' ');
  EXPECT_EQ(at_limit.size(), kMaxMessageBytes);
  EXPECT_NO_THROW(ParseStudentMessage(at_limit));
  EXPECT_THROW(ParseStudentMessage(at_limit + " "), bw::data::LoadError);
}

TEST(ClassMessage, TheStateNeverCarriesAnAnswer) {
  TeacherState s;
  s.lesson = "N50";
  s.step = "N50/w1";
  s.position = "update:2";
  const auto j = nlohmann::json::parse(StateMessage(s, 7, true));
  EXPECT_EQ(j.at("kind"), "state");
  EXPECT_EQ(j.at("seq"), 7);
  EXPECT_EQ(j.at("step"), "N50/w1");
  EXPECT_FALSE(j.contains("answer"));
  for (const auto& [k, v] : j.items()) EXPECT_EQ(k.find("answer"), std::string::npos) << k;
}

TEST(ClassMessage, CodePointsCountCharactersNotBytes) {
  EXPECT_EQ(CodePoints("abc"), 3u);
  EXPECT_EQ(CodePoints("小明"), 2u);
  EXPECT_EQ(CodePoints("\xF0\x9F\x98\x80"), 1u);
}

}  // namespace
