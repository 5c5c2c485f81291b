// test_warp_phases.cpp — the Hopper kernel's warp marks become phase records (WarpPhasesFromMarks,
// hopper_cuda.h; issue 33) on the CPU: the CTA's own clock rate, one record per mark up to the next,
// end marks open nothing, a log cut at its capacity, a CTA that never ran.
#include "cuda/hopper_cuda.h"

#include <gtest/gtest.h>

namespace bw::cuda {
namespace {

TEST(WarpPhases, MarksBecomePhasesAtTheCtasOwnClockRate) {
  const int cap = 4, t_r = 8;
  std::vector<HopperWarpCta> ctas(2);
  // CTA 0: 2000 cycles in 1000 ns of %globaltimer: 0.5 ns per cycle.
  ctas[0].clk0 = 10'000;
  ctas[0].clk1 = 12'000;
  ctas[0].gt0 = 5'000'000;
  ctas[0].gt1 = 5'001'000;
  ctas[0].cta = 17;
  ctas[0].smid = 40;
  ctas[0].q_tile = 3;
  ctas[0].head = 2;
  ctas[0].count[0] = 3;  // producer: issue, idle, end
  ctas[0].count[1] = 6;  // consumer 1: more marks than the log holds (cut at 4)
  ctas[0].count[2] = 0;  // consumer 2: nothing logged
  // CTA 1 never ran: all zero.
  std::vector<HopperWarpMark> marks(2 * 3 * cap);
  marks[0] = {10'000, 0, kMarkTmaIssue};
  marks[1] = {10'200, 0, kMarkIdle};
  marks[2] = {12'000, 0, kMarkEnd};
  marks[cap + 0] = {10'100, 1, kMarkWgmmaS};
  marks[cap + 1] = {10'300, 1, kMarkSoftmax};
  marks[cap + 2] = {10'301, 1, kMarkWgmmaPV};
  marks[cap + 3] = {10'900, 2, kMarkWgmmaS};
  std::vector<double> rate;
  const auto r = WarpPhasesFromMarks(ctas, marks, cap, t_r, &rate);
  ASSERT_EQ(rate.size(), 1u);
  EXPECT_DOUBLE_EQ(rate[0], 0.5);
  ASSERT_EQ(r.size(), 5u);  // producer 2, consumer 1: 3 (the fourth mark has no next one)
  EXPECT_EQ(r[0].phase, WarpPhase::kTmaIssue);
  EXPECT_EQ(r[0].t_start_ns, 0u);
  EXPECT_EQ(r[0].t_end_ns, 100u);
  EXPECT_EQ(r[1].phase, WarpPhase::kIdle);
  EXPECT_EQ(r[1].t_end_ns, 1000u);
  EXPECT_EQ(r[2].warpgroup, 1);
  EXPECT_EQ(r[2].phase, WarpPhase::kWgmmaS);
  EXPECT_EQ(r[2].t_start_ns, 50u);
  EXPECT_EQ(r[2].t_end_ns, 150u);
  EXPECT_EQ(r[3].phase, WarpPhase::kSoftmax);
  EXPECT_EQ(r[3].t_end_ns, 151u);  // 150.5 rounds up
  EXPECT_EQ(r[4].phase, WarpPhase::kWgmmaPV);
  EXPECT_EQ(r[4].kv_tile, 1u);
  EXPECT_EQ(r[4].t_end_ns, 450u);
  for (const auto& x : r) {
    EXPECT_EQ(x.cta, 17u);
    EXPECT_EQ(x.smid, 40u);
    EXPECT_EQ(x.q_tile, 2u * 8 + 3);
  }
}

TEST(WarpPhases, NothingFromAShortMarkArray) {
  std::vector<HopperWarpCta> ctas(1);
  ctas[0].clk1 = 100;
  ctas[0].gt1 = 100;
  ctas[0].count[0] = 3;
  EXPECT_TRUE(WarpPhasesFromMarks(ctas, {}, 4, 1).empty());
}

}  // namespace
}  // namespace bw::cuda
