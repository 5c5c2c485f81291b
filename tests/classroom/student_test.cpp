// The student's side of a live class (src/classroom/student.h), without a network or a window: a
// teacher's AppState walks the whole shipped course with PageDown while a student's AppState (another
// language, not projector) receives every state the class server would send; the student's screen
// shows the teacher's lesson, step or card, event and reveal at every press. Then the rules: an
// unrevealed answer is never on a following student's screen, the pacing lock undoes a student's own
// move, an unlocked move detaches, an answer goes to the class and is judged at the teacher's reveal,
// and the frames the student sends are counted by the class's own rules (ClassRoom).
#include "classroom/student.h"

#include <gtest/gtest.h>

#include <set>
#include <variant>

#include "classroom/class_room.h"
#include "classroom/teacher_state.h"
#include "view/ui_text.h"

namespace bw::classroom {
namespace {

const std::string kRoot = BLOCKWISE_ROOT;

struct Class {
  app::AppState teacher, student;
  ClassControls controls;
  std::uint64_t seq = 0;

  Class() {
    EXPECT_TRUE(app::OpenFile(teacher, kRoot + "/lessons/course.json")) << teacher.ui.error;
    EXPECT_TRUE(app::OpenFile(student, kRoot + "/lessons/course.json")) << student.ui.error;
    student.options.lang = "en";
    Connected(student, "K7QX2M");
    EXPECT_TRUE(OnServerFrame(student, WelcomeMessage(std::string(32, 'a'), true)));
  }
  // What the class server sends when the teacher's screen changes.
  void Publish() {
    const TeacherState t = TeacherStateOf(teacher, controls);
    EXPECT_TRUE(OnServerFrame(student, StateMessage(t, ++seq, QuestionNow(teacher).has_value() && !t.revealed)));
  }
  static std::string Where(const app::AppState& s) {
    const TeacherState t = TeacherStateOf(s, {});
    return t.lesson + " " + t.step + " [" + t.card + "] event " + std::to_string(t.event) + (t.revealed ? " revealed" : "");
  }
  void TeacherPageDown() {
    teacher.ui.text_page_top = {0.0f};   // one page each (no window lays the text out here)
    app::StepLesson(teacher, +1);
    Publish();
  }
};

TEST(Student, FollowsTheTeacherThroughTheWholeCourseOnPageDown) {
  Class c;
  ASSERT_TRUE(app::GoToStepId(c.teacher, c.teacher.model.course->outlines.front().id));   // the first lesson's title card
  c.Publish();
  int presses = 0, steps = 0, reveals = 0, cards = 0;
  std::set<std::string> lessons;
  while (!c.teacher.OnEndCard() && presses < 2000) {
    c.TeacherPageDown();
    ++presses;
    ASSERT_EQ(Class::Where(c.student), Class::Where(c.teacher)) << "after PageDown " << presses;
    const TeacherState t = TeacherStateOf(c.teacher, {});
    steps += !t.step.empty() && !t.revealed;
    reveals += t.revealed;
    cards += t.card == "title";
    lessons.insert(t.lesson);
    EXPECT_TRUE(c.student.ui.student.following);
  }
  EXPECT_TRUE(c.student.OnEndCard());
  EXPECT_EQ(static_cast<int>(lessons.size()), c.teacher.model.course->LessonCount());
  EXPECT_EQ(cards + 1, c.teacher.model.course->LessonCount());   // a title card before each lesson but the first (shown before the walk)
  EXPECT_GT(reveals, 10);
  EXPECT_GT(steps, 40);
  EXPECT_EQ(c.student.options.lang, "en");   // the student's own language
  // PageUp walks it back the same way.
  for (int k = 0; k < 5; ++k) {
    c.teacher.ui.text_page_top = {0.0f};
    app::StepLesson(c.teacher, -1);
    c.Publish();
    ASSERT_EQ(Class::Where(c.student), Class::Where(c.teacher));
  }
}

TEST(Student, AnOlderOrRepeatedStateIsIgnored) {
  Class c;
  ASSERT_TRUE(app::GoToStepId(c.teacher, "N50/w2"));
  const std::string newer = StateMessage(TeacherStateOf(c.teacher, {}), 5, false);
  ASSERT_TRUE(app::GoToStepId(c.teacher, "N50/w1"));
  const std::string older = StateMessage(TeacherStateOf(c.teacher, {}), 4, true);
  EXPECT_TRUE(OnServerFrame(c.student, newer));
  EXPECT_TRUE(OnServerFrame(c.student, older));
  EXPECT_EQ(c.student.CurrentStep()->id, "N50/w2");
}

TEST(Student, AnUnrevealedAnswerIsNeverOnAFollowingStudentsScreen) {
  Class c;
  ASSERT_TRUE(app::GoToStepId(c.teacher, "N50/w1"));
  c.Publish();
  ASSERT_TRUE(c.student.PredictPending());
  // Exploring, the student reveals it on their own …
  Detach(c.student);
  app::Reveal(c.student);
  EXPECT_TRUE(c.student.ui.revealed);
  // … back in the class, the teacher has not revealed it: hidden again.
  Follow(c.student);
  EXPECT_FALSE(c.student.ui.revealed);
  EXPECT_TRUE(c.student.PredictPending());
  // The teacher's reveal shows it.
  app::Reveal(c.teacher);
  c.Publish();
  EXPECT_TRUE(c.student.ui.revealed);
}

TEST(Student, PacingLockUndoesTheStudentsOwnMoveAndRefusesDetach) {
  Class c;
  c.controls.pacing_lock = true;
  ASSERT_TRUE(app::GoToStepId(c.teacher, "N50/w1"));
  c.Publish();
  const std::string at = Class::Where(c.student);
  // PageDown on the student's own device: reveal refused (the answer is the teacher's to show) …
  c.student.ui.text_page_top = {0.0f};
  app::StepLesson(c.student, +1);
  EXPECT_FALSE(c.student.ui.revealed);
  // … and a move past the teacher's step is undone.
  app::GoToStepId(c.student, "N50/w3");
  AfterInput(c.student);
  EXPECT_EQ(Class::Where(c.student), at);
  EXPECT_TRUE(c.student.ui.student.following);
  EXPECT_EQ(c.student.ui.student.line, view::UiText(view::Str::student_locked, "en"));
  Detach(c.student);
  EXPECT_TRUE(c.student.ui.student.following);
  EXPECT_TRUE(TakeOutbox(c.student).empty());   // no detach sent
}

TEST(Student, AnUnlockedMoveDetachesAndBackToTheClassRejoinsAtTheTeachersPosition) {
  Class c;
  ASSERT_TRUE(app::GoToStepId(c.teacher, "N50/w1"));
  c.Publish();
  app::GoToStepId(c.student, "N50/w3");
  AfterInput(c.student);
  EXPECT_FALSE(c.student.ui.student.following);
  auto out = TakeOutbox(c.student);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<DetachMessage>(ParseStudentMessage(out[0])));
  // Exploring: the teacher's moves are not applied.
  c.TeacherPageDown();
  EXPECT_EQ(c.student.CurrentStep()->id, "N50/w3");
  EXPECT_NE(Class::Where(c.student), Class::Where(c.teacher));
  Follow(c.student);
  EXPECT_EQ(Class::Where(c.student), Class::Where(c.teacher));
  out = TakeOutbox(c.student);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<FollowMessage>(ParseStudentMessage(out[0])));
}

TEST(Student, AnAnswerGoesToTheClassAndIsJudgedAtTheTeachersReveal) {
  Class c;
  ClassRoom room({}, "K7QX2M");
  const auto now = Clock::now();
  ASSERT_TRUE(app::GoToStepId(c.teacher, "N50/w1"));
  room.SetTeacherState(TeacherStateOf(c.teacher, {}), QuestionNow(c.teacher));
  // The student joins the room with the frame its page sends, and gets the room's own state.
  auto r = room.HandleMessage(1, JoinMessageText({"k7qx2m", std::nullopt, std::nullopt}), now);
  ASSERT_FALSE(r.close);
  for (const auto& f : r.to_client) EXPECT_TRUE(OnServerFrame(c.student, f)) << f;
  ASSERT_EQ(c.student.CurrentStep()->id, "N50/w1");
  ASSERT_TRUE(c.student.ui.student.question_open);
  // The plain mean, typed on the student's device: no verdict yet, the answer goes out.
  const std::string typed = "65/3";
  std::copy(typed.begin(), typed.end(), c.student.ui.answer_typed.begin());
  app::CheckTypedAnswer(c.student);
  EXPECT_EQ(c.student.ui.answer_verdict, -1);
  EXPECT_FALSE(c.student.ui.revealed);
  const auto out = TakeOutbox(c.student);
  ASSERT_EQ(out.size(), 1u);
  const StudentMessage sent = ParseStudentMessage(out[0]);
  const auto* a = std::get_if<AnswerMessage>(&sent);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->question, "N50/w1");
  EXPECT_EQ(a->answer, "65/3");
  r = room.HandleMessage(1, out[0], now);
  EXPECT_FALSE(r.close);
  const auto h = room.HistogramOf("N50/w1", 1);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->total, 1);
  EXPECT_EQ(h->wrong, 1);
  ASSERT_FALSE(h->answers.empty());
  EXPECT_EQ(h->answers[0].answer, "65/3");
  EXPECT_GE(h->answers[0].mistake, 0);   // named: the plain mean
  // The teacher reveals: the student's screen shows the answer and the verdict of what they sent.
  app::Reveal(c.teacher);
  room.SetTeacherState(TeacherStateOf(c.teacher, {}), QuestionNow(c.teacher));
  EXPECT_TRUE(OnServerFrame(c.student, room.CurrentStateMessage()));
  EXPECT_TRUE(c.student.ui.revealed);
  EXPECT_EQ(c.student.ui.answer_verdict, static_cast<int>(view::CheckVerdict::kWrong));
  EXPECT_GE(c.student.ui.answer_mistake, 0);
  // The page's verdict bar (a phone) says the same as the check row: the mistake named, in purple.
  const PageQuestion q = QuestionForPage(c.student);
  EXPECT_TRUE(q.wrong);
  EXPECT_EQ(q.verdict, app::VerdictLine(c.student));
  EXPECT_EQ(q.verdict.rfind("\u00d7 ", 0), 0u) << q.verdict;
  EXPECT_NE(q.verdict.find("65/3"), std::string::npos) << q.verdict;
}

// A phone answers through the page's own field (no on-screen keyboard for a canvas): the page asks
// whether a typed question is open, sends the text, and it goes out like a typed answer — once.
TEST(Student, ThePagesAnswerFieldSendsToTheOpenTypedQuestionOnly) {
  Class c;
  ASSERT_TRUE(app::GoToStepId(c.teacher, "RC-T3/b2"));   // a choice question: no typed field
  c.Publish();
  EXPECT_FALSE(QuestionForPage(c.student).typed);
  EXPECT_FALSE(AnswerFromPage(c.student, "2"));
  ASSERT_TRUE(app::GoToStepId(c.teacher, "N50/w1"));
  c.Publish();
  PageQuestion q = QuestionForPage(c.student);
  ASSERT_TRUE(q.typed);
  EXPECT_EQ(q.step, "N50/w1");
  EXPECT_EQ(q.sent, "");
  EXPECT_TRUE(AnswerFromPage(c.student, "160/7"));
  EXPECT_EQ(QuestionForPage(c.student).sent, "160/7");
  const auto out = TakeOutbox(c.student);
  ASSERT_EQ(out.size(), 1u);
  const StudentMessage sent = ParseStudentMessage(out[0]);
  ASSERT_TRUE(std::holds_alternative<AnswerMessage>(sent));
  EXPECT_EQ(std::get<AnswerMessage>(sent).answer, "160/7");
  EXPECT_EQ(c.student.ui.answer_verdict, -1) << "no verdict before the teacher's reveal";
  // Revealed: the field is gone, and the page can show the verdict of what was sent.
  app::Reveal(c.teacher);
  c.Publish();
  q = QuestionForPage(c.student);
  EXPECT_FALSE(q.typed);
  EXPECT_FALSE(AnswerFromPage(c.student, "22.86"));
  EXPECT_EQ(q.verdict, view::UiText(view::Str::check_right, "en"));
  EXPECT_FALSE(q.wrong);
}

TEST(Student, EndedAndFullAndGarbageAreSaidInTheClassBar) {
  Class c;
  EXPECT_FALSE(OnServerFrame(c.student, "{\"v\":1,\"kind\":\"state\"}"));
  EXPECT_NE(c.student.ui.student.line.find("/seq"), std::string::npos) << c.student.ui.student.line;
  EXPECT_TRUE(OnServerFrame(c.student, EndedMessage()));
  EXPECT_TRUE(c.student.ui.student.ended);
  EXPECT_EQ(c.student.ui.student.line, view::UiText(view::Str::student_ended, "en"));
  // Ended: the student's own moves stay theirs, nothing is sent.
  app::GoToStepId(c.student, "N50/w3");
  AfterInput(c.student);
  EXPECT_TRUE(TakeOutbox(c.student).empty());
  Class d;
  EXPECT_TRUE(OnServerFrame(d.student, ClassFullMessage()));
  EXPECT_EQ(d.student.ui.student.line, view::UiText(view::Str::student_class_full, "en"));
}

}  // namespace
}  // namespace bw::classroom
