// Every position keeps its event (issue 17 item 4): the event index of every step of every shipped
// lesson, and of a sweep of positions over every shipped scenario, pinned as the models resolved
// them before the position grammar moved into src/data/position.h. The pinned lists are
// tests/lessons/step_events.txt and tests/lessons/scenario_positions.txt; run with
// BLOCKWISE_WRITE_PINNED=1 to write them again (and say why in the commit).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "lesson_files.h"
#include "view/lesson_model.h"

namespace bw::view {
namespace {

using lessons_test::kRoot;

std::string Relative(const std::filesystem::path& p) { return std::filesystem::relative(p, kRoot).generic_string(); }

// Candidate positions for one scenario: every form with small numbers, every tensor name, and the
// ends of the event range.
std::vector<std::string> Candidates(const ScenarioModel& m) {
  std::vector<std::string> c = {"start", "end", "write", "compute", "cpu_gpu", "ep:dispatch", "ep:compute", "ep:combine"};
  const int n = m.EventCount();
  for (int e : {1, 2, 3, n, n + 1}) c.push_back("event:" + std::to_string(e));
  for (int k = 1; k <= 4; ++k)
    for (const char* f : {"load:", "update:", "token:", "cpu_gpu:token:"}) c.push_back(f + std::to_string(k));
  std::vector<std::string> tiled;
  for (int i = 1; i <= 3; ++i)
    for (int j = 1; j <= 3; ++j) tiled.push_back("tile:" + std::to_string(i) + "," + std::to_string(j));
  for (const char* t : {"Q", "K", "V", "S", "P", "O", "L", "m", "l", "D", "dO", "dP", "dS", "dQ", "dK", "dV"}) {
    tiled.push_back(std::string("compute:") + t);
    for (const char* op : {"read:", "write:"}) {
      tiled.push_back(op + std::string(t));
      for (int k = 1; k <= 3; ++k) tiled.push_back(op + std::string(t) + ":" + std::to_string(k));
    }
  }
  c.insert(c.end(), tiled.begin(), tiled.end());
  c.push_back("bwd:start");
  c.push_back("bwd:end");
  for (const auto& p : tiled) c.push_back("bwd:" + p);
  return c;
}

void CompareOrWrite(const std::string& name, const std::string& got) {
  const std::string path = kRoot + "/tests/lessons/" + name;
  if (std::getenv("BLOCKWISE_WRITE_PINNED")) {
    std::ofstream(path, std::ios::binary) << got;
    GTEST_SKIP() << "wrote " << path;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "no " << path;
  std::stringstream want;
  want << in.rdbuf();
  // Line by line, so a failure names the position that moved.
  std::istringstream w(want.str()), g(got);
  std::string wl, gl;
  int line = 0;
  while (true) {
    const bool more_w = static_cast<bool>(std::getline(w, wl)), more_g = static_cast<bool>(std::getline(g, gl));
    ++line;
    if (!more_w && !more_g) break;
    ASSERT_EQ(more_w ? wl : "(none)", more_g ? gl : "(none)") << name << " line " << line;
  }
}

TEST(PinnedPositions, EveryShippedStepKeepsItsEvent) {
  std::ostringstream out;
  for (const auto& path : lessons_test::ShippedLessons()) {
    const auto m = LoadLessonModel(path);
    for (size_t i = 0; i < m.lesson.steps.size(); ++i)
      out << Relative(path) << " " << m.lesson.steps[i].id << " " << m.lesson.steps[i].position << " "
          << m.EventOf(static_cast<int>(i)) << "\n";
  }
  CompareOrWrite("step_events.txt", out.str());
}

TEST(PinnedPositions, EveryScenarioResolvesTheSameSweep) {
  std::ostringstream out;
  for (const auto& path : lessons_test::ShippedScenarios()) {
    const auto m = LoadScenarioModel(path);
    out << Relative(path) << " (" << m->Kind() << ", " << m->EventCount() << " events)\n";
    for (const auto& p : Candidates(*m))
      if (const int e = m->FindPosition(p); e >= 0) {
        out << "  " << p << " " << e << "\n";
        // A position resolves only in a form the model says it accepts (its help text lists it).
        EXPECT_TRUE(data::Accepts(m->AcceptedPositions(), *data::ParsePosition(p))) << Relative(path) << ": " << p;
      }
  }
  CompareOrWrite("scenario_positions.txt", out.str());
}

}  // namespace
}  // namespace bw::view
