// ComputeLayout: the parts tile the window without overlapping, and the diagram's box comes from
// the window alone — the font size never shrinks it (issue 10: "bigger text makes the diagram smaller").
#include <gtest/gtest.h>

#include "view/layout.h"

namespace bw::view {
namespace {

TEST(Layout, PartsStayInsideTheWindowAndApart) {
  for (auto [w, h] : {std::pair{1280.f, 680.f}, {1920.f, 1030.f}, {3840.f, 2100.f}, {800.f, 560.f}})
    for (float font : {16.f, 22.f, 48.f, 96.f})
      for (bool projector : {false, true})
        for (bool heatmap : {false, true}) {
          LayoutInput in;
          in.width = w, in.height = h, in.font_px = font, in.projector = projector, in.heatmap = heatmap;
          const Layout L = ComputeLayout(in);
          const Box window{0, 0, w, h};
          std::vector<Box> parts = {L.diagram, L.text, L.side, L.timeline};
          if (heatmap) parts.push_back(L.heatmap);
          for (size_t a = 0; a < parts.size(); ++a) {
            EXPECT_TRUE(window.Contains(parts[a])) << w << "x" << h << " font " << font << " part " << a;
            EXPECT_GT(parts[a].w, 0);
            EXPECT_GT(parts[a].h, 0);
            for (size_t b = a + 1; b < parts.size(); ++b)
              EXPECT_FALSE(parts[a].Intersects(parts[b])) << w << "x" << h << " font " << font << " parts " << a << ", " << b;
          }
          EXPECT_EQ(heatmap, L.heatmap.w > 0);
        }
}

LayoutInput In(float w, float h, float font, bool projector, bool heatmap) {
  LayoutInput in;
  in.width = w, in.height = h, in.font_px = font, in.projector = projector, in.heatmap = heatmap;
  in.chrome_px = ChromePx(h);
  return in;
}

// A phone (a live class's student, 390 × 844): one column, each part the window's full width, in
// order diagram, step text, side panel, timeline; inside the window and apart; never for a projector.
TEST(Layout, APhoneStacksThePartsInOneColumn) {
  for (auto [w, h] : {std::pair{390.f, 780.f}, {360.f, 640.f}, {600.f, 900.f}}) {
    LayoutInput in;
    in.width = w, in.height = h, in.heatmap = true;
    ASSERT_TRUE(Portrait(in));
    const Layout L = ComputeLayout(in);
    const Box window{0, 0, w, h};
    const std::vector<Box> parts = {L.diagram, L.text, L.side, L.timeline};
    for (size_t a = 0; a < parts.size(); ++a) {
      EXPECT_TRUE(window.Contains(parts[a])) << w << "x" << h << " part " << a;
      EXPECT_FLOAT_EQ(parts[a].w, w) << "part " << a;
      EXPECT_GT(parts[a].h, 0) << "part " << a;
      if (a > 0) EXPECT_GE(parts[a].y, parts[a - 1].Bottom()) << "part " << a;
    }
    EXPECT_EQ(L.heatmap.w, 0) << "no room for a heatmap beside the text";
    in.projector = true;
    EXPECT_FALSE(Portrait(in));
  }
  LayoutInput laptop;
  laptop.width = 1280, laptop.height = 680;
  EXPECT_FALSE(Portrait(laptop));
}

TEST(Layout, TheDiagramDoesNotShrinkWithTheFont) {
  for (bool projector : {false, true}) {
    const Layout small = ComputeLayout(In(1920, 1030, 22, projector, true));
    for (float font : {16.f, 48.f, 96.f}) {
      const Layout big = ComputeLayout(In(1920, 1030, font, projector, true));
      EXPECT_GE(big.diagram.w, small.diagram.w);
      EXPECT_EQ(big.diagram.h, small.diagram.h) << font;
    }
  }
  // 4K uses the screen: the diagram scales with the window.
  const Layout hd = ComputeLayout(In(1920, 1030, 22, true, false));
  const Layout uhd = ComputeLayout(In(3840, 2100, 22, true, false));
  EXPECT_GT(uhd.diagram.w, hd.diagram.w * 1.9f);
  EXPECT_GT(uhd.diagram.h, hd.diagram.h * 1.9f);
  // Projector mode gives the diagram more of the width than the classroom layout.
  EXPECT_GT(hd.diagram.w, ComputeLayout(In(1920, 1030, 22, false, false)).diagram.w);
}

TEST(Layout, FitEmFillsTheBox) {
  const Box box{0, 0, 1200, 600};
  EXPECT_FLOAT_EQ(FitEm(box, 30, 10), 40);   // width-bound
  EXPECT_FLOAT_EQ(FitEm(box, 10, 30), 20);   // height-bound
}

// A wide scene leaves part of the diagram box unused: that height goes to the step text (and the
// heatmap) below, the diagram's scale stays, and the parts still tile the window apart.
TEST(Layout, UnusedDiagramHeightGoesToTheText) {
  for (bool heatmap : {false, true}) {
    Layout L = ComputeLayout(In(1280, 680, 22, true, heatmap));
    const Layout before = L;
    const float em = FitEm(L.diagram, 60, 20);
    ASSERT_FLOAT_EQ(em, L.diagram.w / 60);                         // width-bound
    GiveUnusedDiagramHeight(L, 60, 20);
    EXPECT_FLOAT_EQ(L.diagram.h, L.diagram.w * 20 / 60);
    EXPECT_FLOAT_EQ(FitEm(L.diagram, 60, 20), em);                 // the same scale
    const float spare = before.diagram.h - L.diagram.h;
    EXPECT_GT(spare, 1);
    EXPECT_FLOAT_EQ(L.text.h, before.text.h + spare);
    EXPECT_FLOAT_EQ(L.text.y + L.text.h, before.text.y + before.text.h);   // it grows upwards
    EXPECT_GE(L.text.y, L.diagram.Bottom());
    if (heatmap) EXPECT_FLOAT_EQ(L.heatmap.y, L.text.y);
    // A tall scene (its height sets the scale) leaves nothing unused.
    Layout tall = before;
    GiveUnusedDiagramHeight(tall, 20, 60);
    EXPECT_FLOAT_EQ(tall.diagram.h, before.diagram.h);
    EXPECT_FLOAT_EQ(tall.text.h, before.text.h);
  }
}

}  // namespace
}  // namespace bw::view
