// The teacher's state as the class sees it (issue 30), read from the app's AppState without a window:
// the course, lesson and step ids, the position, the reveal, and the question open.
#include "classroom/teacher_state.h"

#include <gtest/gtest.h>

namespace bw::classroom {
namespace {

const std::string kRoot = BLOCKWISE_ROOT;

TEST(TeacherState, FollowsTheTeachersStepPositionAndRevealAcrossALesson) {
  app::AppState s;
  ASSERT_TRUE(app::OpenFile(s, kRoot + "/lessons/course.json")) << s.ui.error;
  ASSERT_TRUE(app::GoToStepId(s, "N50/w1"));
  TeacherState t = TeacherStateOf(s, {});
  EXPECT_EQ(t.course, s.model.course->course.id);
  EXPECT_EQ(t.lesson, "N50");
  EXPECT_EQ(t.step, "N50/w1");
  EXPECT_EQ(t.position, "event:" + std::to_string(s.ui.event + 1));
  EXPECT_EQ(t.event, s.ui.event);
  EXPECT_FALSE(t.revealed);
  // N50/w1 asks for the output: a number question whose value is the engine's 160/7.
  const auto q = QuestionNow(s);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->step_id, "N50/w1");
  ASSERT_TRUE(q->number.has_value());
  EXPECT_EQ(CheckNumberAnswer(*q, "160/7").verdict, view::CheckVerdict::kRight);
  EXPECT_EQ(CheckNumberAnswer(*q, "65/3").verdict, view::CheckVerdict::kWrong);
  app::Reveal(s);
  EXPECT_TRUE(TeacherStateOf(s, {}).revealed);
  // The controls travel as the teacher set them.
  t = TeacherStateOf(s, {.pacing_lock = true, .round = 2, .voting_closed = true});
  EXPECT_TRUE(t.pacing_lock);
  EXPECT_EQ(t.round, 2);
  EXPECT_TRUE(t.voting_closed);
}

TEST(TeacherState, ATitleCardIsNoStepAndAsksNothing) {
  app::AppState s;
  ASSERT_TRUE(app::OpenFile(s, kRoot + "/lessons/course.json")) << s.ui.error;
  ASSERT_TRUE(app::GoToStepId(s, "RC-T3/b0"));
  // PageDown from the first lesson's last step reaches the next lesson's title card.
  for (int k = 0; k < 200 && !s.OnTitleCard(); ++k) {
    if (s.PredictPending()) app::Reveal(s);
    s.ui.text_page_top = {0.0f};   // one page each (no window lays the text out here)
    app::StepLesson(s, +1);
  }
  ASSERT_TRUE(s.OnTitleCard());
  const TeacherState t = TeacherStateOf(s, {});
  EXPECT_EQ(t.step, "");
  EXPECT_FALSE(t.revealed);
  EXPECT_NE(t.lesson, "RC-T3");
  EXPECT_FALSE(QuestionNow(s).has_value());
}

}  // namespace
}  // namespace bw::classroom
