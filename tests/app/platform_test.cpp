// The platform seam's testable parts (no window): the heatmap's CPU mip levels (WebGL 2 cannot
// generate R32F mipmaps), the desktop settings store and the shaders' version line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

#include "app/heatmap.h"
#include "app/platform.h"

namespace bw::app {
namespace {

TEST(HeatmapMipLevel, AveragesTwoByTwo) {
  const float v[16] = {1, 3, 0, 0,
                       5, 7, 0, 0,
                       0.5f, 0.5f, 1, 0,
                       0.5f, 0.5f, 0, 0};
  int r = 0, c = 0;
  const auto m = HeatmapMipLevel(v, 4, 4, &r, &c);
  ASSERT_EQ(r, 2);
  ASSERT_EQ(c, 2);
  EXPECT_EQ(m[0], 4.0f);    // (1+3+5+7)/4
  EXPECT_EQ(m[1], 0.0f);    // every covered texel exactly 0 (masked): stays exactly 0
  EXPECT_EQ(m[2], 0.5f);
  EXPECT_EQ(m[3], 0.25f);   // one nonzero texel: small, but not 0
}

TEST(HeatmapMipLevel, OddSizesFoldTheLastRowAndColumnIn) {
  const float v[3 * 5] = {1, 1, 1, 1, 7,
                          1, 1, 1, 1, 7,
                          4, 4, 4, 4, 4};
  int r = 0, c = 0;
  const auto m = HeatmapMipLevel(v, 3, 5, &r, &c);
  ASSERT_EQ(r, 1);
  ASSERT_EQ(c, 2);
  EXPECT_EQ(m[0], 2.0f);                     // rows 0–2, cols 0–1: (1+1+1+1+4+4)/6
  EXPECT_FLOAT_EQ(m[1], 30.0f / 9.0f);   // cols 2–4 (the odd one folded in): (1+1+7 + 1+1+7 + 4+4+4)/9
}

TEST(HeatmapMipLevel, ChainEndsAtOneTexelAndPropagatesNaN) {
  float v[2 * 3] = {0.25f, 0.25f, 0.25f, 0.25f, 0.25f, std::numeric_limits<float>::quiet_NaN()};
  int r = 0, c = 0;
  const auto m = HeatmapMipLevel(v, 2, 3, &r, &c);
  ASSERT_EQ(r, 1);
  ASSERT_EQ(c, 1);
  EXPECT_TRUE(std::isnan(m[0]));  // a NaN is never averaged away into a plausible number
  const auto one = HeatmapMipLevel(m.data(), 1, 1, &r, &c);
  EXPECT_EQ(one.size(), 1u);
  EXPECT_EQ(r, 1);
  EXPECT_EQ(c, 1);
}

TEST(Platform, DesktopSettingsStoreIsAFile) {
  const auto dir = std::filesystem::temp_directory_path() / ("bw_platform_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const auto path = dir / "sub" / "settings.json";
  EXPECT_FALSE(platform::ReadSettingsText(path).has_value());
  EXPECT_EQ(platform::WriteSettingsText(path, "{\"lang\": \"en\"}\n"), "");
  ASSERT_TRUE(platform::ReadSettingsText(path).has_value());
  EXPECT_EQ(*platform::ReadSettingsText(path), "{\"lang\": \"en\"}\n");
  std::filesystem::remove_all(dir);
}

// Our shaders carry no version line: the one each is compiled with is the prelude's, first
// (gl_program.cpp passes prelude + source). A shader that gained its own #version would fail to
// compile on one of the two platforms.
TEST(Platform, ThePreludeGivesEachShaderItsOnlyVersionLine) {
  const std::string prelude = platform::ShaderPrelude();
  EXPECT_EQ(prelude, "#version 130\n");  // the desktop's GLSL 1.30, no precision line (GLSL ES only)
  std::set<std::string> seen;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(BLOCKWISE_ROOT) / "shaders")) {
    const std::string ext = e.path().extension().string();
    if (ext != ".vert" && ext != ".frag") continue;
    seen.insert(e.path().filename().string());
    std::ifstream in(e.path());
    std::stringstream text;
    text << prelude << in.rdbuf();
    int versions = 0, line_no = 0, first_at = -1;
    for (std::string line; std::getline(text, line); ++line_no) {
      const auto b = line.find_first_not_of(" \t");
      if (b != std::string::npos && line.compare(b, 8, "#version") == 0) {
        if (versions++ == 0) first_at = line_no;
      }
    }
    EXPECT_EQ(versions, 1) << e.path();
    EXPECT_EQ(first_at, 0) << e.path();
  }
  EXPECT_EQ(seen, (std::set<std::string>{"fill.frag", "fill.vert", "heatmap.frag", "heatmap.vert"}));
}

}  // namespace
}  // namespace bw::app
