// Issue 16, start-up of a large attention file: the comparison (the reference, FA-2 and FA-1
// untraced, the wrong merges, P for the heatmap, the check of the run's O) may come after the
// model's own run — from a background thread in the app. Whenever it comes, its numbers equal the
// synchronous ones exactly, and until it comes the model says "computing" instead of any number.
// The reduced copy of P behind the heatmap, cell by cell.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "data/attention_scenario.h"
#include "view/attention_model.h"
#include "view/ui_text.h"

namespace bw::view {
namespace {

using nlohmann::json;

json Doc(int n, int d, int tile, const std::string& order) {
  std::mt19937 rng(16);
  std::normal_distribution<double> g;
  const auto m = [&] {
    json a = json::array();
    for (int r = 0; r < n; ++r) {
      json row = json::array();
      for (int c = 0; c < d; ++c) row.push_back(std::round(g(rng) * 1000) / 1000);
      a.push_back(row);
    }
    return a;
  };
  return {{"schema_version", 2}, {"kind", "attention"}, {"title", {{"zh", "t"}, {"en", "t"}}},
          {"Q", m()}, {"K", m()}, {"V", m()}, {"mask", "causal"},
          {"tiles", {{"B_r", tile}, {"B_c", tile}}}, {"order", order}};
}

std::string PanelText(const std::vector<PanelSection>& secs) {
  std::string s;
  for (const auto& sec : secs) {
    s += "[" + sec.id + "] " + sec.title + "\n";
    for (const auto& c : sec.columns) s += c + "|";
    for (const auto& r : sec.rows)
      s += r.name + ": " + r.value + " w" + std::to_string(r.warning) + " b" + std::to_string(r.bar) + " a" +
           std::to_string(r.answer) + "\n";
  }
  return s;
}

void ExpectSameResult(const engine::AttentionResult& a, const engine::AttentionResult& b) {
  EXPECT_TRUE(a.O == b.O);
  EXPECT_TRUE(a.L == b.L);
  EXPECT_EQ(a.counters, b.counters);
  EXPECT_EQ(a.row_fully_masked, b.row_fully_masked);
  EXPECT_EQ(a.numerics.events.size(), b.numerics.events.size());
}

void ExpectSameComparison(const AttentionRuns& a, const AttentionRuns& b) {
  ExpectSameResult(a.reference, b.reference);
  ASSERT_EQ(a.flash2.has_value(), b.flash2.has_value());
  ASSERT_EQ(a.flash1.has_value(), b.flash1.has_value());
  if (a.flash2) ExpectSameResult(*a.flash2, *b.flash2);
  if (a.flash1) ExpectSameResult(*a.flash1, *b.flash1);
  ASSERT_EQ(a.wrong.size(), b.wrong.size());
  for (size_t i = 0; i < a.wrong.size(); ++i) {
    EXPECT_EQ(a.wrong[i].variant, b.wrong[i].variant);
    EXPECT_TRUE(a.wrong[i].O == b.wrong[i].O);
    EXPECT_EQ(a.wrong[i].numerics.size(), b.wrong[i].numerics.size());
  }
  EXPECT_EQ(a.check.mismatches, b.check.mismatches);
  EXPECT_EQ(a.check.max_abs_error, b.check.max_abs_error);
  EXPECT_EQ(a.check.max_rel_error, b.check.max_rel_error);
  EXPECT_EQ(a.reference_P_finite, b.reference_P_finite);
  EXPECT_EQ(a.heatmap.rows, b.heatmap.rows);
  EXPECT_EQ(a.heatmap.value_rows, b.heatmap.value_rows);
  EXPECT_EQ(a.heatmap.value_cols, b.heatmap.value_cols);
  EXPECT_EQ(a.heatmap.values, b.heatmap.values);   // every float, exactly
}

TEST(AttentionBackground, BeforeTheComparisonNothingIsShownThenExactlyTheSynchronousNumbers) {
  const auto sc = data::ParseAttentionScenario(Doc(96, 8, 16, "flash2"), "mem.json");
  const AttentionModel now(sc, ComparisonMode::kNow);
  const AttentionModel later(sc, ComparisonMode::kOnRequest);
  EXPECT_FALSE(now.Computing());
  ASSERT_TRUE(later.Computing());
  EXPECT_EQ(later.Revision(), 0);
  const int last = later.EventCount() - 1;
  ASSERT_EQ(last, now.EventCount() - 1);

  // Not computed yet: said so, no number, never "match".
  const auto q = later.QuantitiesAt(last);
  EXPECT_EQ(q.count("reference_hbm_elements"), 0u);
  EXPECT_EQ(q.count("max_abs_error"), 0u);
  EXPECT_EQ(q.count("flash2_hbm_elements"), 0u);
  for (const std::string lang : {"zh", "en"}) {
    const auto secs = later.Panels(last, lang);
    bool check_row = false;
    int computing_rows = 0;
    for (const auto& sec : secs)
      for (const auto& r : sec.rows) {
        if (r.name == UiText(Str::check_vs_reference, lang)) {
          check_row = true;
          EXPECT_EQ(r.value, UiText(Str::computing, lang));
        }
        if (r.value == UiText(Str::computing, lang)) ++computing_rows;
        EXPECT_EQ(r.value.find(UiText(Str::match, lang)), std::string::npos) << r.name;
      }
    EXPECT_TRUE(check_row);
    EXPECT_EQ(computing_rows, 5) << lang;   // the check (run and comparison sections), the reference, FA-2, FA-1
  }
  const auto h = later.HeatmapAt(last);
  ASSERT_TRUE(h.has_value());
  EXPECT_TRUE(h->computing);
  EXPECT_TRUE(h->not_computed_yet);
  EXPECT_EQ(h->values, nullptr);
  EXPECT_EQ(h->rows, 96);
  EXPECT_EQ(h->cols, 96);

  later.FinishComparison();
  EXPECT_FALSE(later.Computing());
  EXPECT_EQ(later.Revision(), 1);
  ExpectSameComparison(later.runs(), now.runs());
  ExpectSameResult(later.run(), now.run());
  for (int e = 0; e < later.EventCount(); ++e) {
    EXPECT_EQ(later.QuantitiesAt(e), now.QuantitiesAt(e)) << e;
    for (const std::string lang : {"zh", "en"}) EXPECT_EQ(PanelText(later.Panels(e, lang)), PanelText(now.Panels(e, lang))) << e;
    const auto a = later.HeatmapAt(e), b = now.HeatmapAt(e);
    ASSERT_TRUE(a && b);
    EXPECT_FALSE(a->computing);
    EXPECT_EQ(a->r0, b->r0);
    EXPECT_EQ(a->c1, b->c1);
    EXPECT_EQ(a->values, later.runs().heatmap.values.data());
  }
}

TEST(AttentionBackground, ABackgroundThreadGivesTheSynchronousComparison) {
  // 1024² scores: large enough for kBackground to use its thread.
  const auto sc = data::ParseAttentionScenario(Doc(1024, 4, 64, "flash2"), "mem.json");
  const AttentionModel bg(sc, ComparisonMode::kBackground);
  const AttentionModel now(sc, ComparisonMode::kNow);
  bg.FinishComparison();
  EXPECT_FALSE(bg.Computing());
  ExpectSameComparison(bg.runs(), now.runs());
  EXPECT_TRUE(bg.runs().check.ok());
  EXPECT_EQ(bg.runs().heatmap.value_rows, 512);   // 1024 a side, averaged 2 × 2 into 512
  const int last = bg.EventCount() - 1;
  for (const std::string lang : {"zh", "en"}) EXPECT_EQ(PanelText(bg.Panels(last, lang)), PanelText(now.Panels(last, lang)));
  EXPECT_EQ(bg.QuantitiesAt(last), now.QuantitiesAt(last));
}

TEST(AttentionBackground, SmallProblemsAndTheBackwardRunAtOnce) {
  const AttentionModel small(data::ParseAttentionScenario(Doc(64, 4, 16, "flash2"), "mem.json"), ComparisonMode::kBackground);
  EXPECT_FALSE(small.Computing());
  auto doc = Doc(32, 4, 8, "flash2");
  doc["backward"] = true;
  const AttentionModel bwd(data::ParseAttentionScenario(doc, "mem.json"), ComparisonMode::kOnRequest);
  EXPECT_FALSE(bwd.Computing());   // Algorithm 2 needs the FA-2 side run: everything at once
}

// ---- the reduced copy of P --------------------------------------------------------------------

ReducedHeatmap Reduce(const std::vector<float>& p, int rows, int cols, int max_side, int rows_at_a_time) {
  HeatmapReducer red(rows, cols, max_side);
  for (int r = 0; r < rows; r += rows_at_a_time)
    red.AddRows(r, p.data() + static_cast<size_t>(r) * cols, std::min(rows_at_a_time, rows - r));
  return red.Finish();
}

TEST(HeatmapReducer, FitsUnchangedAndAveragesPowerOfTwoBlocks) {
  const std::vector<float> p = {0.5f, 0.25f, 0, 1,  //
                                0.25f, 0, 0.5f, 0.5f,  //
                                1, 1, 0, 0,  //
                                0, 0.5f, 0.25f, 0.75f};
  const auto same = Reduce(p, 4, 4, 4, 3);
  EXPECT_EQ(same.value_rows, 4);
  EXPECT_EQ(same.values, p);
  EXPECT_TRUE(same.finite);
  const auto half = Reduce(p, 4, 4, 2, 1);
  EXPECT_EQ(half.rows, 4);
  EXPECT_EQ(half.cols, 4);
  ASSERT_EQ(half.value_rows, 2);
  ASSERT_EQ(half.value_cols, 2);
  EXPECT_EQ(half.values, (std::vector<float>{0.25f, 0.5f, 0.625f, 0.25f}));
  const auto one = Reduce(p, 4, 4, 1, 4);
  EXPECT_EQ(one.values, (std::vector<float>{6.5f / 16}));
}

TEST(HeatmapReducer, OddSizesFoldTheRemainderInAndNaNIsKept) {
  // 5 × 3 into at most 2 a side: k = 1, 2 × 1 cells: rows [0, 2) and [2, 5), all 3 columns.
  const std::vector<float> p = {1, 1, 1,  //
                                1, 1, 1,  //
                                0, 0, 0,  //
                                0, 0, 0,  //
                                0.75f, 0.75f, 0.75f};
  const auto r = Reduce(p, 5, 3, 2, 2);
  ASSERT_EQ(r.value_rows, 2);
  ASSERT_EQ(r.value_cols, 1);
  EXPECT_EQ(r.values, (std::vector<float>{1.0f, 0.25f}));
  auto with_nan = p;
  with_nan[4] = std::numeric_limits<float>::quiet_NaN();   // row 1: the first cell
  const auto n = Reduce(with_nan, 5, 3, 2, 5);
  EXPECT_FALSE(n.finite);
  EXPECT_TRUE(std::isnan(n.values[0]));
  EXPECT_EQ(n.values[1], 0.25f);
  EXPECT_TRUE(Reduce({}, 0, 0, 2, 1).values.empty());
}

}  // namespace
}  // namespace bw::view
