// test_ring_schedule.cpp — the GPU ring's schedule and recording (issue 36) on the CPU (no GPU, no CUDA):
// the schedule equals the engine's ring simulation (engine/ring.h RunRing on the same problem: shards,
// per (rank, step) shard held, pairs, idle, bytes sent, totals) exactly; its launches cover every pair the
// causal mask allows exactly once and no other; the recording's JSON round-trips and names bad paths;
// CompareRing counts NaN as a mismatch.
#include "cuda/ring_record.h"
#include "cuda/ring_schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "engine/ring.h"

namespace bw::cuda {
namespace {

using engine::RingOrder;

engine::RingRun EngineRun(int n, int d, int ranks, RingOrder order, bool causal) {
  std::mt19937 rng(11);
  std::normal_distribution<double> g;
  engine::RingProblem p;
  p.attention.Q = engine::AttentionMatrix::NullaryExpr(n, d, [&] { return g(rng); });
  p.attention.K = engine::AttentionMatrix::NullaryExpr(n, d, [&] { return g(rng); });
  p.attention.V = engine::AttentionMatrix::NullaryExpr(n, d, [&] { return g(rng); });
  if (causal) p.attention.mask = engine::Mask::Causal();
  p.devices = ranks;
  p.order = order;
  p.element_bytes = 2;  // bf16 on the link, as the GPU ring sends
  return engine::RunRing(p);
}

struct Shape { int n, ranks; RingOrder order; bool causal; };

std::vector<Shape> Shapes() {
  std::vector<Shape> out;
  for (int ranks = 1; ranks <= 8; ++ranks)
    for (RingOrder order : {RingOrder::kContiguous, RingOrder::kZigZag})
      for (bool causal : {false, true})
        for (int n : {2 * ranks, 2 * ranks + 1, 37, 64, 101})
          if (n >= 2 * ranks) out.push_back({n, ranks, order, causal});
  return out;
}

TEST(RingSchedule, EqualsTheEngineRing) {
  constexpr int d = 32;
  for (const Shape& sh : Shapes()) {
    SCOPED_TRACE(::testing::Message() << "n " << sh.n << " ranks " << sh.ranks << " " << engine::ToString(sh.order)
                                      << (sh.causal ? " causal" : ""));
    const engine::RingRun e = EngineRun(sh.n, d, sh.ranks, sh.order, sh.causal);
    const RingSchedule s = ScheduleRing(sh.n, sh.ranks, sh.order, sh.causal, d, 1);
    EXPECT_EQ(s.shard_rows, e.shard_rows);
    EXPECT_EQ(s.bytes_per_link_per_step, e.bytes_per_link_per_step);
    EXPECT_EQ(s.total_link_bytes, e.total_link_bytes);
    EXPECT_EQ(s.idle_rank_steps, e.idle_device_steps);
    ASSERT_EQ(s.steps.size(), e.steps.size());
    for (size_t t = 0; t < s.steps.size(); ++t)
      for (int r = 0; r < sh.ranks; ++r) {
        const RingRankStep& a = s.steps[t][r];
        const engine::RingDeviceStep& b = e.steps[t].devices[r];
        EXPECT_EQ(a.shard, b.shard) << "step " << t << " rank " << r;
        EXPECT_EQ(a.pairs, b.pairs) << "step " << t << " rank " << r;
        EXPECT_EQ(a.idle, b.idle) << "step " << t << " rank " << r;
        EXPECT_EQ(a.bytes_sent, b.bytes_sent) << "step " << t << " rank " << r;
      }
    // with heads, every link carries each head's K and V: heads × the engine's bytes
    const RingSchedule s3 = ScheduleRing(sh.n, sh.ranks, sh.order, sh.causal, d, 3);
    EXPECT_EQ(s3.total_link_bytes, 3 * e.total_link_bytes);
    EXPECT_EQ(s3.bytes_per_link_per_step, 3 * e.bytes_per_link_per_step);
  }
}

// Every (query row, key) pair of a rank's rows that the mask allows is computed at exactly one step, by
// one launch, and each launch's class says which of its pairs the kernel's mask keeps.
TEST(RingSchedule, LaunchesCoverTheMaskExactlyOnce) {
  for (const Shape& sh : Shapes()) {
    SCOPED_TRACE(::testing::Message() << "n " << sh.n << " ranks " << sh.ranks << " " << engine::ToString(sh.order)
                                      << (sh.causal ? " causal" : ""));
    const RingSchedule s = ScheduleRing(sh.n, sh.ranks, sh.order, sh.causal, 64, 1);
    std::vector<int> seen(static_cast<size_t>(sh.n) * sh.n, 0);
    for (const auto& step : s.steps)
      for (const RingRankStep& rs : step)
        for (const RingLaunch& l : rs.launches) {
          const RowRun& q = s.runs[rs.rank][l.q_run];
          const RowRun& k = s.runs[rs.shard][l.k_run];
          std::int64_t kept = 0;
          for (int i = 0; i < q.rows; ++i)
            for (int j = 0; j < k.rows; ++j) {
              // the kernel's mask on the launch's local indices: none, or causal top-left (j ≤ i)
              if (l.cls == RingPairClass::kDiag && j > i) continue;
              const int qr = s.shard_rows[rs.rank][q.offset + i], kr = s.shard_rows[rs.shard][k.offset + j];
              if (sh.causal) {  // causal runs are consecutive rows from `first`
                ASSERT_EQ(qr, q.first + i);
                ASSERT_EQ(kr, k.first + j);
              }
              ++seen[static_cast<size_t>(qr) * sh.n + kr];
              ++kept;
            }
          EXPECT_EQ(kept, l.pairs);
        }
    for (int r = 0; r < sh.n; ++r)
      for (int c = 0; c < sh.n; ++c)
        ASSERT_EQ(seen[static_cast<size_t>(r) * sh.n + c], (!sh.causal || c <= r) ? 1 : 0) << "row " << r << " key " << c;
  }
}

// Zig-zag over 4 ranks, N = 16: chunks of 2 rows; rank r holds chunks r and 7 − r. Counted by hand:
// step 0 computes (r, r) diag, (7 − r, r) full, (7 − r, 7 − r) diag — one causal diagonal launch for rank 3,
// whose chunks 3 and 4 are adjacent; later steps compute 2 full launches of 2 × 2 rows on every rank.
TEST(RingSchedule, ZigZagFourRanksByHand) {
  const RingSchedule s = ScheduleRing(16, 4, RingOrder::kZigZag, true, 128, 1);
  ASSERT_EQ(s.runs[0].size(), 2u);
  ASSERT_EQ(s.runs[3].size(), 1u);
  EXPECT_EQ(s.runs[3][0].first, 6);
  EXPECT_EQ(s.runs[3][0].rows, 4);
  EXPECT_EQ(s.steps[0][0].launches.size(), 3u);
  EXPECT_EQ(s.steps[0][0].pairs, 3 + 4 + 3);
  EXPECT_EQ(s.steps[0][3].launches.size(), 1u);
  EXPECT_EQ(s.steps[0][3].pairs, 4 * 5 / 2);
  for (int t = 1; t < 4; ++t)
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(s.steps[t][r].pairs, 8) << t << " " << r;
      EXPECT_FALSE(s.steps[t][r].idle);
    }
  EXPECT_EQ(s.bytes_per_link_per_step, 4 * (128 + 128) * 2);
  EXPECT_EQ(s.total_link_bytes, 3 * 4 * s.bytes_per_link_per_step);
  EXPECT_EQ(s.idle_rank_steps, 0);
  // contiguous causal: rank r idles at the steps that bring it a later shard
  const RingSchedule c = ScheduleRing(16, 4, RingOrder::kContiguous, true, 128, 1);
  EXPECT_EQ(c.idle_rank_steps, 0 + 1 + 2 + 3);
  // without a mask a zig-zag shard is one run: one launch per step, every pair
  const RingSchedule z = ScheduleRing(16, 4, RingOrder::kZigZag, false, 128, 1);
  for (const auto& step : z.steps)
    for (const RingRankStep& rs : step) {
      ASSERT_EQ(rs.launches.size(), 1u);
      EXPECT_EQ(rs.pairs, 16);
    }
}

TEST(RingSchedule, RefusesWhatTheGpuRingCannotRun) {
  auto field = [](auto f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what()).substr(0, std::string(e.what()).find(':'));
    }
    return std::string("no error");
  };
  EXPECT_EQ(field([] { ScheduleRing(16, 0, RingOrder::kZigZag, true, 64, 1); }), "ranks");
  EXPECT_EQ(field([] { ScheduleRing(64, 9, RingOrder::kZigZag, true, 64, 1); }), "ranks");
  EXPECT_EQ(field([] { ScheduleRing(7, 4, RingOrder::kZigZag, true, 64, 1); }), "n");
  EXPECT_EQ(field([] { ScheduleRing(16, 4, RingOrder::kZigZag, true, 48, 1); }), "d");
  EXPECT_EQ(field([] { ScheduleRing(16, 4, RingOrder::kZigZag, true, 64, 0); }), "heads");
  EXPECT_NO_THROW(ScheduleRing(4, 4, RingOrder::kContiguous, true, 64, 1));
}

RingRecording Sample() {
  const RingSchedule s = ScheduleRing(37, 3, RingOrder::kZigZag, true, 64, 2);
  RingRecording r = RecordingFromSchedule(s, 5);
  r.device_name = "NVIDIA H100 80GB HBM3";
  r.transport = "local";
  r.transport_note = "local: threads of one process on one GPU; not NCCL";
  r.ring_ms = 0.123456789;
  r.one_gpu_ms = 0.05;
  r.warmup = 2;
  r.check = CompareRing({1, 2}, {0}, {1, 2}, {0}, 1, 1, 2, {}, "one-GPU tensor-core FA-2");
  for (size_t i = 0; i < r.steps.size(); ++i) {
    RingStepRecord& x = r.steps[i];
    x.compute_start_ms = 0.01 * i + 1.0 / 3;
    x.compute_end_ms = x.compute_start_ms + 0.02;
    x.merge_end_ms = x.compute_end_ms + 0.001;
    if (x.step + 1 < r.ranks) { x.transfer_start_ms = x.compute_start_ms - 0.001; x.transfer_end_ms = x.compute_end_ms + 0.1; }
  }
  return r;
}

TEST(RingRecord, JsonRoundTrip) {
  const RingRecording r = Sample();
  EXPECT_EQ(r.steps.size(), 9u);
  EXPECT_EQ(r.steps[4].rank, 1);
  EXPECT_EQ(r.steps[4].step, 1);
  const std::string text = RingRecordingToJson(r);
  EXPECT_NE(text.find("\"kind\": \"ring_run\""), std::string::npos);
  EXPECT_EQ(RingRecordingFromJson(text, "x.json"), r);
  const std::string table = RingStepTable(r);
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 1 + 9 + 3);  // header, ranks × steps, a sum per rank
}

TEST(RingRecord, ErrorsNameThePath) {
  std::string text = RingRecordingToJson(Sample());
  auto error = [](const std::string& t) {
    try {
      RingRecordingFromJson(t, "rec.json");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string bad = text;
  bad.replace(bad.find("\"ring_run\""), 10, "\"gpu_run\"");
  EXPECT_EQ(error(bad), "rec.json: /kind: expected \"ring_run\"");
  bad = text;
  bad.replace(bad.find("\"zigzag\""), 8, "\"spiral\"");
  EXPECT_EQ(error(bad), "rec.json: /problem/order: expected \"contiguous\" or \"zigzag\"");
  bad = text;
  bad.replace(bad.find("\"transport\": \"local\""), 20, "\"transport\": 3");
  EXPECT_EQ(error(bad), "rec.json: /transport: expected a string");
  EXPECT_EQ(error("{").rfind("rec.json: : not JSON", 0), 0u);
}

TEST(RingRecord, CompareCountsNanAndTolerance) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // two rows of d = 2, one head
  const std::vector<float> ref_o = {1.0f, 0.0f, 0.5f, -0.5f}, ref_l = {2.0f, 3.0f};
  RingCheck c = CompareRing(ref_o, ref_l, ref_o, ref_l, 1, 2, 2, {}, "ref");
  EXPECT_TRUE(c.passed);
  EXPECT_EQ(c.max_abs_o, 0.0);
  std::vector<float> o = ref_o;
  o[1] = 0.0039f;  // within 4e-3 + 2e-2·0
  o[0] = 1.0f + 0.0239f;  // within 4e-3 + 2e-2·1
  EXPECT_TRUE(CompareRing(o, ref_l, ref_o, ref_l, 1, 2, 2, {}, "ref").passed);
  o[1] = 0.0041f;
  c = CompareRing(o, ref_l, ref_o, ref_l, 1, 2, 2, {}, "ref");
  EXPECT_EQ(c.mismatches, 1);
  o = ref_o;
  o[3] = nan;
  c = CompareRing(o, ref_l, ref_o, ref_l, 1, 2, 2, {}, "ref");
  EXPECT_EQ(c.nan, 1);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_FALSE(c.passed);
  EXPECT_TRUE(std::isinf(c.max_abs_o));
  // only row 0 compared: the NaN in row 1 is not seen
  EXPECT_TRUE(CompareRing(o, ref_l, ref_o, ref_l, 1, 2, 2, {0}, "ref").passed);
  std::vector<float> l = ref_l;
  l[0] += 0.002f;
  EXPECT_EQ(CompareRing(ref_o, l, ref_o, ref_l, 1, 2, 2, {}, "ref").mismatches, 1);
}

}  // namespace
}  // namespace bw::cuda
