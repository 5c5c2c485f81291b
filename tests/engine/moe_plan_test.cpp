// engine/moe_plan.h: C ≈ 6·N·D with N total and active (exact, beyond 64 bits), expert parallelism
// counted link by link on a routing worked out by hand, and the CPU/GPU placement's bytes.
#include <gtest/gtest.h>

#include "engine/moe_plan.h"

namespace bw::engine {
namespace {

TEST(MoePlan, TrainingComputeWithTotalAndActive) {
  const auto c = CountParameters({200'000'000, 100'000'000, 8, 2});
  const auto e = EstimateTrainingCompute(c, 1'000'000'000'000);
  EXPECT_EQ(e.with_total, BigInt("6000000000000000000000"));    // 6 · 1e9 · 1e12
  EXPECT_EQ(e.with_active, BigInt("2400000000000000000000"));   // 6 · 4e8 · 1e12
  EXPECT_EQ(e.ratio_num, 5);
  EXPECT_EQ(e.ratio_den, 2);
  EXPECT_THROW(EstimateTrainingCompute(c, -1), std::invalid_argument);
}

TEST(MoePlan, ExpertParallelCountsEveryCopy) {
  // 4 tokens, 4 experts, top-1: t1 → E1, t2 → E4, t3 → E2, t4 → E3. Two devices: experts {E1, E2}
  // on device 1, {E3, E4} on device 2; tokens {t1, t2} start on device 1, {t3, t4} on device 2.
  RouterProblem p;
  p.logits.resize(4, 4);
  p.logits << 9, 0, 0, 0,  //
      0, 0, 0, 9,          //
      0, 9, 0, 0,          //
      0, 0, 9, 0;
  p.top_k = 1;
  const auto ep = PlanExpertParallel(RouteTopK(p), 2);
  EXPECT_EQ(ep.device_of_expert, (std::vector<std::int64_t>{0, 0, 1, 1}));
  EXPECT_EQ(ep.home_of_token, (std::vector<std::int64_t>{0, 0, 1, 1}));
  EXPECT_EQ(ep.dispatch, (std::vector<std::vector<std::int64_t>>{{1, 1}, {1, 1}}));
  EXPECT_EQ(ep.remote_copies, 2);
  EXPECT_EQ(ep.local_copies, 2);
  EXPECT_EQ(ep.load, (std::vector<std::int64_t>{2, 2}));
  EXPECT_EQ(ep.busiest_device, 0);   // a tie: the lower index
  // Dropped assignments are never sent: capacity 0 drops everything.
  p.capacity = 0;
  const auto none = PlanExpertParallel(RouteTopK(p), 2);
  EXPECT_EQ(none.remote_copies + none.local_copies, 0);
  EXPECT_THROW(PlanExpertParallel(RouteTopK(p), 0), std::invalid_argument);
  EXPECT_THROW(PlanExpertParallel(RouteTopK(p), 5), std::invalid_argument);
}

TEST(MoePlan, CpuGpuBytes) {
  const MoeConfig c{200'000'000, 100'000'000, 8, 2};
  const auto bf16 = PlaceCpuGpu(c, 2048, 2, 16);
  EXPECT_EQ(bf16.gpu_weight_bytes, 400'000'000);
  EXPECT_EQ(bf16.cpu_weight_bytes, 1'600'000'000);
  EXPECT_EQ(bf16.link_bytes_per_token, 8192);           // 2 · 2048 · 2
  EXPECT_EQ(bf16.link_bytes_each_way, 4096);            // 2048 · 2: the hidden state out, the result back
  EXPECT_EQ(bf16.expert_bytes_per_token, 400'000'000);  // 2 · 0.1B · 2 bytes
  const auto int4 = PlaceCpuGpu(c, 2048, 2, 4);
  EXPECT_EQ(int4.expert_bytes_per_token, 100'000'000);
  EXPECT_EQ(int4.link_bytes_per_token, 8192);           // quantising weights does not shrink activations
  EXPECT_EQ(PlaceCpuGpu({0, 3, 1, 1}, 1, 1, 3).expert_bytes_per_token, 2);   // 9 bits round up to 2 bytes
  EXPECT_THROW(PlaceCpuGpu(c, 0, 2, 16), std::invalid_argument);
  EXPECT_THROW(PlaceCpuGpu({0, std::int64_t{1} << 56, 8, 2}, 1, 1, 64), std::invalid_argument);   // overflow
}

}  // namespace
}  // namespace bw::engine
