// Real-window tests: the blockwise app runs under Xvfb (software OpenGL), renders each RC-T3 step,
// writes a PNG and the painted scene; the checks read both — the image is not blank, each tile's
// pixels have the colour of the state the scene says, and each arrow is drawn where it should be.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace {

namespace fs = std::filesystem;
const std::string kRoot = BLOCKWISE_ROOT;
const std::string kApp = BLOCKWISE_APP;

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> px;  // RGBA
  std::array<int, 3> At(int x, int y) const {
    const size_t i = (static_cast<size_t>(y) * w + x) * 4;
    return {px[i], px[i + 1], px[i + 2]};
  }
};

Image LoadPng(const std::string& path) {
  Image img;
  int n = 0;
  unsigned char* data = stbi_load(path.c_str(), &img.w, &img.h, &n, 4);
  if (!data) return img;
  img.px.assign(data, data + static_cast<size_t>(img.w) * img.h * 4);
  stbi_image_free(data);
  return img;
}

bool Near(std::array<int, 3> a, const nlohmann::json& rgb, int tol) {
  for (int c = 0; c < 3; ++c)
    if (std::abs(a[c] - rgb[c].get<int>()) > tol) return false;
  return true;
}

// Runs the app in its own Xvfb server; returns the exit status.
int RunApp(const std::string& args, int w = 1600, int h = 1000) {
  const std::string cmd = "xvfb-run -a -s '-screen 0 1920x1440x24' " + kApp + " --width " + std::to_string(w) + " --height " +
                          std::to_string(h) + " " + args + " > /dev/null 2>&1";
  return std::system(cmd.c_str());
}

fs::path OutDir() {
  const fs::path d = fs::path(BLOCKWISE_TEST_OUT) / "screenshots";
  fs::create_directories(d);
  return d;
}

struct Rendered {
  Image img;
  nlohmann::json scene;
};

Rendered Render(const std::string& step, const std::string& lang, const std::string& extra = "") {
  std::string name = step;
  for (auto& c : name)
    if (c == '/') c = '_';
  name += "_" + lang;
  const auto png = OutDir() / (name + ".png");
  const auto json = OutDir() / (name + ".json");
  fs::remove(png);
  const std::string app_lang = lang.substr(0, 2);
  const int rc = RunApp("--lesson " + kRoot + "/lessons/rc-t3.json --step " + step + " --lang " + app_lang +
                        " --screenshot " + png.string() + " --dump-scene " + json.string() + " " + extra);
  EXPECT_EQ(rc, 0) << "app exited with " << rc;
  Rendered r;
  r.img = LoadPng(png.string());
  std::ifstream in(json);
  if (in) r.scene = nlohmann::json::parse(in);
  return r;
}

void CheckNotBlank(const Image& img) {
  ASSERT_GT(img.w, 0) << "no PNG was written";
  std::set<int> colours;
  for (int y = 0; y < img.h; y += 3)
    for (int x = 0; x < img.w; x += 3) {
      const auto c = img.At(x, y);
      colours.insert(c[0] << 16 | c[1] << 8 | c[2]);
    }
  EXPECT_GT(colours.size(), 100u) << "the image looks blank";
}

// The tile's own fill, sampled away from its centred labels (left edge, middle height).
void CheckTiles(const Rendered& r) {
  int checked = 0;
  for (const auto& rect : r.scene["rects"]) {
    const std::string state = rect["state"];
    if (state != "processed" && state != "pending" && state != "in_sram") continue;
    const auto box = rect["box"];
    const int x = static_cast<int>(box[0].get<float>()) + 9;
    const int y = static_cast<int>((box[1].get<float>() + box[3].get<float>()) / 2);
    EXPECT_TRUE(Near(r.img.At(x, y), rect["fill"], 6))
        << rect["id"] << " (" << state << ") at " << x << "," << y << " is " << r.img.At(x, y)[0] << ","
        << r.img.At(x, y)[1] << "," << r.img.At(x, y)[2];
    ++checked;
  }
  EXPECT_GE(checked, 3);
}

void CheckArrow(const Rendered& r, const std::string& id) {
  for (const auto& a : r.scene["arrows"]) {
    if (a["id"] != id) continue;
    // Midpoint of the longest segment of the shaft.
    const auto& pts = a["points"];
    float best = -1, mx = 0, my = 0;
    for (size_t i = 1; i < pts.size(); ++i) {
      const float x0 = pts[i - 1][0], y0 = pts[i - 1][1], x1 = pts[i][0], y1 = pts[i][1];
      const float len = std::hypot(x1 - x0, y1 - y0);
      if (len > best) best = len, mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
    }
    bool hit = false;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) hit |= Near(r.img.At(static_cast<int>(mx) + dx, static_cast<int>(my) + dy), a["color"], 10);
    EXPECT_TRUE(hit) << id << " not drawn at " << mx << "," << my;
    return;
  }
  ADD_FAILURE() << "arrow " << id << " missing from the scene";
}

struct StepCase {
  const char* step;
  const char* arrow;
  std::vector<std::pair<const char*, const char*>> states;  // tile id → state
};

void PrintTo(const StepCase& c, std::ostream* os) { *os << c.step; }

class RcT3Step : public ::testing::TestWithParam<std::tuple<StepCase, const char*>> {};

TEST_P(RcT3Step, RendersTheSceneOnPixels) {
  const auto& [c, lang] = GetParam();
  const Rendered r = Render(c.step, lang);
  CheckNotBlank(r.img);
  if (::testing::Test::HasFatalFailure()) return;
  ASSERT_TRUE(r.scene.contains("rects"));
  EXPECT_EQ(r.scene["step"], c.step);
  EXPECT_EQ(r.scene["error"], "");
  for (const auto& [id, state] : c.states) {
    bool found = false;
    for (const auto& rect : r.scene["rects"])
      if (rect["id"] == id) {
        found = true;
        EXPECT_EQ(rect["state"], state) << id;
      }
    EXPECT_TRUE(found) << id;
  }
  CheckTiles(r);
  CheckArrow(r, c.arrow);
}

INSTANTIATE_TEST_SUITE_P(
    RcT3, RcT3Step,
    ::testing::Combine(
        ::testing::Values(
            StepCase{"RC-T3/b0", "read.q", {{"hbm.kv.1", "pending"}, {"hbm.kv.2", "pending"}, {"hbm.o", "not_written"}}},
            // At its update a block is merged (done); its tile is still the one in the SRAM slot.
            StepCase{"RC-T3/b1", "merge.1", {{"hbm.kv.1", "processed"}, {"hbm.kv.2", "pending"}, {"sram.kv", "in_sram"}}},
            StepCase{"RC-T3/b2", "merge.2", {{"hbm.kv.1", "processed"}, {"hbm.kv.2", "processed"}, {"sram.kv", "in_sram"}}},
            StepCase{"RC-T3/b3", "write.o", {{"hbm.kv.1", "processed"}, {"hbm.kv.2", "processed"}, {"hbm.o", "written"}}}),
        ::testing::Values("zh", "en")),
    [](const auto& info) {
      std::string n = std::get<0>(info.param).step;
      return n.substr(n.find('/') + 1) + "_" + std::get<1>(info.param);
    });

TEST(App, BadFileShowsTheErrorAndKeepsTheScenario) {
  const Rendered r = Render("RC-T3/b2", "en", "--open-after " + kRoot + "/tests/data/bad/negative_weight.json");
  CheckNotBlank(r.img);
  const std::string err = r.scene["error"];
  EXPECT_NE(err.find("negative_weight.json: /weights/1: weight is negative"), std::string::npos) << err;
  EXPECT_EQ(r.scene["step"], "RC-T3/b2");
  EXPECT_EQ(r.scene["event"], "update:2");
  CheckTiles(r);
}

// The recording's computed (not skipped) tiles that have ended `t_ns` after its first tile began:
// counted here from the file, apart from view::FrameAt, which the panel uses.
long long ComputedTilesEndedBy(const nlohmann::json& rec, double t_ns) {
  const auto& fields = rec["tile_fields"];
  int start = -1, end = -1, flags = -1;
  for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
    if (fields[i] == "t_start_ns") start = i;
    if (fields[i] == "t_end_ns") end = i;
    if (fields[i] == "flags") flags = i;
  }
  EXPECT_TRUE(start >= 0 && end >= 0 && flags >= 0) << fields;
  double t0 = rec["tiles"][0][start].get<double>();
  for (const auto& t : rec["tiles"]) t0 = std::min(t0, t[start].get<double>());
  long long n = 0;
  for (const auto& t : rec["tiles"])
    if ((t[flags].get<unsigned>() & 1u) == 0 && t[end].get<double>() - t0 <= t_ns) ++n;  // 1: skipped
  return n;
}

TEST(App, GpuPanelReplaysTheH200Recording) {
  // The replay runs 20,000× slowed: 4 s in is 200 µs of the GPU's 998 µs, mid-run; 60 s is past its end.
  std::ifstream in(kRoot + "/assets/gpu/recorded_run_h200.json");
  ASSERT_TRUE(in);
  const nlohmann::json rec = nlohmann::json::parse(in);
  for (const char* at : {"4", "60"}) {
    const Rendered r = Render("RC-T3/b0", std::string("en_gpu") + at, std::string("--gpu-replay-at ") + at);
    CheckNotBlank(r.img);
    const auto& g = r.scene["gpu"];
    ASSERT_EQ(g["recording"], "recorded_run_h200.json") << at;
    EXPECT_EQ(g["computed_total"], 128 * 129 / 2) << at;  // N = 8192, 64 × 64 tiles, causal
    const double pos_us = g["position_us"].get<double>(), span_us = g["span_us"].get<double>();
    const long long computed = g["computed"].get<long long>();
    if (std::string(at) == "4") {
      // Started at 200 µs and playing since (≈ 50 µs of GPU time per second of the app's run).
      EXPECT_GE(pos_us, 200.0);
      EXPECT_LT(pos_us, span_us);
      EXPECT_EQ(g["paused"], false);
      // The grid shows exactly the tiles that had ended by then (±1 ns: the position is a double).
      EXPECT_GE(computed, ComputedTilesEndedBy(rec, pos_us * 1e3 - 1.0));
      EXPECT_LE(computed, ComputedTilesEndedBy(rec, pos_us * 1e3 + 1.0));
      EXPECT_GT(computed, 0);
      EXPECT_LT(computed, 128 * 129 / 2);
    } else {
      EXPECT_EQ(pos_us, span_us);  // clamped to the end, and stopped there
      EXPECT_EQ(g["paused"], true);
      EXPECT_EQ(computed, 128 * 129 / 2);
      EXPECT_EQ(g["skipped"], 128 * 127 / 2);
    }
  }
}

TEST(App, GpuPanelWithoutAGpuOpensOnThePlainSentenceAndAPausedReplay) {
  // (CI and this test have no GPU: the panel must say so plainly, the driver's reason kept for hover.)
  const Rendered r = Render("RC-T3/b0", "en_gpu_open", "--gpu");
  CheckNotBlank(r.img);
  const auto& g = r.scene["gpu"];
  EXPECT_EQ(g["shown"], true);
  EXPECT_EQ(g["sentence"], "No NVIDIA GPU here \u2014 showing a run recorded on an H200");
  EXPECT_NE(g["detail"], "");
  EXPECT_EQ(g["source"], "replay");
  EXPECT_EQ(g["recording"], "recorded_run_h200.json");
  EXPECT_EQ(g["paused"], true);
  // Issue 33: it opens on a drawn state, the finished replay (Play starts it again from 0).
  EXPECT_GT(g["span_us"].get<double>(), 0.0);
  EXPECT_EQ(g["position_us"], g["span_us"]);
  EXPECT_EQ(g["computed"], 128 * 129 / 2);
  EXPECT_EQ(g["computed_total"], 128 * 129 / 2);  // N = 8192, 64 × 64 tiles, causal: the lower triangle
  EXPECT_EQ(g["skipped_total"], 128 * 127 / 2);
  EXPECT_EQ(g["roofline"], true);
  // The grid's first cell is painted in the start-time ramp (done), the roofline point red.
  bool cell = false, point = false;
  for (const auto& rect : r.scene["rects"]) {
    const auto box = rect["box"];
    const int x = static_cast<int>((box[0].get<float>() + box[2].get<float>()) / 2);
    const int y = static_cast<int>((box[1].get<float>() + box[3].get<float>()) / 2);
    if (rect["id"] == "gpu.1,1") {
      cell = true;
      EXPECT_TRUE(Near(r.img.At(x, y), rect["fill"], 6));
      EXPECT_EQ(rect["state"], "processed");
    }
    if (rect["id"] == "roof.point") {
      point = true;
      EXPECT_TRUE(Near(r.img.At(x, y), rect["fill"], 6));
    }
  }
  EXPECT_TRUE(cell);
  EXPECT_TRUE(point);
}

// The diagram's fills go through the flat-fill program in their own pass (app/fill_shader.h,
// painter.h FillPass), and panels are filled only where their tiles do not cover them (FillAround):
// the picture must be the same pixel for pixel as ImGui's own program drawing everything in the
// scene's order (--imgui-fills). Steps with nested panels (RC-T3/b2, projector), a red capacity line
// across the expert boxes' borders (MOE/e4: drawn in order), hatched tiles (N49/m2) and a 64 × 64
// grid of tiny tiles (N = 512 in 8 × 8 tiles, causal: written here), BWD's tiles at 1111 × 677.
TEST(App, FlatFillsDrawTheSamePixelsAsImGuisProgram) {
  struct Case {
    std::string name, args;
    int w = 1600, h = 1000;
  };
  const fs::path grid = OutDir() / "fills_grid_512.json";
  {
    nlohmann::json m = nlohmann::json::array();
    for (int i = 0; i < 512; ++i) m.push_back({(i % 7) * 0.25 - 0.75, (i % 5) * 0.5 - 1.0, (i % 3) * 0.125, 0.5});
    std::ofstream(grid) << nlohmann::json{{"schema_version", 2}, {"kind", "attention"}, {"title", {{"zh", "N = 512"}, {"en", "N = 512"}}},
                                          {"Q", m}, {"K", m}, {"V", m}, {"mask", "causal"}, {"tiles", {{"B_r", 8}, {"B_c", 8}}},
                                          {"order", "flash2"}}.dump();
  }
  const std::vector<Case> cases = {
      {"rc-t3_b2_projector", "--lesson " + kRoot + "/lessons/rc-t3.json --step RC-T3/b2 --projector --lang zh"},
      {"moe_e4", "--lesson " + kRoot + "/lessons/moe.json --step MOE/e4 --reveal --lang en"},
      {"n49_m2", "--lesson " + kRoot + "/lessons/n49-materialise.json --step N49/m2 --reveal --lang en"},
      {"masks_k1", "--lesson " + kRoot + "/lessons/masks.json --step MASK/k1 --reveal --lang en"},
      {"grid_512", "--scenario " + grid.string() + " --position tile:40,20 --lang en"},
      // dK_2's fill 1.6 px below dK_1's dashed border: it must stay in order (the stroke reaches it).
      {"bwd_r2_1111", "--lesson " + kRoot + "/lessons/backward.json --step BWD/r2 --lang en", 1111, 677},
  };
  for (const Case& c : cases) {
    Image img[2];
    for (int imgui = 0; imgui < 2; ++imgui) {
      const auto png = OutDir() / ("fills_" + c.name + (imgui ? "_imgui" : "_flat") + ".png");
      fs::remove(png);
      EXPECT_EQ(RunApp(c.args + " --screenshot " + png.string() + (imgui ? " --imgui-fills" : ""), c.w, c.h), 0) << c.name;
      img[imgui] = LoadPng(png.string());
    }
    ASSERT_GT(img[0].w, 0) << c.name;
    CheckNotBlank(img[0]);
    ASSERT_EQ(img[0].w, img[1].w);
    ASSERT_EQ(img[0].h, img[1].h);
    size_t differ = 0, first = img[0].px.size();
    for (size_t i = 0; i < img[0].px.size(); ++i)
      if (img[0].px[i] != img[1].px[i]) differ++, first = std::min(first, i);
    EXPECT_EQ(differ, 0u) << c.name << ": first at pixel " << (first / 4) % img[0].w << ", " << (first / 4) / img[0].w;
  }
}

// Partial redraw (app/damage.h): a soak through every lesson, each frame drawn only where it changed,
// then drawn whole in the same back buffer and read back (--check-redraw): no pixel may differ. The
// soak's own line says how many frames were drawn in part, so a tracker that always redrew
// everything (or never ran) fails too.
TEST(App, PartialRedrawDrawsWhatAFullRedrawDraws) {
  struct Case {
    std::string args;
    int w, h;
  };
  for (const Case& c : {Case{"--projector --lang en", 1280, 720}, Case{"--lang zh", 1600, 1000}}) {
    const std::string cmd = "xvfb-run -a -s '-screen 0 1920x1440x24' " + kApp + " --no-settings --width " + std::to_string(c.w) +
                            " --height " + std::to_string(c.h) + " --lesson " + kRoot + "/lessons/rc-t3.json " + c.args +
                            " --soak 1 --check-redraw 2>&1";
    FILE* out = popen(cmd.c_str(), "r");
    ASSERT_NE(out, nullptr);
    std::string text;
    char buf[4096];
    while (const size_t n = fread(buf, 1, sizeof buf, out)) text.append(buf, n);
    const int rc = pclose(out);
    EXPECT_EQ(rc, 0) << c.args << "\n" << text;
    const auto at = text.find("redraw check: ");
    ASSERT_NE(at, std::string::npos) << text;
    int partial = -1, differ = -1;
    ASSERT_EQ(std::sscanf(text.c_str() + at, "redraw check: %d frames drawn in part, %d differ", &partial, &differ), 2) << text;
    EXPECT_EQ(differ, 0) << c.args << "\n" << text;
    EXPECT_GT(partial, 150) << c.args << ": most steps change part of the window (one pass: about 280 frames)";
  }
}

TEST(App, UnknownStepIsAnError) {
  EXPECT_NE(RunApp("--step RC-T3/b9 --screenshot /dev/null"), 0);
}

}  // namespace
