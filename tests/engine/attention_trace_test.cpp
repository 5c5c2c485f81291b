// The step trace: cumulative counters at every event agree with a plain running sum and end at the
// run's counters; (m, l, u) at any event is the same whether replayed from a snapshot or from the
// start of the block, and at each block's last merge gives the run's O rows; the event order
// follows the papers (FA-2: Q_i once per block; FA-1: O_i read and written per tile).
#include <gtest/gtest.h>

#include <cmath>

#include "engine/attention.h"

namespace bw::engine {
namespace {

AttentionProblem Problem(std::int64_t n_q, std::int64_t n_k, std::int64_t d, Mask mask) {
  AttentionProblem p;
  p.Q = AttentionMatrix::Random(n_q, d) * 3.0;
  p.K = AttentionMatrix::Random(n_k, d) * 3.0;
  p.V = AttentionMatrix::Random(n_k, d);
  p.mask = std::move(mask);
  return p;
}

class TraceTest : public ::testing::TestWithParam<std::tuple<Algorithm, Precision, int>> {};

TEST_P(TraceTest, CountersAndStateAtEveryEvent) {
  const auto [algo, prec, mask_kind] = GetParam();
  const Mask mask = mask_kind == 0 ? Mask::None() : mask_kind == 1 ? Mask::Causal() : Mask::KeyPadding({1, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 1});
  const auto p = Problem(29, 31, 5, mask);
  RunOptions o;
  o.tiles = {4, 3};
  o.precision = prec;
  o.record_trace = true;
  o.counter_snapshot_every = 7;
  o.state_snapshots_per_block = 3;
  const AttentionResult r = algo == Algorithm::kFlash2 ? RunFlash2(p, o) : RunFlash1(p, o);
  ASSERT_FALSE(r.trace.empty());
  // Same run, no snapshots worth using: every state is replayed from the block start.
  RunOptions o2 = o;
  o2.state_snapshots_per_block = 1;
  o2.counter_snapshot_every = 1000000;
  const AttentionResult r2 = algo == Algorithm::kFlash2 ? RunFlash2(p, o2) : RunFlash1(p, o2);
  ASSERT_EQ(r.trace.size(), r2.trace.size());
  EXPECT_TRUE(r.O == r2.O);
  EXPECT_TRUE(r.counters == r2.counters);

  Counters running;
  running.element_bytes = r.counters.element_bytes;
  running.hbm_scratch_bytes = r.counters.hbm_scratch_bytes;
  std::vector<int> last_update(static_cast<std::size_t>(CeilDiv(p.n_q(), o.tiles.B_r)), -1);
  for (std::size_t e = 0; e < r.trace.size(); ++e) {
    ApplyEvent(r.trace[e], running);
    ASSERT_TRUE(r.trace.CountersAt(e) == running) << "event " << e;
    ASSERT_TRUE(r2.trace.CountersAt(e) == running) << "event " << e;
    const BlockState a = r.trace.StateAt(p, e), b = r2.trace.StateAt(p, e);
    ASSERT_EQ(a.valid, b.valid);
    if (!a.valid) continue;
    ASSERT_EQ(a.steps, r.trace[e].step);
    ASSERT_EQ(a.last_j, b.last_j);
    ASSERT_TRUE(a.m == b.m && a.l == b.l && a.u == b.u) << "event " << e << " " << Describe(r.trace[e]);
    if (r.trace[e].kind == EventKind::kUpdateMLU) last_update[static_cast<std::size_t>(r.trace[e].i)] = static_cast<int>(e);
  }
  EXPECT_TRUE(r.trace.CountersAt(r.trace.size() - 1) == r.counters);
  // At each block's last merge, the state's O is the run's O (same precision arithmetic).
  const double tol = prec == Precision::kDouble ? 1e-15 : 1e-6;
  for (std::size_t i = 0; i < last_update.size(); ++i) {
    if (last_update[i] < 0) continue;
    const BlockState s = r.trace.StateAt(p, static_cast<std::size_t>(last_update[i]));
    for (std::int64_t a = 0; a < s.row_end - s.row_begin; ++a)
      for (std::int64_t c = 0; c < p.d_v(); ++c) ASSERT_NEAR(s.O(a, c), r.O(s.row_begin + a, c), tol);
    for (std::int64_t a = 0; a < s.row_end - s.row_begin; ++a)
      if (s.l[a] > 0) {
        ASSERT_NEAR(s.m[a] + std::log(s.l[a]), r.L[s.row_begin + a], 1e-5);
      }
  }
}

std::string TraceParamName(const ::testing::TestParamInfo<std::tuple<Algorithm, Precision, int>>& info) {
  static constexpr const char* kMasks[] = {"none", "causal", "key_padding"};
  return std::string(ToString(std::get<0>(info.param))) + "_" + ToString(std::get<1>(info.param)) + "_" +
         kMasks[std::get<2>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(AllPaths, TraceTest,
                         ::testing::Combine(::testing::Values(Algorithm::kFlash2, Algorithm::kFlash1),
                                            ::testing::Values(Precision::kDouble, Precision::kFloat),
                                            ::testing::Values(0, 1, 2)),
                         TraceParamName);

TEST(AttentionTrace, EventOrderFollowsThePapers) {
  const auto p = Problem(8, 8, 2, Mask::None());
  RunOptions o;
  o.tiles = {4, 4};
  o.record_trace = true;
  const auto f2 = RunFlash2(p, o);
  // FA-2 block 0: read Q_0, [read K_0, read V_0, S, update] ×2, finalise, write O_0, write L_0
  std::vector<EventKind> kinds;
  for (const auto& e : f2.trace.events()) kinds.push_back(e.kind);
  const std::vector<EventKind> block = {EventKind::kRead,     EventKind::kRead,      EventKind::kRead,
                                        EventKind::kComputeS, EventKind::kUpdateMLU, EventKind::kRead,
                                        EventKind::kRead,     EventKind::kComputeS,  EventKind::kUpdateMLU,
                                        EventKind::kFinalise, EventKind::kWrite,     EventKind::kWrite};
  ASSERT_EQ(kinds.size(), 2 * block.size());
  EXPECT_TRUE(std::equal(block.begin(), block.end(), kinds.begin()));
  EXPECT_EQ(f2.trace[0].tensor, Tensor::kQ);
  EXPECT_EQ(f2.trace[11].tensor, Tensor::kL);
  EXPECT_EQ(f2.counters.Reads(Tensor::kQ), 8 * 2);      // Q read once
  const auto f1 = RunFlash1(p, o);
  EXPECT_EQ(f1.counters.Reads(Tensor::kQ), 2 * 8 * 2);  // Q read once per K/V block
  EXPECT_EQ(f1.counters.Reads(Tensor::kO), 2 * 8 * 2);  // O re-read each inner step
  const auto ref = RunReference(p, o);
  EXPECT_EQ(ref.trace.size(), 11u);
  EXPECT_EQ(Describe(ref.trace[3]), "write S (64 elements)");
  EXPECT_FALSE(ref.trace.StateAt(p, 3).valid);
  // The update event's state holds the rescale factor e^{m−m'} of that merge.
  const BlockState s = f2.trace.StateAt(p, 8);  // second update of block 0
  for (int a = 0; a < 4; ++a) EXPECT_DOUBLE_EQ(s.alpha[a], std::exp(s.m_prev[a] - s.m[a]));
}

}  // namespace
}  // namespace bw::engine
