// The GPU ring's schedule; see ring_schedule.h.
#include "cuda/ring_schedule.h"

#include <algorithm>
#include <stdexcept>

#include "engine/ring.h"

namespace bw::cuda {

const char* ToString(RingPairClass c) {
  switch (c) {
    case RingPairClass::kSkip: return "skip";
    case RingPairClass::kFull: return "full";
    case RingPairClass::kDiag: return "diag";
  }
  return "?";
}

std::int64_t PairsOf(RingPairClass c, int q_rows, int k_rows) {
  switch (c) {
    case RingPairClass::kSkip: return 0;
    case RingPairClass::kFull: return static_cast<std::int64_t>(q_rows) * k_rows;
    case RingPairClass::kDiag: return static_cast<std::int64_t>(q_rows) * (q_rows + 1) / 2;
  }
  return 0;
}

std::int64_t RingSchedule::ShardBytes(int shard) const {
  return static_cast<std::int64_t>(ShardRows(shard)) * (d + d) * 2 * heads;
}

namespace {

std::vector<RowRun> RunsOf(const std::vector<int>& rows) {
  std::vector<RowRun> runs;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!runs.empty() && rows[i] == runs.back().first + runs.back().rows) {
      ++runs.back().rows;
    } else {
      runs.push_back(RowRun{rows[i], 1, static_cast<int>(i)});
    }
  }
  return runs;
}

RingPairClass Classify(const RowRun& q, const RowRun& k, bool causal) {
  if (!causal) return RingPairClass::kFull;
  if (k.first + k.rows <= q.first) return RingPairClass::kFull;
  if (k.first >= q.first + q.rows) return RingPairClass::kSkip;
  if (k.first == q.first && k.rows == q.rows) return RingPairClass::kDiag;
  throw std::logic_error("ring schedule: runs overlap without being equal");  // cannot happen (ring_schedule.h)
}

}  // namespace

RingSchedule ScheduleRing(int n, int ranks, engine::RingOrder order, bool causal, int d, int heads) {
  if (ranks < 1 || ranks > 8) throw std::invalid_argument("ranks: " + std::to_string(ranks) + " is outside 1…8");
  const int chunks = order == engine::RingOrder::kZigZag ? 2 * ranks : ranks;
  if (n < chunks)
    throw std::invalid_argument("n: " + std::to_string(n) + " rows cannot fill " + std::to_string(chunks) + " chunks (" +
                                engine::ToString(order) + " order over " + std::to_string(ranks) + " ranks)");
  if (d != 32 && d != 64 && d != 128)
    throw std::invalid_argument("d: " + std::to_string(d) +
                                " is not 32, 64 or 128 (the tensor-core kernel's widths; the link carries them unpadded)");
  if (heads < 1) throw std::invalid_argument("heads: must be at least 1");
  RingSchedule s;
  s.ranks = ranks; s.n = n; s.d = d; s.heads = heads; s.order = order; s.causal = causal;
  s.shard_rows = engine::RingShards(n, ranks, order);
  for (const auto& rows : s.shard_rows) {
    if (causal) {
      s.runs.push_back(RunsOf(rows));
    } else {
      s.runs.push_back({RowRun{rows.front(), static_cast<int>(rows.size()), 0}});
    }
    s.max_shard_rows = std::max(s.max_shard_rows, static_cast<int>(rows.size()));
    for (const RowRun& r : s.runs.back()) s.max_run_rows = std::max(s.max_run_rows, r.rows);
  }
  s.bytes_per_link_per_step = s.ShardBytes(0);
  for (int t = 0; t < ranks; ++t) {
    std::vector<RingRankStep> step;
    for (int r = 0; r < ranks; ++r) {
      RingRankStep rs;
      rs.rank = r;
      rs.step = t;
      rs.shard = ((r - t) % ranks + ranks) % ranks;
      const auto& qruns = s.runs[r];
      const auto& kruns = s.runs[rs.shard];
      for (int qi = 0; qi < static_cast<int>(qruns.size()); ++qi)
        for (int ki = 0; ki < static_cast<int>(kruns.size()); ++ki) {
          const RingPairClass c = Classify(qruns[qi], kruns[ki], causal);
          if (c == RingPairClass::kSkip) continue;
          const std::int64_t pairs = PairsOf(c, qruns[qi].rows, kruns[ki].rows);
          rs.launches.push_back(RingLaunch{qi, ki, c, pairs});
          rs.pairs += pairs;
        }
      rs.idle = rs.launches.empty();
      rs.bytes_sent = t + 1 < ranks ? s.ShardBytes(rs.shard) : 0;
      s.total_link_bytes += rs.bytes_sent;
      s.idle_rank_steps += rs.idle ? 1 : 0;
      step.push_back(std::move(rs));
    }
    s.steps.push_back(std::move(step));
  }
  return s;
}

}  // namespace bw::cuda
