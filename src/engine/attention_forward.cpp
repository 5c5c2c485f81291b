// Forward attention: the reference (FlashAttention Algorithm 0) and the two tiled loop orders
// (FlashAttention-2 Algorithm 1: Q blocks outside; FlashAttention-1 Algorithm 1: K/V blocks outside).
// Each is one template over the working precision T; counters and trace events go through one
// Recorder so they cannot disagree. Shapes: Q (N_q, d), K (N_k, d), V (N_k, d_v), O (N_q, d_v).
// size-exception: the engine's reference, read like llm.c against the paper: Algorithm 0 and the two tiled orders stay side by side in one file so that their loops compare line by line over the helpers they share (one line over the limit).

// [SECTION] Reference: FlashAttention Algorithm 0
// [SECTION] FlashAttention-2 order
// [SECTION] FlashAttention-1 order
// [SECTION] Entry points (validation, precision dispatch)

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/attention.h"
#include "engine/attention_kernels.h"
#include "engine/parallel.h"

namespace bw::engine {
namespace {

using detail::kNegInf;
using detail::Mat;
using detail::MaskGeometry;
using detail::Recorder;
using detail::RowState;
using detail::Vec;
using I64 = std::int64_t;
using NumericsKind = engine::NumericsKind;

template <typename T>
const char* PrecisionName() {
  return sizeof(T) == 8 ? "double" : "float";
}

// Inputs that do not fit the working precision T (|x| above its largest finite value, or non-zero
// below half its smallest subnormal: they become ±∞ or 0 on conversion), reported with their
// tensor, row and column. Only float can lose an input (the engine's inputs are doubles).
template <typename T>
void CheckInputRange(const AttentionProblem& p, NumericsReport& rep) {
  if (sizeof(T) == 8) return;
  const double big = LargestFinite(4), tiny = SmallestSubnormal(4) / 2;
  const auto scan = [&](const AttentionMatrix& m, const char* name) {
    // A vectorised look first (every shipped and benchmarked problem passes it); the element scan
    // below only runs to name the entries when something is out of range.
    if (detail::FitsF32(m.data(), m.size(), big, tiny)) return;
    for (I64 r = 0; r < m.rows(); ++r)
      for (I64 c = 0; c < m.cols(); ++c) {
        const double x = std::abs(m(r, c));
        if (x > big || (x != 0 && x < tiny)) rep.Add({NumericsKind::kOutOfRange, name, r, c, -1, -1, m(r, c), "float"});
      }
  };
  scan(p.Q, "Q");
  scan(p.K, "K");
  scan(p.V, "V");
  const double s = std::abs(p.EffectiveScale());
  if (s > big || (s != 0 && s < tiny)) rep.Add({NumericsKind::kOutOfRange, "scale", -1, -1, -1, -1, p.EffectiveScale(), "float"});
}

// "Fully masked" from the mask alone: row r has no allowed key.
std::vector<std::uint8_t> FullyMaskedRows(const AttentionProblem& p, const MaskGeometry& mg) {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(p.n_q()), 0);
  for (I64 r = 0; r < p.n_q(); ++r) out[static_cast<std::size_t>(r)] = p.n_k() == 0 || mg.TileFullyMasked(r, r + 1, 0, p.n_k());
  return out;
}

// After a run: rows the mask allows but whose weights all came out 0 (L = −∞), and — a safety net
// the property test requires to stay unused — any row of O that is not finite and that no event
// from the kernels names, as "O (cause not traced)".
void FinishNumerics(AttentionResult& res, const char* precision) {
  for (I64 r = 0; r < res.L.size(); ++r) {
    if (res.row_fully_masked[static_cast<std::size_t>(r)] || res.L[r] != -std::numeric_limits<double>::infinity()) continue;
    res.numerics.Add({NumericsKind::kWeightsUnderflow, "l", r, -1, -1, -1, 0.0, precision});
  }
  for (I64 r = 0; r < res.O.rows(); ++r)
    for (I64 c = 0; c < res.O.cols(); ++c) {
      const double x = res.O(r, c);
      if (std::isfinite(x)) continue;
      if (!res.numerics.NamesRow(r))
        res.numerics.Add({std::isnan(x) ? NumericsKind::kNaN : NumericsKind::kAccumulatorOverflow, "O (cause not traced)", r,
                          c, -1, -1, x, precision});
      break;
    }
}

template <typename T>
void WidenOutputs(AttentionResult& res, const Mat<T>& O, const Vec<T>& L) {
  res.O = O.template cast<double>();
  res.L = L.template cast<double>();
}

// [SECTION] Reference: FlashAttention Algorithm 0 ------------------------------------------------

template <typename T>
AttentionResult ReferenceImpl(const AttentionProblem& p, const RunOptions& opt) {
  // Q: (N_q, d)  K: (N_k, d)  V: (N_k, d_v)  S, P: (N_q, N_k)  O: (N_q, d_v)
  const I64 n_q = p.n_q(), n_k = p.n_k(), d = p.d(), d_v = p.d_v();
  const I64 b = sizeof(T);
  AttentionResult res;
  detail::StartRun<T>(res, p, opt, Algorithm::kReference, {});
  Recorder rec(res.counters, opt.record_trace ? &res.trace : nullptr);
  CheckInputRange<T>(p, res.numerics);
  const Mat<T> Q = p.Q.cast<T>(), K = p.K.cast<T>(), V = p.V.cast<T>();
  const T scale = static_cast<T>(p.EffectiveScale());
  const MaskGeometry mg(p.mask, n_q, n_k);
  const detail::NumericsSink sink{&res.numerics, -1, -1, PrecisionName<T>()};

  // The three passes are counted as Algorithm 0 runs them: S and P whole in HBM (N_q × N_k each).
  // The arithmetic is done a block of query rows at a time, each row exactly as it would be in the
  // whole matrices, so a large problem never holds more than one block of S/P in memory (4096²
  // doubles were 2 × 128 MiB, half of that first-touch page faults). Problems up to
  // kReferenceWholeElements scores run as one block.
  // pass 1: S = scale · Q Kᵀ, written to HBM (line 1: load Q, K by blocks, compute S, write S).
  // Given logits are S itself, already in HBM: no pass 1 is counted (the product with K = I only
  // copies them into the working precision).
  if (!p.logits_given) {
    rec.Emit(EventKind::kRead, Tensor::kQ, -1, -1, n_q * d, 0);
    rec.Emit(EventKind::kRead, Tensor::kK, -1, -1, n_k * d, 0);
    rec.Emit(EventKind::kComputeFull, Tensor::kS, -1, -1, 0, 0, 0, 2 * n_q * n_k * d);
    rec.Emit(EventKind::kWrite, Tensor::kS, -1, -1, n_q * n_k, 0);
  }
  // pass 2: read S, P = softmax(S) row by row over the allowed keys, write P (line 2)
  rec.Emit(EventKind::kRead, Tensor::kS, -1, -1, n_q * n_k, 0);
  rec.Emit(EventKind::kComputeFull, Tensor::kP, -1, -1, 0, 0, 0, 0, n_q * n_k);
  rec.Emit(EventKind::kWrite, Tensor::kP, -1, -1, n_q * n_k, 0);
  // pass 3: read P and V, O = P V, write O (line 3)
  rec.Emit(EventKind::kRead, Tensor::kP, -1, -1, n_q * n_k, 0);
  rec.Emit(EventKind::kRead, Tensor::kV, -1, -1, n_k * d_v, 0);

  constexpr I64 kReferenceWholeElements = I64{1} << 22;   // 2048² scores: one block
  constexpr I64 kReferenceBlockElements = I64{1} << 18;   // else about this many scores a block (2 MiB of doubles)
  const I64 block_rows = n_q * n_k <= kReferenceWholeElements ? std::max<I64>(n_q, 1)
                                                              : std::max<I64>(1, kReferenceBlockElements / std::max<I64>(n_k, 1));
  Mat<T> O(n_q, d_v);
  Vec<T> L(n_q);
  std::vector<std::uint8_t> zero_rows(static_cast<std::size_t>(n_q), 0);   // fully masked: O row +0 after the check
  if (opt.keep_probabilities) res.P.resize(n_q, n_k);
  Mat<T> S;    // rows [r0, r0 + rows) of S, then (in place) of P
  Mat<T> row;  // one row of S in SRAM, masked there (S in HBM stays scale·QKᵀ)
  Mat<T> Ob;
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Pf;
  for (I64 r0 = 0; r0 < n_q; r0 += block_rows) {
    const I64 rows = std::min(block_rows, n_q - r0);
    S.resize(rows, n_k);
    S.noalias() = Q.middleRows(r0, rows) * K.transpose();
    S *= scale;
    for (I64 a = 0; a < rows; ++a) {
      const I64 r = r0 + a;
      row = S.row(a);
      detail::CheckScores(row, r, 0, mg, sink);
      mg.ApplyToTile(row, r, 0);                      // masked keys → −∞
      const T m = n_k > 0 ? row.maxCoeff() : kNegInf<T>;
      if (m == kNegInf<T>) {  // fully masked row: P = 0, O = 0, flagged through L = −∞
        S.row(a).setZero();
        L[r] = kNegInf<T>;
        zero_rows[static_cast<std::size_t>(r)] = 1;
        continue;
      }
      S.row(a) = row;
      detail::ExpShiftedRow(S.row(a), m, p.mask.kind != MaskKind::kNone);  // exactly 0 on masked keys
      const T l = S.row(a).sum();
      S.row(a) /= l;
      L[r] = m + std::log(l);
    }
    detail::MultiplyPV(Ob, S, V);  // a zero probability contributes nothing, even against V = ±∞
    O.middleRows(r0, rows) = Ob;
    if (opt.keep_probabilities) res.P.middleRows(r0, rows) = S.template cast<float>();
    if (opt.probability_rows) {
      Pf = S.template cast<float>();
      opt.probability_rows(r0, Pf.data(), rows);
    }
  }
  {
    std::vector<std::uint8_t> reported(static_cast<std::size_t>(n_q), 0);
    const Vec<T> ones = Vec<T>::Ones(n_q);
    detail::CheckAccumulator(ones, O, 0, reported, "O", sink);
  }
  for (I64 r = 0; r < n_q; ++r)
    if (zero_rows[static_cast<std::size_t>(r)]) O.row(r).setZero();  // +0, not the −0 of 0·(−v)
  rec.Emit(EventKind::kComputeFull, Tensor::kO, -1, -1, 0, 0, 0, 2 * n_q * n_k * d_v);
  rec.Emit(EventKind::kWrite, Tensor::kO, -1, -1, n_q * d_v, 0);

  res.counters.hbm_scratch_bytes = (p.logits_given ? 1 : 2) * n_q * n_k * b;  // S and P held in HBM (given S is input)
  WidenOutputs(res, O, L);
  res.row_fully_masked = FullyMaskedRows(p, mg);
  FinishNumerics(res, PrecisionName<T>());
  if (rec.tracing()) res.trace.Finish(res.counters);
  return res;
}

// [SECTION] FlashAttention-2 order ---------------------------------------------------------------

// What one Q block of an FA-2 run produced besides its rows of O and L: its events (kept in full
// when tracing, else only summed into counters), its (m, l, u) snapshots and its numerics events.
// Blocks run in parallel each fill their own log; the run merges the logs in Q-block order, so the
// counters, trace and numerics report equal the single-threaded run's exactly.
struct BlockLog {
  bool keep_events = false;
  std::vector<AttentionEvent> events;
  Counters counters;
  std::vector<AttentionTrace::StateSnapshot> snapshots;
  NumericsReport numerics;

  void Emit(EventKind kind, Tensor t, std::int32_t i, std::int32_t j, std::int64_t elements, std::int64_t sram,
            std::int32_t step = 0, std::int64_t flops = 0, std::int64_t exps = 0) {
    const AttentionEvent e = detail::MakeEvent(kind, t, i, j, elements, sram, step, flops, exps);
    if (keep_events)
      events.push_back(e);
    else
      ApplyEvent(e, counters);
  }
};

// Adds counters recorded separately (per Q block) into a run's: sums, and the maximum for the peak.
void AddCounters(Counters& into, const Counters& c) {
  for (int t = 0; t < kTensorCount; ++t) {
    into.hbm_read_elements[t] += c.hbm_read_elements[t];
    into.hbm_write_elements[t] += c.hbm_write_elements[t];
  }
  into.sram_peak_bytes = std::max(into.sram_peak_bytes, c.sram_peak_bytes);
  into.matmul_flops += c.matmul_flops;
  into.exp_count += c.exp_count;
  into.tiles_computed += c.tiles_computed;
  into.tiles_skipped += c.tiles_skipped;
}

// One Q block's own on-chip state: Q_i and its (m, l, u).
template <typename T>
struct Flash2BlockState {
  Mat<T> Qi;
  RowState<T> st;
  std::int32_t steps = 0;
};

// One worker's on-chip buffers, reused from group to group: the K_j / V_j tiles shared by the
// group's Q blocks, and one Flash2BlockState per block of the group.
template <typename T>
struct Flash2Scratch {
  Mat<T> Kj, Kt, Vj, S, PV, Oi;  // Kt: K_jᵀ (d × c), float runs only
  Vec<T> Li;
  std::vector<Flash2BlockState<T>> blocks;
};

// How many consecutive Q blocks one worker takes at a time (a group): up to 4, never so many that a
// worker would be left without a group. The group shares the conversion of each K_j and V_j into
// the working precision (the CPU's only cost of "loading" a tile); each block's arithmetic, events
// and counters are its own, so the result does not depend on the group size.
I64 Flash2GroupSize(I64 T_r, int workers) { return std::clamp<I64>(T_r / std::max(workers, 1), 1, 4); }

// FA-2 Algorithm 1 lines 4–15 for Q blocks i0 … i0 + count − 1: for each block everything one thread
// block does on the GPU, its K/V loop interleaved with the group's other blocks (tile (i, j) of every
// block of the group, then j + 1). Block i writes rows [i·B_r, i·B_r + r) of res.O and res.L, the
// `reported` flags of those rows and logs[i]; nothing else of `res` is touched.
template <typename T>
void Flash2Group(const AttentionProblem& p, const RunOptions& opt, const MaskGeometry& mg, T scale, int stride,
                 I64 i0, I64 count, Flash2Scratch<T>& w, std::vector<BlockLog>& logs, std::vector<std::uint8_t>& reported,
                 AttentionResult& res) {
  const I64 n_q = p.n_q(), n_k = p.n_k(), d = p.d(), d_v = p.d_v();
  const I64 B_r = opt.tiles.B_r, B_c = opt.tiles.B_c, T_c = CeilDiv(n_k, B_c);
  const I64 b = sizeof(T);
  // Given logits: no Q_i or K_j on chip; the S_ij tile is read from HBM in place of K_j (dq = 0).
  const bool logits = p.logits_given;
  const I64 dq = logits ? 0 : d;  // Q_i / K_j row width counted on chip
  if (static_cast<I64>(w.blocks.size()) < count) w.blocks.resize(static_cast<std::size_t>(count));
  const auto rows_of = [&](I64 g) { return std::min(B_r, n_q - (i0 + g) * B_r); };
  const auto base_of = [&](I64 r) { return (r * dq + r * d_v + 2 * r) * b; };  // Q_i, u (Õ_i), m, l on chip
  for (I64 g = 0; g < count; ++g) {
    const I64 i = i0 + g, r0 = i * B_r, r = rows_of(g);
    Flash2BlockState<T>& blk = w.blocks[static_cast<std::size_t>(g)];
    // Q_i, K_j, V_j are copied into tile buffers in the working precision as they are "loaded from
    // HBM": no whole-matrix copy, so the run's extra memory is its tiles (bench/attention_bench.cpp).
    detail::LoadRows(blk.Qi, p.Q, r0, r);
    if (!logits) logs[static_cast<std::size_t>(i)].Emit(EventKind::kRead, Tensor::kQ, static_cast<std::int32_t>(i), -1, r * d, base_of(r));  // line 4: load Q_i
    blk.st.Reset(r, d_v);  // line 5: O_i = 0, l = 0, m = −∞
    blk.steps = 0;
  }
  for (I64 j = 0; j < T_c; ++j) {  // line 6: for 1 ≤ j ≤ T_c
    const I64 c0 = j * B_c, c = std::min(B_c, n_k - c0);
    const std::int32_t jj = static_cast<std::int32_t>(j);
    bool loaded = false;
    for (I64 g = 0; g < count; ++g) {
      const I64 i = i0 + g, r0 = i * B_r, r = rows_of(g), base = base_of(r);
      const std::int32_t ii = static_cast<std::int32_t>(i);
      Flash2BlockState<T>& blk = w.blocks[static_cast<std::size_t>(g)];
      BlockLog& log = logs[static_cast<std::size_t>(i)];
      RowState<T>& st = blk.st;
      if (mg.TileFullyMasked(r0, r0 + r, c0, c0 + c)) {
        log.Emit(EventKind::kSkipTile, Tensor::kCount, ii, jj, 0, base, blk.steps);
        continue;
      }
      if (!loaded) {  // the tiles' conversion, once for the group
        // Float: K_j is converted straight into the K_jᵀ layout the score kernel reads (one pass).
        if constexpr (std::is_same_v<T, float>) {
          w.Kt.resize(p.K.cols(), c);
          detail::CastTransposeToF32(p.K.data() + c0 * p.K.cols(), p.K.cols(), c, p.K.cols(), w.Kt.data());
        } else {
          w.Kj = p.K.middleRows(c0, c);
        }
        detail::LoadRows(w.Vj, p.V, c0, c);
        loaded = true;
      }
      if (logits)
        log.Emit(EventKind::kRead, Tensor::kS, ii, jj, r * c, base + r * c * b, blk.steps);
      else
        log.Emit(EventKind::kRead, Tensor::kK, ii, jj, c * d, base + c * d * b, blk.steps);  // line 7
      log.Emit(EventKind::kRead, Tensor::kV, ii, jj, c * d_v, base + (c * (dq + d_v) + (logits ? r * c : 0)) * b, blk.steps);
      const detail::NumericsSink sink{&log.numerics, ii, jj, PrecisionName<T>()};
      bool masked;  // line 8
      if constexpr (std::is_same_v<T, float>)
        masked = detail::ComputeScoresFromKt(w.S, blk.Qi, w.Kt, scale, mg, r0, c0, sink);
      else
        masked = detail::ComputeScores(w.S, blk.Qi, w.Kj, scale, mg, r0, c0, sink);
      const I64 tile_sram = base + (c * (dq + d_v) + r * c) * b;
      log.Emit(EventKind::kComputeS, Tensor::kS, ii, jj, 0, tile_sram, blk.steps, 2 * r * c * dq);
      detail::MergeTileFlash2(st, w.S, w.Vj, w.PV, opt.merge, masked);  // lines 9–10
      detail::CheckAccumulator(st.l, st.acc, r0, reported, "u", sink);
      ++blk.steps;
      log.Emit(EventKind::kUpdateMLU, Tensor::kCount, ii, jj, 0, tile_sram, blk.steps, 2 * r * c * d_v, r * c + r);
      if (stride > 0 && blk.steps % stride == 0) log.snapshots.push_back(detail::Snapshot(st, jj, blk.steps));
    }
  }
  for (I64 g = 0; g < count; ++g) {
    const I64 i = i0 + g, r0 = i * B_r, r = rows_of(g), base = base_of(r);
    const std::int32_t ii = static_cast<std::int32_t>(i);
    Flash2BlockState<T>& blk = w.blocks[static_cast<std::size_t>(g)];
    BlockLog& log = logs[static_cast<std::size_t>(i)];
    w.Oi.resize(r, d_v);
    w.Li.resize(r);
    detail::FinaliseFlash2<T>(blk.st, w.Oi, w.Li);  // lines 12–13
    res.O.middleRows(r0, r) = w.Oi.template cast<double>();
    res.L.segment(r0, r) = w.Li.template cast<double>();
    log.Emit(EventKind::kFinalise, Tensor::kO, ii, -1, 0, base, blk.steps);
    log.Emit(EventKind::kWrite, Tensor::kO, ii, -1, r * d_v, base, blk.steps);  // line 14
    log.Emit(EventKind::kWrite, Tensor::kL, ii, -1, r, base, blk.steps);        // line 15
  }
}

template <typename T>
AttentionResult Flash2Impl(const AttentionProblem& p, const RunOptions& opt) {
  const I64 n_q = p.n_q(), n_k = p.n_k(), d_v = p.d_v();
  const I64 T_r = CeilDiv(n_q, opt.tiles.B_r);
  AttentionResult res;
  detail::StartRun<T>(res, p, opt, Algorithm::kFlash2, opt.tiles);
  res.merge = opt.merge;
  Recorder rec(res.counters, opt.record_trace ? &res.trace : nullptr);
  const T scale = static_cast<T>(p.EffectiveScale());
  const MaskGeometry mg(p.mask, n_q, n_k);
  const int stride = opt.record_trace ? res.trace.state_snapshot_stride() : 0;

  res.O.resize(n_q, d_v);
  res.L.resize(n_q);
  res.row_fully_masked = FullyMaskedRows(p, mg);
  CheckInputRange<T>(p, res.numerics);
  std::vector<std::uint8_t> reported(static_cast<std::size_t>(n_q), 0);
  // line 3: for 1 ≤ i ≤ T_r — the Q blocks are independent (FA-2 §3.2): each worker owns its Q_i,
  // its m, l, u and its rows of O and L. Logs are merged in Q-block order below.
  const int workers = detail::EffectiveWorkers(opt.workers, T_r);
  const I64 group = Flash2GroupSize(T_r, workers);
  std::vector<Flash2Scratch<T>> scratch(static_cast<std::size_t>(workers));
  std::vector<BlockLog> logs(static_cast<std::size_t>(T_r));
  for (BlockLog& log : logs) log.keep_events = rec.tracing();
  detail::ParallelFor(CeilDiv(T_r, group), workers, [&](I64 gi, int worker) {
    const I64 i0 = gi * group;
    Flash2Group<T>(p, opt, mg, scale, stride, i0, std::min(group, T_r - i0), scratch[static_cast<std::size_t>(worker)],
                   logs, reported, res);
  });
  for (I64 i = 0; i < T_r; ++i) {
    BlockLog& log = logs[static_cast<std::size_t>(i)];
    if (rec.tracing()) {
      for (const AttentionEvent& e : log.events) rec.Emit(e);
      for (auto& s : log.snapshots) res.trace.AddStateSnapshot(static_cast<std::int32_t>(i), std::move(s));
    } else {
      AddCounters(res.counters, log.counters);
    }
    for (NumericsEvent& e : log.numerics.events) res.numerics.Add(std::move(e));
    res.numerics.dropped += log.numerics.dropped;
    log = BlockLog{};
  }
  FinishNumerics(res, PrecisionName<T>());
  if (rec.tracing()) res.trace.Finish(res.counters);
  return res;
}

// [SECTION] FlashAttention-1 order ---------------------------------------------------------------

template <typename T>
AttentionResult Flash1Impl(const AttentionProblem& p, const RunOptions& opt) {
  const I64 n_q = p.n_q(), n_k = p.n_k(), d = p.d(), d_v = p.d_v();
  const I64 B_r = opt.tiles.B_r, B_c = opt.tiles.B_c;
  const I64 T_r = CeilDiv(n_q, B_r), T_c = CeilDiv(n_k, B_c);
  const I64 b = sizeof(T);
  // Given logits: K_j is not loaded and the S_ij tile is read in place of Q_i (dq = 0).
  const bool logits = p.logits_given;
  const I64 dq = logits ? 0 : d;
  AttentionResult res;
  detail::StartRun<T>(res, p, opt, Algorithm::kFlash1, opt.tiles);
  Recorder rec(res.counters, opt.record_trace ? &res.trace : nullptr);
  Mat<T> Qi, Kj, Vj;  // tile buffers, filled as the tiles are loaded (no whole-input copies)
  const T scale = static_cast<T>(p.EffectiveScale());
  const MaskGeometry mg(p.mask, n_q, n_k);
  const int stride = opt.record_trace ? res.trace.state_snapshot_stride() : 0;

  // line 2: O = 0, l = 0, m = −∞ initialised in HBM
  Mat<T> O = Mat<T>::Zero(n_q, d_v);
  Vec<T> l_hbm = Vec<T>::Zero(n_q), m_hbm = Vec<T>::Constant(n_q, kNegInf<T>);
  rec.Emit(EventKind::kInitialise, Tensor::kO, -1, -1, 0, 0);
  rec.Emit(EventKind::kWrite, Tensor::kO, -1, -1, n_q * d_v, 0);
  rec.Emit(EventKind::kWrite, Tensor::kl, -1, -1, n_q, 0);
  rec.Emit(EventKind::kWrite, Tensor::km, -1, -1, n_q, 0);

  std::vector<std::int32_t> steps(static_cast<std::size_t>(T_r), 0);
  CheckInputRange<T>(p, res.numerics);
  detail::NumericsSink sink{&res.numerics, -1, -1, PrecisionName<T>()};
  std::vector<std::uint8_t> reported(static_cast<std::size_t>(n_q), 0);
  RowState<T> st;
  Mat<T> S, PV;
  for (I64 j = 0; j < T_c; ++j) {                          // line 5: for 1 ≤ j ≤ T_c
    const I64 c0 = j * B_c, c = std::min(B_c, n_k - c0);
    const std::int32_t jj = static_cast<std::int32_t>(j);
    const I64 kv = c * (dq + d_v) * b;
    const bool column_skipped = n_q == 0 || mg.TileFullyMasked(0, n_q, c0, c0 + c);
    if (!column_skipped) {                                 // line 6: load K_j, V_j (unless no tile needs them)
      Kj = p.K.middleRows(c0, c).template cast<T>();
      Vj = p.V.middleRows(c0, c).template cast<T>();
      if (!logits) rec.Emit(EventKind::kRead, Tensor::kK, -1, jj, c * d, c * d * b);
      rec.Emit(EventKind::kRead, Tensor::kV, -1, jj, c * d_v, kv);
    }
    for (I64 i = 0; i < T_r; ++i) {                        // line 7: for 1 ≤ i ≤ T_r
      const I64 r0 = i * B_r, r = std::min(B_r, n_q - r0);
      const std::int32_t ii = static_cast<std::int32_t>(i);
      std::int32_t& step = steps[static_cast<std::size_t>(i)];
      if (column_skipped || mg.TileFullyMasked(r0, r0 + r, c0, c0 + c)) {
        rec.Emit(EventKind::kSkipTile, Tensor::kCount, ii, jj, 0, column_skipped ? 0 : kv, step);
        continue;
      }
      // line 8: load Q_i (given logits: the S_ij tile instead), O_i, l_i, m_i
      const I64 q_or_s = logits ? r * c : r * d;   // elements of Q_i or of S_ij
      const I64 blk = kv + (q_or_s + r * (d_v + 2)) * b;
      Qi = p.Q.middleRows(r0, r).template cast<T>();
      if (logits)
        rec.Emit(EventKind::kRead, Tensor::kS, ii, jj, r * c, kv + q_or_s * b, step);
      else
        rec.Emit(EventKind::kRead, Tensor::kQ, ii, jj, r * d, kv + q_or_s * b, step);
      rec.Emit(EventKind::kRead, Tensor::kO, ii, jj, r * d_v, kv + (q_or_s + r * d_v) * b, step);
      rec.Emit(EventKind::kRead, Tensor::kl, ii, jj, r, kv + (q_or_s + r * (d_v + 1)) * b, step);
      rec.Emit(EventKind::kRead, Tensor::km, ii, jj, r, blk, step);
      st.Reset(r, d_v);
      st.acc = O.middleRows(r0, r);
      st.l = l_hbm.segment(r0, r);
      st.m = m_hbm.segment(r0, r);
      sink.i = ii, sink.j = jj;
      const bool masked = detail::ComputeScores(S, Qi, Kj, scale, mg, r0, c0, sink);  // line 9
      const I64 tile_sram = blk + (logits ? 0 : r * c * b);   // + S_ij (already counted when read)
      rec.Emit(EventKind::kComputeS, Tensor::kS, ii, jj, 0, tile_sram, step, 2 * r * c * dq);
      detail::MergeTileFlash1(st, S, Vj, PV, masked);                                // lines 10–11
      detail::CheckAccumulator(st.l, st.acc, r0, reported, "O", sink);
      ++step;
      rec.Emit(EventKind::kUpdateMLU, Tensor::kCount, ii, jj, 0, tile_sram, step, 2 * r * c * d_v,
               r * c + 2 * r);
      O.middleRows(r0, r) = st.acc;                                                           // line 12
      l_hbm.segment(r0, r) = st.l;                                                            // line 13
      m_hbm.segment(r0, r) = st.m;
      rec.Emit(EventKind::kWrite, Tensor::kO, ii, jj, r * d_v, blk, step);
      rec.Emit(EventKind::kWrite, Tensor::kl, ii, jj, r, blk, step);
      rec.Emit(EventKind::kWrite, Tensor::km, ii, jj, r, blk, step);
      if (stride > 0 && step % stride == 0) res.trace.AddStateSnapshot(ii, detail::Snapshot(st, jj, step));
    }
  }
  Vec<T> L(n_q);
  for (I64 r = 0; r < n_q; ++r) L[r] = l_hbm[r] == T(0) ? kNegInf<T> : m_hbm[r] + std::log(l_hbm[r]);
  WidenOutputs(res, O, L);
  res.row_fully_masked = FullyMaskedRows(p, mg);
  FinishNumerics(res, PrecisionName<T>());
  if (rec.tracing()) res.trace.Finish(res.counters);
  return res;
}

}  // namespace

// [SECTION] Entry points ------------------------------------------------------------------------

AttentionResult RunReference(const AttentionProblem& p, const RunOptions& opt) {
  Validate(p);
  return opt.precision == Precision::kDouble ? ReferenceImpl<double>(p, opt) : ReferenceImpl<float>(p, opt);
}

AttentionResult RunFlash2(const AttentionProblem& p, const RunOptions& opt) {
  Validate(p);
  Validate(opt.tiles);
  return opt.precision == Precision::kDouble ? Flash2Impl<double>(p, opt) : Flash2Impl<float>(p, opt);
}

AttentionResult RunFlash1(const AttentionProblem& p, const RunOptions& opt) {
  Validate(p);
  Validate(opt.tiles);
  if (opt.merge != MergeVariant::kCorrect)
    throw ValidationError("merge: wrong-merge variants are defined for the FlashAttention-2 order only");
  return opt.precision == Precision::kDouble ? Flash1Impl<double>(p, opt) : Flash1Impl<float>(p, opt);
}

}  // namespace bw::engine
