// Geometry of every lesson step, painted off screen (an ImGui context with the real fonts, no
// window): at 1280×720, 1920×1080 and 3840×2160 and base fonts 16, 22, 48 and 96 px —
//   - no two labels overlap, no label leaves the diagram, a rectangle's label stays inside it,
//     no arrow crosses a label;
//   - the diagram's labels at 96 px are at least as large as at 22 px (larger text never shrinks
//     the diagram);
//   - an arrow's label that lies inside a panel at 22 px stays inside that panel at 35.4 px (Ctrl +
//     five times, as a teacher enlarges for the back row), or at least within 2.5 em of its arrow:
//     it used to leave for a free place below the diagram, far from its arrow.
#include <gtest/gtest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <map>
#include <set>

#include "../lessons/lesson_files.h"
#include "session/app_state.h"
#include "app/fonts.h"
#include "app/painter.h"
#include "app/panels.h"
#include "shipped_lessons.h"
#include "view/layout.h"

namespace bw::app {
namespace {

struct Frame {
  Painted painted;
  float em = 0;
};

class Geometry : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
  }
  static void TearDownTestSuite() { ImGui::DestroyContext(); }

  // Paints the step's scene as the main window would lay it out, and returns what was painted.
  Frame Paint(const AppState& s, const std::vector<std::string>& texts, float win_w, float win_h, float font_px) {
    view::LayoutInput in;
    in.width = win_w;
    in.chrome_px = view::ChromePx(win_h);
    in.height = win_h - in.chrome_px * 2.2f;  // the top bar (its font follows the window, not Ctrl ±)
    in.font_px = font_px;
    in.projector = s.options.projector;
    in.heatmap = s.Current()->HeatmapAt(s.ui.event).has_value();
    const view::Layout L = view::ComputeLayout(in);
    // As DrawDiagram: the scene laid out for its box and the Ctrl ± scale, the painter applying the rest.
    const float text_scale = view::TextScale(font_px);
    const view::Scene scene = s.Current()->BuildScene(s.ui.event, s.options.lang, s.Palette(), {L.diagram.w, L.diagram.h, text_scale});
    Frame f;
    f.em = view::FitEm(L.diagram, scene.width, scene.height);
    // Text is measured from the nearest baked size scaled linearly: one atlas per base font is
    // enough (the app also bakes the diagram's size, for sharpness, not for different metrics).
    const std::string key = std::to_string(font_px);
    if (key != font_key_) {
      fonts_ = LoadFonts(font_px, texts);
      font_key_ = key;
    }
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(win_w, win_h);
    io.DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("geometry", nullptr, ImGuiWindowFlags_NoDecoration);
    f.painted = PaintScene(ImGui::GetWindowDrawList(), scene, ImVec2(L.diagram.x, L.diagram.y), f.em, fonts_, s.Palette(), 1.0f,
                           {}, text_scale / scene.text_scale);
    ImGui::End();
    ImGui::EndFrame();
    return f;
  }

  Fonts fonts_;
  std::string font_key_;
};

ImRect Box(const PaintedLabel& l) { return ImRect(l.x0, l.y0, l.x1, l.y1); }

bool SegmentHits(ImVec2 a, ImVec2 b, const ImRect& r) {
  float t0 = 0, t1 = 1;
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float p[4] = {-dx, dx, -dy, dy};
  const float q[4] = {a.x - r.Min.x, r.Max.x - a.x, a.y - r.Min.y, r.Max.y - a.y};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const float t = q[i] / p[i];
    if (p[i] < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

TEST_F(Geometry, LabelsNeverCollideAtAnySizeAndFont) {
  int failures = 0, paints = 0;
  const auto fail = [&](const std::string& what) {
    if (++failures <= 40) ADD_FAILURE() << what;
  };
  std::map<std::string, float> biggest_label;
  std::map<std::string, std::string> arrow_home;  // "step lang WxH owner" → the rectangle holding the label at 22 px
  std::map<std::string, std::string> badge_of;  // state → its symbol: one each, never shared  // "step lang WxH font" → the largest diagram label (px)
  auto [lessons, texts] = OpenShippedLessons();
  for (float font : {16.f, 22.f, 35.4f, 48.f, 96.f}) {  // one atlas per base font
    for (auto& s : lessons) {
      const auto& L = *s.model.lesson;
      for (int i = 0; i < static_cast<int>(L.lesson.steps.size()); ++i) {
        GoToStep(s, i);
        for (const char* lang : {"zh", "en"}) {
          s.options.lang = lang;
          for (auto [w, h] : {std::pair{1280.f, 720.f}, {1920.f, 1080.f}, {3840.f, 2160.f}}) {
            const Frame f = Paint(s, texts, w, h, font);
            ++paints;
            const auto& labels = f.painted.labels;
            const std::string where = L.lesson.steps[i].id + " " + lang + " " + std::to_string(static_cast<int>(w)) + "x" +
                                      std::to_string(static_cast<int>(h));
            float biggest = 0;
            for (size_t a = 0; a < labels.size(); ++a) {
              biggest = std::max(biggest, labels[a].px);
              for (size_t b = a + 1; b < labels.size(); ++b)
                if (Box(labels[a]).Overlaps(Box(labels[b])))
                  fail(where + " font " + std::to_string(static_cast<int>(font)) + ": \"" + labels[a].text + "\" (" +
                       labels[a].owner + ") overlaps \"" + labels[b].text + "\" (" + labels[b].owner + ")");
              for (const auto& r : f.painted.rects) {  // a rectangle's own label stays inside it
                const std::string& o = labels[a].owner;
                if ((o == "rect:" + r.id || o == "sublabel:" + r.id) &&
                    !ImRect(r.x0 - 0.5f, r.y0 - 0.5f, r.x1 + 0.5f, r.y1 + 0.5f).Contains(Box(labels[a])))
                  fail(where + ": \"" + labels[a].text + "\" leaves " + r.id);
              }
              for (const auto& ar : f.painted.arrows)
                for (size_t k = 1; k < ar.points.size(); ++k)
                  if (SegmentHits(ar.points[k - 1], ar.points[k], Box(labels[a])))
                    fail(where + ": arrow " + ar.id + " crosses \"" + labels[a].text + "\" (" + labels[a].owner + ")");
            }
            biggest_label[where + " " + std::to_string(static_cast<int>(font))] = biggest;
            for (const auto& l : labels) {  // the smallest rectangle that holds an arrow's label
              if (l.owner.rfind("arrow:", 0) != 0) continue;
              std::string home;
              float area = 1e30f;
              for (const auto& r : f.painted.rects)
                if (ImRect(r.x0, r.y0, r.x1, r.y1).Contains(Box(l)) && (r.x1 - r.x0) * (r.y1 - r.y0) < area)
                  area = (r.x1 - r.x0) * (r.y1 - r.y0), home = r.id;
              const std::string key = where + " " + l.owner;
              // How far the label is from its arrow's shaft, in em (0 when they touch).
              float gap = 1e30f;
              for (const auto& ar : f.painted.arrows)
                if ("arrow:" + ar.id == l.owner)
                  for (size_t k = 1; k < ar.points.size(); ++k)
                    for (int i = 0; i <= 20; ++i) {
                      const ImVec2 p(ar.points[k - 1].x + (ar.points[k].x - ar.points[k - 1].x) * i / 20.f,
                                     ar.points[k - 1].y + (ar.points[k].y - ar.points[k - 1].y) * i / 20.f);
                      const float dx = std::max({l.x0 - p.x, 0.f, p.x - l.x1}), dy = std::max({l.y0 - p.y, 0.f, p.y - l.y1});
                      gap = std::min(gap, std::hypot(dx, dy) / f.em);
                    }
              if (font == 22.f) arrow_home[key] = home;
              else if (font == 35.4f && arrow_home.count(key) && !arrow_home[key].empty() && home != arrow_home[key] && gap > 2.5f)
                fail(where + " at Ctrl + x5: \"" + l.text + "\" left " + arrow_home[key] + (home.empty() ? "" : " for " + home) + ", " +
                     std::to_string(gap) + " em from its arrow");
            }
            // Colour is never the only signal: each state carries its own symbol, and every tile large
            // enough to hold text shows it (the symbol stays when the state's word does not fit).
            for (const auto& r : f.painted.rects) {
              if (r.state == "none") continue;
              const auto [it, fresh] = badge_of.emplace(r.state, r.badge);
              if (r.badge.empty() || it->second != r.badge) fail(where + ": state " + r.state + " has badge \"" + r.badge + "\"");
              const bool tiny = r.x1 - r.x0 < f.em * 0.8f || r.y1 - r.y0 < f.em * 0.8f;
              bool shown = tiny;
              for (const auto& l : labels) shown |= l.owner == "sublabel:" + r.id && l.text.rfind(r.badge, 0) == 0;
              if (!shown) fail(where + ": " + r.id + " (" + r.state + ") shows no badge");
            }
          }
        }
      }
    }
  }
  for (const auto& [key, px] : biggest_label) {
    if (key.size() < 3 || key.substr(key.size() - 3) != " 96") continue;
    const std::string at22 = key.substr(0, key.size() - 3) + " 22";
    EXPECT_GE(px, biggest_label.at(at22) - 0.01f) << key << ": larger text shrank the diagram's labels";
  }
  EXPECT_GT(paints, 500);
  std::set<std::string> badges;
  for (const auto& [state, badge] : badge_of) EXPECT_TRUE(badges.insert(badge).second) << state << " shares its badge " << badge;
  EXPECT_EQ(failures, 0) << "label collisions in all (the first 40 are listed above)";
}

}  // namespace
}  // namespace bw::app
