// The live class's rules without a network (src/classroom/class_room.h), issue 30's acceptance list:
// a wrong code is refused; a student cannot change the step; the pacing lock holds; an answer before
// its question is open is refused; one token's answers count once; a token's rejoin restores its
// follow state; the class has a size; the state file round-trips; the histogram names the desktop's
// mistakes (the real N50 lesson, checked by the desktop's rule).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "classroom/class_room.h"
#include "session/answer_check.h"
#include "view/lesson_model.h"

namespace {

using namespace bw::classroom;
using nlohmann::json;
constexpr const char* kCode = "K7QX2M";

std::string Join(const std::string& code, const std::string& extra = "") {
  return R"({"v":1,"kind":"join","code":")" + code + "\"" + extra + "}";
}
std::string AnswerMsg(const std::string& q, int round, const std::string& a) {
  return json{{"v", 1}, {"kind", "answer"}, {"question", q}, {"round", round}, {"answer", a}}.dump();
}
const std::string kFollow = R"({"v":1,"kind":"follow"})";
const std::string kDetach = R"({"v":1,"kind":"detach"})";

std::string Kind(const std::string& frame) { return json::parse(frame).at("kind"); }

// A number question whose right answer is 160/7 and whose named mistake "average" is 65/3 (N50/w1).
bw::app::StepQuestion N50Question(const std::string& step = "Q/1") {
  bw::app::StepQuestion q;
  q.step_id = step;
  q.number = bw::view::ExpectedNumber{160.0 / 7, bw::engine::Rational(160, 7)};
  q.mistakes.push_back({"average", bw::view::ExpectedNumber{65.0 / 3, bw::engine::Rational(65, 3)}});
  return q;
}

TeacherState AtStep(const std::string& step, bool revealed = false) {
  TeacherState t;
  t.lesson = "L";
  t.step = step;
  t.position = "update:1";
  t.revealed = revealed;
  return t;
}

class Room : public ::testing::Test {
 protected:
  ClassRoom room{RoomOptions{}, kCode};
  Clock::time_point now = Clock::now();
  // A student on connection `client`: returns the token from the welcome.
  std::string Joined(ClientId client, const std::string& extra = "") {
    const Reply r = room.HandleMessage(client, Join(kCode, extra), now);
    EXPECT_EQ(r.to_client.size(), 2u);
    EXPECT_EQ(Kind(r.to_client.at(0)), "welcome");
    EXPECT_EQ(Kind(r.to_client.at(1)), "state");
    return json::parse(r.to_client.at(0)).at("token");
  }
};

TEST_F(Room, TheJoinCodeIsShortRandomAndUnambiguous) {
  std::set<std::string> codes;
  for (int i = 0; i < 50; ++i) {
    const ClassRoom r;
    ASSERT_EQ(r.code().size(), kJoinCodeLength);
    for (const char c : r.code()) EXPECT_NE(kJoinCodeAlphabet.find(c), std::string_view::npos) << r.code();
    codes.insert(r.code());
  }
  EXPECT_GT(codes.size(), 45u);  // 31^6 codes: 50 draws practically never repeat
  for (const char c : std::string("01OIL")) EXPECT_EQ(kJoinCodeAlphabet.find(c), std::string_view::npos) << c;
  EXPECT_THROW(ClassRoom(RoomOptions{}, "K7QX20"), std::invalid_argument);
}

TEST_F(Room, JoinWithAWrongCodeIsRefused) {
  for (int i = 1; i < kMaxWrongCodes; ++i) {
    const Reply r = room.HandleMessage(1, Join("ABCDEF"), now);
    ASSERT_EQ(r.to_client.size(), 1u);
    EXPECT_EQ(Kind(r.to_client[0]), "refused");
    EXPECT_NE(r.to_client[0].find("wrong join code"), std::string::npos);
    EXPECT_FALSE(r.close);
  }
  EXPECT_EQ(room.students(), 0);
  const Reply last = room.HandleMessage(1, Join("ABCDEF"), now);  // the kMaxWrongCodes-th: guessing codes closes it
  EXPECT_TRUE(last.close);
  EXPECT_NE(last.log.find("wrong join codes"), std::string::npos);
  EXPECT_EQ(room.students(), 0);
  // The right code, lower case, on a new connection joins.
  EXPECT_EQ(Kind(room.HandleMessage(2, Join("k7qx2m"), now).to_client.at(0)), "welcome");
  EXPECT_EQ(room.students(), 1);
}

TEST_F(Room, AStudentMessageThatTriesToChangeTheStepIsRefused) {
  room.SetTeacherState(AtStep("Q/1"), N50Question());
  const TeacherState before = room.teacher_state();
  const auto seq = room.state_seq();
  Joined(1);
  for (const std::string msg : {R"({"v":1,"kind":"state","step":"Q/2","position":"end"})", R"({"v":1,"kind":"reveal"})",
                                R"({"v":1,"kind":"follow","step":"Q/2"})", R"({"v":1,"kind":"detach","pacing_lock":false})",
                                R"({"v":1,"kind":"answer","question":"Q/1","round":1,"answer":"1","revealed":true})"}) {
    SCOPED_TRACE(msg);
    const Reply r = room.HandleMessage(1, msg, now);
    ASSERT_EQ(r.to_client.size(), 1u);
    EXPECT_EQ(Kind(r.to_client[0]), "refused");
    EXPECT_TRUE(r.close);
    EXPECT_NE(r.log.find("class message: "), std::string::npos) << r.log;  // the teacher's log says why
    EXPECT_EQ(room.teacher_state(), before);
    EXPECT_EQ(room.state_seq(), seq);
    Joined(1);  // (closed: the next test message comes from a new join)
  }
}

TEST_F(Room, ThePacingLockHolds) {
  const std::string token = Joined(1);
  TeacherState t = AtStep("S/1");
  room.SetTeacherState(t, std::nullopt);
  EXPECT_TRUE(room.HandleMessage(1, kDetach, now).to_client.empty());  // free pacing: detach is fine
  EXPECT_FALSE(room.Following(token));
  t.pacing_lock = true;
  room.SetTeacherState(t, std::nullopt);  // locking brings everyone back
  EXPECT_TRUE(room.Following(token));
  EXPECT_NE(room.CurrentStateMessage().find("\"pacing_lock\":true"), std::string::npos);
  const Reply r = room.HandleMessage(1, kDetach, now);
  ASSERT_EQ(r.to_client.size(), 1u);
  EXPECT_EQ(Kind(r.to_client[0]), "refused");
  EXPECT_NE(r.to_client[0].find("locked pacing"), std::string::npos);
  EXPECT_FALSE(r.close);
  EXPECT_TRUE(room.Following(token));
  EXPECT_TRUE(room.teacher_state().pacing_lock);  // and nothing a student sends unlocks it (previous test)
  t.pacing_lock = false;
  room.SetTeacherState(t, std::nullopt);
  EXPECT_TRUE(room.HandleMessage(1, kDetach, now).to_client.empty());
  EXPECT_FALSE(room.Following(token));
}

TEST_F(Room, AnAnswerBeforeTheQuestionIsOpenIsRefused) {
  Joined(1);
  auto refused = [&](const std::string& msg, const std::string& why) {
    const Reply r = room.HandleMessage(1, msg, now);
    ASSERT_EQ(r.to_client.size(), 1u) << msg;
    EXPECT_EQ(Kind(r.to_client[0]), "refused") << msg;
    EXPECT_NE(r.to_client[0].find(why), std::string::npos) << r.to_client[0];
    EXPECT_FALSE(r.close);
  };
  room.SetTeacherState(AtStep("S/1"), std::nullopt);          // a step without a question
  refused(AnswerMsg("Q/1", 1, "160/7"), "is not open");       // the question is still ahead
  refused(AnswerMsg("S/1", 1, "160/7"), "asks no question");
  TeacherState t = AtStep("Q/1");
  t.voting_closed = true;
  room.SetTeacherState(t, N50Question());
  refused(AnswerMsg("Q/1", 1, "160/7"), "closed the vote");
  t.voting_closed = false;
  room.SetTeacherState(t, N50Question());
  EXPECT_TRUE(room.QuestionOpen());
  refused(AnswerMsg("Q/1", 2, "160/7"), "round 2 is not open");
  refused(AnswerMsg("Q/1", 1, "a lot"), "not a number");
  EXPECT_EQ(room.HistogramOf("Q/1", 1)->total, 0);
  EXPECT_TRUE(room.HandleMessage(1, AnswerMsg("Q/1", 1, "160/7"), now).to_client.empty());  // open: counted
  EXPECT_EQ(room.HistogramOf("Q/1", 1)->total, 1);
  room.SetTeacherState(AtStep("Q/1", /*revealed=*/true), N50Question());
  refused(AnswerMsg("Q/1", 1, "65/3"), "has been revealed");
  EXPECT_EQ(room.HistogramOf("Q/1", 1)->right, 1);
  // Answers before a join are refused too.
  const Reply r = room.HandleMessage(9, AnswerMsg("Q/1", 1, "160/7"), now);
  EXPECT_NE(r.to_client.at(0).find("join the class first"), std::string::npos);
}

TEST_F(Room, DuplicateAnswersFromOneTokenCountOnce) {
  room.SetTeacherState(AtStep("Q/1"), N50Question());
  const std::string token = Joined(1);
  Joined(2);
  room.HandleMessage(1, AnswerMsg("Q/1", 1, "65/3"), now);
  room.HandleMessage(1, AnswerMsg("Q/1", 1, "65/3"), now);  // a repeat (a retry over a bad network)
  room.HandleMessage(2, AnswerMsg("Q/1", 1, "22.857"), now);
  auto h = *room.HistogramOf("Q/1", 1);
  EXPECT_EQ(h.total, 2);
  EXPECT_EQ(h.mistakes.at(0).count, 1);
  // A changed mind replaces the earlier answer: still one answer from the token.
  room.HandleMessage(1, AnswerMsg("Q/1", 1, "160/7"), now);
  h = *room.HistogramOf("Q/1", 1);
  EXPECT_EQ(h.total, 2);
  EXPECT_EQ(h.right, 2);
  EXPECT_EQ(h.mistakes.at(0).count, 0);
  // The same token from a new connection (Wi-Fi dropped) is the same student.
  room.Disconnect(1);
  Joined(3, ",\"token\":\"" + token + "\"");
  room.HandleMessage(3, AnswerMsg("Q/1", 1, "320/14"), now);
  h = *room.HistogramOf("Q/1", 1);
  EXPECT_EQ(h.total, 2);
  ASSERT_EQ(h.answers.size(), 2u);
  EXPECT_EQ(h.answers[0].answer, "160/7");  // 320/14 counts as 160/7
  EXPECT_EQ(h.answers[0].count, 1);
  EXPECT_EQ(h.answers[1].answer, "22.857");
  // A second round counts apart: vote, discuss, vote again.
  TeacherState t = AtStep("Q/1");
  t.round = 2;
  room.SetTeacherState(t, N50Question());
  room.HandleMessage(3, AnswerMsg("Q/1", 2, "65/3"), now);
  EXPECT_EQ(room.HistogramOf("Q/1", 2)->total, 1);
  EXPECT_EQ(room.HistogramOf("Q/1", 1)->total, 2);
}

TEST_F(Room, ReconnectWithTheTokenRestoresFollowState) {
  room.SetTeacherState(AtStep("S/4"), std::nullopt);
  const std::string token = Joined(1, R"(,"nickname":"Ann")");
  room.HandleMessage(1, kDetach, now);
  EXPECT_FALSE(room.Following(token));
  // The Wi-Fi drops; the laptop rejoins on a new connection before the old one timed out.
  const Reply r = room.HandleMessage(2, Join(kCode, ",\"token\":\"" + token + "\""), now);
  ASSERT_EQ(r.to_client.size(), 2u);
  const auto welcome = json::parse(r.to_client[0]);
  EXPECT_EQ(welcome.at("token"), token);
  EXPECT_EQ(welcome.at("following"), false);  // still exploring on its own
  EXPECT_EQ(json::parse(r.to_client[1]).at("step"), "S/4");  // and told where the class is
  EXPECT_EQ(r.superseded, std::vector<ClientId>{1});
  EXPECT_EQ(room.ClientOf(token), 2u);
  EXPECT_EQ(room.students(), 1);
  // "Back to the class": following again, at the teacher's position.
  const Reply f = room.HandleMessage(2, kFollow, now);
  ASSERT_EQ(f.to_client.size(), 1u);
  EXPECT_EQ(json::parse(f.to_client[0]).at("step"), "S/4");
  EXPECT_TRUE(room.Following(token));
  // An unknown token (another class's) is a new student.
  Joined(3, R"(,"token":"ffffffffffffffffffffffffffffffff")");
  EXPECT_EQ(room.students(), 2);
}

TEST(ClassRoom, AClassHasAStatedSizeAndSaysClassFull) {
  ClassRoom room(RoomOptions{.max_students = 3}, kCode);
  const auto now = Clock::now();
  std::vector<std::string> tokens;
  for (ClientId c = 1; c <= 3; ++c) tokens.push_back(json::parse(room.HandleMessage(c, Join(kCode), now).to_client.at(0)).at("token"));
  const Reply full = room.HandleMessage(4, Join(kCode), now);
  ASSERT_EQ(full.to_client.size(), 1u);
  EXPECT_EQ(Kind(full.to_client[0]), "class_full");
  EXPECT_TRUE(full.close);
  EXPECT_EQ(room.students(), 3);
  // A student already in rejoins a full class.
  room.Disconnect(2);
  EXPECT_EQ(Kind(room.HandleMessage(5, Join(kCode, ",\"token\":\"" + tokens[1] + "\""), now).to_client.at(0)), "welcome");
  // A removed device frees its place, and its token cannot come back.
  const auto removed_client = room.RemoveDevice(tokens[0]);
  EXPECT_EQ(removed_client, 1u);
  const Reply back = room.HandleMessage(6, Join(kCode, ",\"token\":\"" + tokens[0] + "\""), now);
  EXPECT_EQ(Kind(back.to_client.at(0)), "refused");
  EXPECT_TRUE(back.close);
  EXPECT_EQ(Kind(room.HandleMessage(7, Join(kCode), now).to_client.at(0)), "welcome");
  EXPECT_EQ(room.students(), 3);
}

TEST(ClassRoom, TheRateLimitIsATokenBucket) {
  ClassRoom room(RoomOptions{}, kCode);
  auto t = Clock::now();
  room.HandleMessage(1, Join(kCode), t);
  for (int i = 1; i < static_cast<int>(kRateBurst); ++i) ASSERT_FALSE(room.HandleMessage(1, kFollow, t).close) << i;
  Reply over = room.HandleMessage(1, kFollow, t);  // the burst's 21st message at the same instant
  EXPECT_TRUE(over.close);
  EXPECT_NE(over.log.find("messages at once"), std::string::npos);
  // Another connection, paced at the refill rate, is never closed.
  room.HandleMessage(2, Join(kCode), t);
  for (int i = 0; i < 200; ++i) {
    t += std::chrono::milliseconds(static_cast<int>(1000 / kRatePerSecond));
    ASSERT_FALSE(room.HandleMessage(2, kFollow, t).close) << i;
  }
}

TEST(ClassRoom, EndingTheClassEndsEveryConversation) {
  ClassRoom room(RoomOptions{}, kCode);
  const auto now = Clock::now();
  room.HandleMessage(1, Join(kCode), now);
  EXPECT_EQ(room.End(), std::vector<ClientId>{1});
  const Reply r = room.HandleMessage(2, Join(kCode), now);
  EXPECT_EQ(Kind(r.to_client.at(0)), "ended");
  EXPECT_TRUE(r.close);
  EXPECT_FALSE(room.QuestionOpen());
}

TEST_F(Room, TheStateFileRoundTrips) {
  const auto dir = std::filesystem::temp_directory_path() / ("bw_class_state_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "class.json";
  room.SetTeacherState(AtStep("Q/1"), N50Question());
  const std::string a = Joined(1, R"(,"nickname":"Ann")"), b = Joined(2), c = Joined(3);
  room.HandleMessage(1, AnswerMsg("Q/1", 1, "160/7"), now);
  room.HandleMessage(2, AnswerMsg("Q/1", 1, "65/3"), now);
  room.HandleMessage(3, kDetach, now);
  room.RemoveDevice(c);
  EXPECT_TRUE(room.dirty());
  room.SaveState(path);
  EXPECT_FALSE(room.dirty());
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));

  ClassRoom back = ClassRoom::Resume(path);
  EXPECT_EQ(back.code(), kCode);
  EXPECT_EQ(back.teacher_state(), room.teacher_state());
  EXPECT_EQ(back.state_seq(), room.state_seq());
  EXPECT_EQ(back.Tokens(), room.Tokens());
  EXPECT_EQ(back.students(), 2);
  EXPECT_EQ(*back.HistogramOf("Q/1", 1), *room.HistogramOf("Q/1", 1));
  EXPECT_EQ(back.StateJson(), room.StateJson());
  // The restarted teacher publishes its state again; a student rejoins with its token and changes
  // its answer: still one answer.
  back.SetTeacherState(AtStep("Q/1"), N50Question());
  const Reply r = back.HandleMessage(7, Join(kCode, ",\"token\":\"" + b + "\""), now);
  EXPECT_EQ(json::parse(r.to_client.at(0)).at("token"), b);
  back.HandleMessage(7, AnswerMsg("Q/1", 1, "160/7"), now);
  EXPECT_EQ(back.HistogramOf("Q/1", 1)->total, 2);
  EXPECT_EQ(back.HistogramOf("Q/1", 1)->right, 2);
  EXPECT_EQ(Kind(back.HandleMessage(8, Join(kCode, ",\"token\":\"" + c + "\""), now).to_client.at(0)), "refused");  // removed stays removed

  // A damaged file is refused with its JSON path.
  {
    std::ofstream out(dir / "bad.json");
    auto j = json::parse(room.StateJson());
    j["answers"][0]["verdict"] = "maybe";
    out << j.dump();
  }
  try {
    ClassRoom::Resume(dir / "bad.json");
    ADD_FAILURE() << "accepted";
  } catch (const bw::data::LoadError& e) {
    EXPECT_EQ(e.json_path(), "/answers/0/verdict");
  }
  std::filesystem::remove_all(dir);
}

TEST(ClassRoom, AnswersAreNormalisedBeforeTheyAreCounted) {
  EXPECT_EQ(NormaliseNumberAnswer("160/7"), "160/7");
  EXPECT_EQ(NormaliseNumberAnswer("320/14"), "160/7");
  EXPECT_EQ(NormaliseNumberAnswer(" ３２０／１４ "), "160/7");
  EXPECT_EQ(NormaliseNumberAnswer("\u2212" "6/3"), "-2");
  EXPECT_EQ(NormaliseNumberAnswer("≈22.857"), "22.857");
  EXPECT_EQ(NormaliseNumberAnswer("22,857"), "22.857");
  EXPECT_EQ(NormaliseNumberAnswer("007"), "7");
  EXPECT_EQ(NormaliseNumberAnswer("-0"), "0");
  EXPECT_EQ(NormaliseNumberAnswer("1/0"), "");
  EXPECT_EQ(NormaliseNumberAnswer("a lot"), "");
}

// The room counts with the desktop's own rule: N50/w1 of the shipped lesson, its engine value and
// its named mistake ("average": 65/3, the plain mean of the block outputs).
TEST(ClassRoom, TheHistogramUsesTheDesktopsCheckedExerciseRules) {
  const auto lesson = bw::view::LoadLessonModel(std::string(BLOCKWISE_ROOT) + "/lessons/n50-worked-example.json");
  const int step = lesson.lesson.FindStep("N50/w1");
  ASSERT_GE(step, 0);
  const auto q = bw::app::QuestionOf(lesson, step);
  ASSERT_TRUE(q && q->number);
  ClassRoom room(RoomOptions{}, kCode);
  TeacherState t;
  t.lesson = lesson.lesson.id;
  t.step = "N50/w1";
  room.SetTeacherState(t, q);
  const auto now = Clock::now();
  const std::vector<std::string> typed = {"160/7", "320/14", "22.857", "22.86", "65/3", "21.667", "23", "22", "１６０／７", "160"};
  for (size_t i = 0; i < typed.size(); ++i) {
    const ClientId c = 100 + i;
    room.HandleMessage(c, Join(kCode), now);
    EXPECT_TRUE(room.HandleMessage(c, AnswerMsg("N50/w1", 1, typed[i]), now).to_client.empty()) << typed[i];
  }
  const auto h = *room.HistogramOf("N50/w1", 1);
  EXPECT_EQ(h.total, 10);
  EXPECT_EQ(h.right, 5);       // 160/7 (×2 as typed, once full width), 320/14, 22.857, 22.86
  EXPECT_EQ(h.too_coarse, 1);  // 23
  EXPECT_EQ(h.wrong, 4);       // 65/3, 21.667, 22, 160
  // The lesson's known mistakes, in its order: the plain mean, u alone, l alone (N50/w1).
  ASSERT_EQ(h.mistakes.size(), 3u);
  EXPECT_EQ(h.mistakes[0].name, "average");
  EXPECT_EQ(h.mistakes[0].count, 2);  // 65/3 and 21.667 (its value correctly rounded)
  EXPECT_EQ(h.mistakes[1].name, "u@2");
  EXPECT_EQ(h.mistakes[1].count, 1);  // 160: the merged numerator, not divided by l
  EXPECT_EQ(h.mistakes[2].name, "l@2");
  EXPECT_EQ(h.mistakes[2].count, 0);
  EXPECT_EQ(h.answers.at(0).answer, "160/7");
  EXPECT_EQ(h.answers.at(0).count, 3);
  // The results, anonymous: no token, no nickname.
  const std::string csv = room.ExportCsv();
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "question,round,answer,verdict,mistake,count");
  EXPECT_NE(csv.find("N50/w1,1,160/7,right,,3\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("N50/w1,1,65/3,wrong,average,1\n"), std::string::npos) << csv;
  for (const auto& token : room.Tokens()) {
    EXPECT_EQ(csv.find(token), std::string::npos);
    EXPECT_EQ(room.ExportJson().find(token), std::string::npos);
  }
  const auto j = json::parse(room.ExportJson());
  EXPECT_EQ(j.at("questions").at(0).at("mistakes").at(0).at("count"), 2);
}

TEST(ClassRoom, AChoiceQuestionCountsChoices) {
  bw::app::StepQuestion q;
  q.step_id = "C/1";
  q.choices = 3;
  q.correct = 2;
  ClassRoom room(RoomOptions{}, kCode);
  room.SetTeacherState(AtStep("C/1"), q);
  const auto now = Clock::now();
  room.HandleMessage(1, Join(kCode), now);
  EXPECT_EQ(Kind(room.HandleMessage(1, AnswerMsg("C/1", 1, "4"), now).to_client.at(0)), "refused");
  EXPECT_EQ(Kind(room.HandleMessage(1, AnswerMsg("C/1", 1, "0"), now).to_client.at(0)), "refused");
  EXPECT_TRUE(room.HandleMessage(1, AnswerMsg("C/1", 1, "２"), now).to_client.empty());
  const auto h = *room.HistogramOf("C/1", 1);
  EXPECT_EQ(h.right, 1);
  EXPECT_EQ(h.answers.at(0).answer, "2");
}

}  // namespace
