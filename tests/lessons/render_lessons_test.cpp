// Real-window render of one step of each shipped lesson (issue 17 item 8): the app runs under its
// own Xvfb server (software OpenGL), writes a PNG and the painted scene; the checks: the app exits 0,
// the image is not blank, the scene is the requested step with no error line, and every rect the
// step asks to highlight was painted. PNGs land in <build>/screenshots/lessons/ for a human to look at.
// Every step in both languages is checked without a window instead: lessons_test (highlight ids in
// the scene, placeholders filled), geometry_test (every step painted off screen at three window
// sizes and four fonts, labels never collide), classroom_test (what is shown when); render_test
// renders RC-T3's four steps in both languages. One window per lesson proves the real path (GL,
// fonts, PNG) per lesson kind at a tenth of the CI time the 100-odd windows took.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "lesson_files.h"

namespace {

namespace fs = std::filesystem;

struct StepCase {
  std::string lesson, step, lang;
  std::vector<std::string> highlight;
};

void PrintTo(const StepCase& c, std::ostream* os) { *os << c.step << " " << c.lang; }

std::vector<StepCase> AllSteps() {
  std::vector<StepCase> out;
  size_t k = 0;
  for (const auto& path : bw::lessons_test::ShippedLessons()) {
    std::ifstream in(path);
    const auto doc = nlohmann::json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.contains("steps") || doc["steps"].empty()) continue;
    // Lesson k: its step k mod n, in zh for even k and en for odd k (both languages, varied steps).
    const auto& st = doc["steps"][k % doc["steps"].size()];
    StepCase c{path.string(), st.value("id", ""), k % 2 ? "en" : "zh", {}};
    if (st.contains("highlight"))
      for (const auto& h : st["highlight"]) c.highlight.push_back(h.get<std::string>());
    out.push_back(c);
    ++k;
  }
  return out;
}

std::string FileName(const StepCase& c) {
  std::string n = c.step;
  for (auto& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n + "_" + c.lang;
}

class LessonStep : public ::testing::TestWithParam<StepCase> {};

TEST_P(LessonStep, RendersInARealWindow) {
  const StepCase& c = GetParam();
  const fs::path dir = fs::path(BLOCKWISE_TEST_OUT) / "screenshots" / "lessons";
  fs::create_directories(dir);
  const fs::path png = dir / (FileName(c) + ".png"), json = dir / (FileName(c) + ".json");
  fs::remove(png);
  const std::string cmd = "xvfb-run -a -s '-screen 0 1600x1000x24' " + std::string(BLOCKWISE_APP) +
                          " --width 1600 --height 1000 --lesson '" + c.lesson + "' --step '" + c.step + "' --lang " + c.lang +
                          " --screenshot '" + png.string() + "' --dump-scene '" + json.string() + "' > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;

  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(png.string().c_str(), &w, &h, &n, 3);
  ASSERT_NE(px, nullptr) << "no PNG at " << png;
  std::set<int> colours;
  for (int y = 0; y < h; y += 3)
    for (int x = 0; x < w; x += 3) {
      const unsigned char* p = px + (static_cast<size_t>(y) * w + x) * 3;
      colours.insert(p[0] << 16 | p[1] << 8 | p[2]);
    }
  stbi_image_free(px);
  EXPECT_GT(colours.size(), 100u) << "the image looks blank";

  std::ifstream in(json);
  const auto scene = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(scene.is_discarded()) << "no scene dump";
  EXPECT_EQ(scene["step"], c.step);
  EXPECT_EQ(scene["lang"], c.lang);
  EXPECT_EQ(scene["error"], "");
  std::set<std::string> painted;
  for (const auto& r : scene["rects"]) painted.insert(r["id"].get<std::string>());
  for (const auto& id : c.highlight) EXPECT_TRUE(painted.count(id)) << "highlight " << id << " was not painted";
}

INSTANTIATE_TEST_SUITE_P(Shipped, LessonStep, ::testing::ValuesIn(AllSteps()),
                         [](const auto& info) { return FileName(info.param); });

}  // namespace
