// test_decode_plan.cpp — runs without a GPU: the split-KV decode kernel's launch plan and traffic model
// (src/cuda/decode_plan.h) against the CPU engine's split-KV run (src/engine/split_kv.h) for one head,
// exact integers; the split count is the engine's ChooseSplitCount; closed forms for GQA and batches.
#include "cuda/decode_plan.h"
#include "engine/split_kv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace bw::cuda {
namespace {

// The engine's split-KV problem for the plan's one head: logits, B_c = 64 tiles (the last a tail), the
// plan's tiles per split, and, when paged, a shuffled block table.
engine::SplitKvProblem EngineProblem(const DecodePlan& plan, std::mt19937& rng) {
  const DecodeShape& s = plan.shape;
  std::uniform_real_distribution<double> u(-1, 1);
  engine::SplitKvProblem p;
  p.query.score_kind = engine::ScoreKind::kLogits;
  p.query.mode = engine::SoftmaxMode::kStable;
  p.query.scores.resize(s.n_kv);
  for (double& x : p.query.scores) x = u(rng);
  p.query.values = Eigen::MatrixXd::NullaryExpr(s.n_kv, s.d, [&] { return u(rng); });
  for (int k = 0; k < s.n_kv; k += kDecodeBc) p.query.block_sizes.push_back(std::min(kDecodeBc, s.n_kv - k));
  p.split_tiles = plan.split_tiles;
  p.d = s.d;
  if (s.page_size > 0) {
    engine::PagedCache c;
    c.page_size = s.page_size;
    c.physical_pages = s.physical_pages;
    std::vector<int> pool(s.physical_pages);
    std::iota(pool.begin(), pool.end(), 0);
    std::shuffle(pool.begin(), pool.end(), rng);
    c.block_table.assign(pool.begin(), pool.begin() + s.PagesPerSeq());
    p.paged = c;
  }
  return p;
}

TEST(DecodePlan, OneHeadEqualsTheEngineSplitAndUnsplit) {
  std::mt19937 rng(34);
  int checked = 0;
  for (int n : {64, 100, 1000, 4097, 20000})
    for (int d : {64, 128})
      for (int page : {0, 1, 16, 48, 256})
        for (int forced : {0, 3, 1}) {
          DecodeShape s;
          s.batch = 1; s.q_len = 1; s.n_kv = n; s.heads_q = s.heads_kv = 1; s.d = d;
          s.page_size = page;
          s.physical_pages = page ? s.PagesPerSeq() + 5 : 0;
          const DecodePlan plan = PlanDecode(s, 132, 2, forced);
          const engine::SplitKvRun run = engine::RunSplitKv(EngineProblem(plan, rng));
          ASSERT_EQ(run.SplitCount(), plan.splits);
          const DecodeCounters c = PredictDecodeCounters(plan);
          const engine::SplitKvCounters mine = ToEngineCounters(c);
          const engine::SplitKvCounters& want = plan.Split() ? run.counters : run.unsplit_counters;
          SCOPED_TRACE(ToString(c));
          EXPECT_EQ(mine.q_reads, want.q_reads);
          EXPECT_EQ(mine.k_reads, want.k_reads);
          EXPECT_EQ(mine.v_reads, want.v_reads);
          EXPECT_EQ(mine.table_reads, want.table_reads);
          EXPECT_EQ(mine.partial_o_writes, want.partial_o_writes);
          EXPECT_EQ(mine.lse_writes, want.lse_writes);
          EXPECT_EQ(mine.partial_o_reads, want.partial_o_reads);
          EXPECT_EQ(mine.lse_reads, want.lse_reads);
          EXPECT_EQ(mine.o_writes, want.o_writes);
          EXPECT_TRUE(mine == want);
          // bytes: the engine's Bytes(2) books bf16 q/K/V/O and fp32 O_s, lse_s and int32 table entries
          EXPECT_EQ(c.ReadBytes() + c.WriteBytes(), want.Bytes(2));
          for (int i = 0; i < plan.splits; ++i)
            EXPECT_EQ(PagesTouched(plan, i), static_cast<int>(run.splits[i].physical_pages.size()));
          ++checked;
        }
  EXPECT_EQ(checked, 150);
}

TEST(DecodePlan, SplitCountIsTheEngineHeuristicOverSlots) {
  for (int b : {1, 2, 8, 64})
    for (int hkv : {1, 8, 32})
      for (int n : {1024, 32768, 131072}) {
        DecodeShape s;
        s.batch = b; s.n_kv = n; s.heads_kv = hkv; s.heads_q = hkv * 4; s.d = 128;
        const DecodePlan p = PlanDecode(s, 132, 2);
        EXPECT_EQ(p.splits, engine::ChooseSplitCount((std::int64_t)b * hkv, 264, (n + 63) / 64, 128));
        EXPECT_EQ(p.grid, (std::int64_t)b * hkv * p.splits);
        EXPECT_EQ(std::accumulate(p.split_tiles.begin(), p.split_tiles.end(), 0), p.tiles);
        EXPECT_EQ(p.split_begin.back(), n);
      }
  DecodeShape one;  // one sequence, one KV head, 128k keys: the unsplit grid is one block on 132 SMs
  one.batch = 1; one.n_kv = 131072; one.heads_q = one.heads_kv = 1;
  EXPECT_GT(PlanDecode(one, 132, 2).splits, 1);
  DecodeShape full = one;  // 64 × 8 = 512 blocks already fill 264 slots
  full.batch = 64; full.heads_kv = 8; full.heads_q = 64;
  EXPECT_EQ(PlanDecode(full, 132, 2).splits, 1);
}

TEST(DecodePlan, GqaReadsKvOncePerKvHeadClosedForm) {
  // B = 2, H_q = 32, H_kv = 4 (group 8), q_len 4 → 32 rows: one row group; N = 1000, d = 128, S = 5
  DecodeShape s;
  s.batch = 2; s.q_len = 4; s.n_kv = 1000; s.heads_q = 32; s.heads_kv = 4; s.d = 128;
  s.page_size = 16; s.physical_pages = 2 * 63;
  const DecodePlan p = PlanDecode(s, 132, 2, 5);
  ASSERT_EQ(p.tiles, 16);
  ASSERT_EQ(p.splits, 5);
  ASSERT_EQ(p.row_groups, 1);
  ASSERT_EQ(p.rows_per_cta, 32);
  EXPECT_EQ(p.split_tiles, (std::vector<int>{4, 3, 3, 3, 3}));
  const DecodeCounters c = PredictDecodeCounters(p);
  EXPECT_EQ(c.q.read_elems, 2 * 32 * 4 * 128 * 5);
  EXPECT_EQ(c.q.read_bytes, 2 * 32 * 4 * 128 * 5 * 2);
  EXPECT_EQ(c.k.read_elems, 2 * 4 * 1000 * 128);
  EXPECT_EQ(c.v.read_bytes, 2 * 4 * 1000 * 128 * 2);
  // splits begin at keys 0, 256, 448, 640, 832; pages of 16: 16 + 12 + 12 + 12 + 11 (832 … 999) = 63
  EXPECT_EQ(c.table.read_elems, 2 * 4 * 63);
  EXPECT_EQ(c.o_part.write_elems, 2 * 32 * 4 * 5 * 128);
  EXPECT_EQ(c.o_part.read_bytes, 2 * 32 * 4 * 5 * 128 * 4);
  EXPECT_EQ(c.lse_part.read_elems, 2 * 32 * 4 * 5);
  EXPECT_EQ(c.o.write_bytes, 2 * 32 * 4 * 128 * 2);
  EXPECT_EQ(c.ctas, 2 * 4 * 5);
  EXPECT_EQ(c.tiles, 2 * 4 * 16);
  // q_len 8 with group 8 = 64 rows: two row groups, K/V read twice per KV head
  s.q_len = 8;
  const DecodePlan p2 = PlanDecode(s, 132, 2, 5);
  EXPECT_EQ(p2.row_groups, 2);
  EXPECT_EQ(PredictDecodeCounters(p2).k.read_elems, 2 * 4 * 2 * 1000 * 128);
}

TEST(DecodePlan, RefusesWithTheField) {
  DecodeShape s;
  s.d = 96;
  try {
    PlanDecode(s, 132);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("d:"), std::string::npos);
  }
  s.d = 128; s.heads_q = 6; s.heads_kv = 4;
  EXPECT_THROW(PlanDecode(s, 132), std::invalid_argument);
}

}  // namespace
}  // namespace bw::cuda
