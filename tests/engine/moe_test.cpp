// MoE engine: parameter accounting in exact integers (the lesson's 0.2B + 8 × 0.1B = 1B total,
// 0.4B active with top-2) and the top-k router's choices, loads and capacity drops on a fixed logit
// matrix (the one lessons/scenarios/moe_capacity.json ships).
#include "engine/moe.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace bw::engine {
namespace {

using V = std::vector<std::int64_t>;

Eigen::MatrixXd LessonLogits() {
  Eigen::MatrixXd L(6, 8);
  L << 2, 0, 4, -1, 0, -1, 0, -1,   // t1 → E3, E1
      0, -1, 3, 0, 2, -1, 0, 1,     // t2 → E3, E5
      3, 0, 3.5, -1, 0, 0, -1, 0,   // t3 → E3, E1
      0, 3, 2, 0, -1, 1, 0, 0,      // t4 → E2, E3
      -1, 0, 0, 1, 0, 3, 0, 2,      // t5 → E6, E8
      0, 1, 2.5, 0, 0, 0, 2, -1;    // t6 → E3, E7
  return L;
}

TEST(MoeParameters, SeedExampleTotalAndActive) {
  const auto n = CountParameters({200'000'000, 100'000'000, 8, 2});
  EXPECT_EQ(n.total, 1'000'000'000);             // 0.2B + 8 × 0.1B
  EXPECT_EQ(n.active_per_token, 400'000'000);    // 0.2B + 2 × 0.1B
  EXPECT_EQ(n.idle_per_token, 600'000'000);      // still stored
  EXPECT_EQ(n.experts_total, 800'000'000);
  EXPECT_EQ(n.experts_active, 200'000'000);
}

TEST(MoeParameters, TopKEqualToEIsDense) {
  const auto n = CountParameters({5, 3, 4, 4});
  EXPECT_EQ(n.total, 17);
  EXPECT_EQ(n.active_per_token, 17);
  EXPECT_EQ(n.idle_per_token, 0);
}

TEST(MoeParameters, RefusesBadConfigs) {
  EXPECT_THROW(CountParameters({1, 1, 0, 1}), std::invalid_argument);
  EXPECT_THROW(CountParameters({1, 1, 8, 0}), std::invalid_argument);
  EXPECT_THROW(CountParameters({1, 1, 8, 9}), std::invalid_argument);
  EXPECT_THROW(CountParameters({-1, 1, 8, 2}), std::invalid_argument);
  EXPECT_THROW(CountParameters({0, std::int64_t{1} << 62, 8, 2}), std::invalid_argument);  // overflow
}

TEST(MoeRouter, Top2LoadsWithoutCapacity) {
  const auto r = RouteTopK({LessonLogits(), 2, std::nullopt});
  ASSERT_EQ(r.routes.size(), 6u);
  EXPECT_EQ(r.routes[0].experts, (V{2, 0}));
  EXPECT_EQ(r.routes[1].experts, (V{2, 4}));
  EXPECT_EQ(r.routes[3].experts, (V{1, 2}));
  EXPECT_EQ(r.routes[4].experts, (V{5, 7}));
  EXPECT_EQ(r.demand, (V{2, 1, 5, 0, 1, 1, 1, 1}));
  EXPECT_EQ(r.accepted, r.demand);
  EXPECT_EQ(r.dropped_assignments, 0);
  EXPECT_EQ(r.assignments, 12);
  EXPECT_EQ(r.max_demand, 5);
  EXPECT_EQ(r.imbalance_num, 10);  // 5 / (12/8) = 10/3
  EXPECT_EQ(r.imbalance_den, 3);
  // Gates: softmax over the two chosen logits (4 and 2 for t1).
  EXPECT_NEAR(r.routes[0].gates[0], 1.0 / (1.0 + std::exp(-2.0)), 1e-15);
  EXPECT_NEAR(r.routes[0].gates[0] + r.routes[0].gates[1], 1.0, 1e-15);
}

TEST(MoeRouter, CapacityDropsInTokenOrder) {
  const std::int64_t C = CapacityFromFactor(6, 8, 2, 1, 1);
  EXPECT_EQ(C, 2);  // ⌈1 · 6 · 2 / 8⌉
  const auto r = RouteTopK({LessonLogits(), 2, C});
  EXPECT_EQ(r.demand, (V{2, 1, 5, 0, 1, 1, 1, 1}));
  EXPECT_EQ(r.accepted, (V{2, 1, 2, 0, 1, 1, 1, 1}));
  EXPECT_EQ(r.dropped, (V{0, 0, 3, 0, 0, 0, 0, 0}));
  EXPECT_EQ(r.dropped_assignments, 3);
  EXPECT_EQ(r.tokens_fully_dropped, 0);
  // t1, t2 fill E3; t3, t4, t6 lose E3 but keep their other expert.
  EXPECT_FALSE(r.routes[1].dropped[0]);
  EXPECT_TRUE(r.routes[2].dropped[0]);
  EXPECT_FALSE(r.routes[2].dropped[1]);
  EXPECT_TRUE(r.routes[3].dropped[1]);
  EXPECT_TRUE(r.routes[5].dropped[0]);
  EXPECT_EQ(r.AcceptedAfter(1), (V{1, 0, 2, 0, 1, 0, 0, 0}));
  EXPECT_EQ(r.AcceptedAfter(-1), (V(8, 0)));
  EXPECT_EQ(r.DemandAfter(2), (V{2, 0, 3, 0, 1, 0, 0, 0}));
}

TEST(MoeRouter, TiesGoToTheLowerExpertAndCapacityZeroDropsAll) {
  Eigen::MatrixXd L(2, 3);
  L << 1, 1, 1, 0, 5, 5;
  const auto r = RouteTopK({L, 1, 0});
  EXPECT_EQ(r.routes[0].experts, (V{0}));
  EXPECT_EQ(r.routes[1].experts, (V{1}));
  EXPECT_EQ(r.tokens_fully_dropped, 2);
  EXPECT_EQ(r.accepted, (V{0, 0, 0}));
}

TEST(MoeRouter, RefusesBadProblems) {
  Eigen::MatrixXd L(1, 2);
  L << 0, std::numeric_limits<double>::infinity();
  EXPECT_THROW(RouteTopK({L, 1, std::nullopt}), std::invalid_argument);
  EXPECT_THROW(RouteTopK({Eigen::MatrixXd(1, 2), 3, std::nullopt}), std::invalid_argument);
  EXPECT_THROW(RouteTopK({Eigen::MatrixXd(1, 0), 1, std::nullopt}), std::invalid_argument);
  EXPECT_THROW(CapacityFromFactor(6, 8, 2, 1, 0), std::invalid_argument);
}

}  // namespace
}  // namespace bw::engine
