// Split-KV decoding with a combine step, the wrong combines, paged reads and counters; see split_kv.h.
#include "engine/split_kv.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "engine/exact_softmax.h"

namespace bw::engine {

const char* ToString(CombineVariant v) {
  switch (v) {
    case CombineVariant::kCorrect: return "correct";
    case CombineVariant::kMeanOfSplitOutputs: return "mean_of_split_outputs";
    case CombineVariant::kNoRescale: return "no_rescale";
    case CombineVariant::kMaxOnly: return "max_only";
  }
  return "?";
}

SplitKvCounters& SplitKvCounters::operator+=(const SplitKvCounters& o) {
  q_reads += o.q_reads;
  k_reads += o.k_reads;
  v_reads += o.v_reads;
  table_reads += o.table_reads;
  partial_o_writes += o.partial_o_writes;
  lse_writes += o.lse_writes;
  partial_o_reads += o.partial_o_reads;
  lse_reads += o.lse_reads;
  o_writes += o.o_writes;
  return *this;
}

std::int64_t SplitKvCounters::Bytes(int kv_bytes) const {
  return (q_reads + k_reads + v_reads + o_writes) * kv_bytes +
         (table_reads + partial_o_writes + lse_writes + partial_o_reads + lse_reads) * 4;
}

namespace {

[[noreturn]] void Refuse(const std::string& field, int index, const std::string& reason) {
  throw std::invalid_argument(field + (index >= 0 ? "[" + std::to_string(index) + "]" : "") + ": " + reason);
}

std::optional<ProblemError> CheckSplits(const SplitKvProblem& p) {
  if (auto err = Validate(p.query)) return err;
  const int tiles = static_cast<int>(p.query.block_sizes.size());
  if (p.split_tiles.empty()) return ProblemError{"splits", -1, "needs at least one split"};
  long sum = 0;
  for (size_t s = 0; s < p.split_tiles.size(); ++s) {
    if (p.split_tiles[s] < 1) return ProblemError{"splits", static_cast<int>(s), "a split needs at least one tile"};
    sum += p.split_tiles[s];
  }
  if (sum != tiles)
    return ProblemError{"splits", -1, "tiles per split sum to " + std::to_string(sum) + " but the cache has " +
                             std::to_string(tiles) + " tiles"};
  if (p.d < 0) return ProblemError{"d", -1, "key width is negative"};
  if (!p.paged) return std::nullopt;
  const PagedCache& pc = *p.paged;
  if (pc.page_size < 1) return ProblemError{"paged.page_size", -1, "must be at least 1"};
  const int n = static_cast<int>(p.query.scores.size());
  const int pages = (n + pc.page_size - 1) / pc.page_size;
  if (static_cast<int>(pc.block_table.size()) != pages)
    return ProblemError{"paged.block_table", -1, "has " + std::to_string(pc.block_table.size()) + " entries but " +
                                        std::to_string(n) + " keys in pages of " + std::to_string(pc.page_size) +
                                        " need " + std::to_string(pages)};
  std::vector<char> used(static_cast<size_t>(std::max(pc.physical_pages, 0)), 0);
  for (int q = 0; q < pages; ++q) {
    const int phys = pc.block_table[q];
    if (phys < 0 || phys >= pc.physical_pages)
      return ProblemError{"paged.block_table", q, "physical page " + std::to_string(phys) + " is outside the pool of " +
                                         std::to_string(pc.physical_pages) + " pages"};
    if (used[phys]) return ProblemError{"paged.block_table", q, "physical page " + std::to_string(phys) + " is used twice"};
    used[phys] = 1;
  }
  return std::nullopt;
}

void ValidateSplits(const SplitKvProblem& p) {
  if (auto err = CheckSplits(p)) Refuse(err->field, err->index, err->reason);
}

// The KV cache as HBM holds it: logical position i at physical row PhysicalRow(i). Without a
// block table the two orders are the same.
struct Pool {
  const SplitKvProblem& p;
  std::vector<double> scores;
  Eigen::MatrixXd values;
  std::vector<Rational> exact_weights;
  std::vector<std::vector<Rational>> exact_values;

  int PhysicalRow(int i) const {
    if (!p.paged) return i;
    return p.paged->block_table[i / p.paged->page_size] * p.paged->page_size + i % p.paged->page_size;
  }

  explicit Pool(const SplitKvProblem& problem) : p(problem) {
    const SingleQueryProblem& q = p.query;
    const int n = static_cast<int>(q.scores.size());
    const int rows = p.paged ? p.paged->physical_pages * p.paged->page_size : n;
    // Unused slots hold a masked position, as freed pages hold stale data nobody reads.
    scores.assign(rows, q.score_kind == ScoreKind::kWeights ? 0.0 : -std::numeric_limits<double>::infinity());
    values = Eigen::MatrixXd::Zero(rows, q.values.cols());
    if (q.exact_weights) exact_weights.assign(rows, Rational(0));
    if (q.exact_values) exact_values.assign(rows, std::vector<Rational>(q.values.cols(), Rational(0)));
    for (int i = 0; i < n; ++i) {  // the cache being written, token by token, page by page
      const int r = PhysicalRow(i);
      scores[r] = q.scores[i];
      values.row(r) = q.values.row(i);
      if (q.exact_weights) exact_weights[r] = (*q.exact_weights)[i];
      if (q.exact_values) exact_values[r] = (*q.exact_values)[i];
    }
  }

  // The split's slice [b, e) read through the block table, as a problem of its own.
  SingleQueryProblem Read(int b, int e, std::vector<int> blocks) const {
    const SingleQueryProblem& q = p.query;
    SingleQueryProblem s;
    s.score_kind = q.score_kind;
    s.mode = q.mode;
    s.block_sizes = std::move(blocks);
    s.values.resize(e - b, q.values.cols());
    if (q.exact_weights) s.exact_weights.emplace();
    if (q.exact_values) s.exact_values.emplace();
    for (int i = b; i < e; ++i) {
      const int r = PhysicalRow(i);
      s.scores.push_back(scores[r]);
      s.values.row(i - b) = values.row(r);
      if (q.exact_weights) s.exact_weights->push_back(exact_weights[r]);
      if (q.exact_values) s.exact_values->push_back(exact_values[r]);
    }
    return s;
  }
};

// A split's numerics events renumbered to the whole cache: blocks by first_tile, positions by begin.
void AddShifted(const NumericsReport& from, int first_tile, int begin, NumericsReport& to) {
  for (NumericsEvent e : from.events) {
    if (e.j >= 0) e.j += first_tile;
    if (e.col >= 0 && (e.quantity == "weights" || e.quantity == "e^s" || e.quantity == "w\u00b7v")) e.col += begin;
    to.Add(std::move(e));
  }
  to.dropped += from.dropped;
}

double Lse(const SoftmaxState& s) {
  return s.l > 0 ? s.m + std::log(s.l) : -std::numeric_limits<double>::infinity();
}

void WrongCombines(SplitKvRun& run, bool exact) {
  const Eigen::Index d_v = run.problem.query.values.cols();
  const auto& splits = run.splits;
  double m_max = -std::numeric_limits<double>::infinity();
  for (const auto& s : splits)
    if (!s.state.IsEmpty()) m_max = std::max(m_max, s.state.m);
  for (CombineVariant v : kWrongCombines) {
    WrongCombine w{v, Eigen::VectorXd::Zero(d_v), std::nullopt};
    Eigen::VectorXd num = Eigen::VectorXd::Zero(d_v);
    double den = 0;
    std::vector<Rational> enu(d_v, Rational(0));
    Rational eden = 0;
    for (const auto& s : splits) {
      if (s.state.IsEmpty()) continue;
      // Each variant is Σ c_s · x_s / Σ c_s for its own weight c_s and term x_s.
      switch (v) {
        case CombineVariant::kMeanOfSplitOutputs: num += s.output; den += 1; break;
        case CombineVariant::kNoRescale: num += s.state.u; den += s.state.l; break;
        case CombineVariant::kMaxOnly: {
          const double c = std::exp(s.state.m - m_max);
          num += c * s.output;
          den += c;
          break;
        }
        case CombineVariant::kCorrect: break;
      }
      if (!exact) continue;
      const ExactState& es = *s.exact_state;
      for (Eigen::Index c = 0; c < d_v; ++c) {
        switch (v) {
          case CombineVariant::kMeanOfSplitOutputs: enu[c] += (*s.exact_output)[c]; break;
          case CombineVariant::kNoRescale: enu[c] += es.u[c]; break;
          case CombineVariant::kMaxOnly: enu[c] += es.M * (*s.exact_output)[c]; break;
          case CombineVariant::kCorrect: break;
        }
      }
      eden += v == CombineVariant::kMeanOfSplitOutputs ? Rational(1) : v == CombineVariant::kNoRescale ? es.l : es.M;
    }
    if (den > 0) w.output = num / den;
    if (exact) {
      if (eden != 0)
        for (auto& x : enu) x /= eden;
      w.exact = std::move(enu);
    }
    run.wrong.push_back(std::move(w));
  }
}

}  // namespace

std::optional<ProblemError> Validate(const SplitKvProblem& p) { return CheckSplits(p); }

SplitKvRun RunSplitKv(const SplitKvProblem& p) {
  ValidateSplits(p);
  const SingleQueryProblem& q = p.query;
  const bool exact = q.exact_weights && q.exact_values && q.score_kind == ScoreKind::kWeights;
  const int d_v = static_cast<int>(q.values.cols());
  const int d = p.d > 0 ? p.d : d_v;
  const Pool pool(p);

  SplitKvRun run;
  run.problem = p;
  int tile = 0, begin = 0, longest = 0;
  for (size_t si = 0; si < p.split_tiles.size(); ++si) {
    SplitResult s;
    s.split = static_cast<int>(si) + 1;
    s.first_tile = tile;
    s.tiles = p.split_tiles[si];
    s.begin = begin;
    std::vector<int> blocks(q.block_sizes.begin() + tile, q.block_sizes.begin() + tile + s.tiles);
    for (int b : blocks) begin += b;
    s.end = begin;
    tile += s.tiles;
    longest = std::max(longest, s.tiles);

    s.run = RunSingleQuery(pool.Read(s.begin, s.end, std::move(blocks)));
    s.state = s.run.final_state;
    s.output = s.run.output;
    s.lse = Lse(s.state);
    AddShifted(s.run.numerics, s.first_tile, s.begin, run.numerics);
    if (exact) {
      s.exact_state = s.run.blocks.back().exact->after;
      s.exact_output = s.run.exact->output;
    }
    const int n_s = s.end - s.begin;
    s.counters.q_reads = d;
    s.counters.k_reads = static_cast<std::int64_t>(n_s) * d;
    s.counters.v_reads = static_cast<std::int64_t>(n_s) * d_v;
    if (p.paged) {
      for (int page = s.begin / p.paged->page_size; page * p.paged->page_size < s.end; ++page)
        s.physical_pages.push_back(p.paged->block_table[page]);
      s.counters.table_reads = static_cast<std::int64_t>(s.physical_pages.size());
    }
    s.counters.partial_o_writes = d_v;
    s.counters.lse_writes = 1;
    run.counters += s.counters;
    run.splits.push_back(std::move(s));
  }

  // The combine: split s merged into the running state, in split order.
  SoftmaxState state = InitialState(q);
  ExactState exact_state = ExactEmpty(d_v);
  if (q.mode == SoftmaxMode::kRaw) exact_state.M = 1;
  for (const SplitResult& s : run.splits) {
    CombineStep c;
    c.split = s.split;
    c.before = state;
    c.after = Merge(state, s.state, &c.factors);
    c.output_so_far = Output(c.after);
    if (exact) {
      CombineStep::Exact ex;
      ex.before = exact_state;
      ex.after = ExactMerge(exact_state, *s.exact_state, &ex.alpha, &ex.beta);
      ex.output_so_far = ExactOutput(ex.after);
      exact_state = ex.after;
      c.exact = std::move(ex);
    }
    state = c.after;
    run.combine.push_back(std::move(c));
  }
  run.output = Output(state);
  run.lse = Lse(state);
  SplitKvCounters combine;
  combine.partial_o_reads = static_cast<std::int64_t>(run.splits.size()) * d_v;
  combine.lse_reads = static_cast<std::int64_t>(run.splits.size());
  combine.o_writes = d_v;
  run.counters += combine;

  const int n = static_cast<int>(q.scores.size());
  run.unsplit_counters.q_reads = d;
  run.unsplit_counters.k_reads = static_cast<std::int64_t>(n) * d;
  run.unsplit_counters.v_reads = static_cast<std::int64_t>(n) * d_v;
  run.unsplit_counters.table_reads = p.paged ? static_cast<std::int64_t>(p.paged->block_table.size()) : 0;
  run.unsplit_counters.o_writes = d_v;

  // The true value: the whole cache in one pass, max-shifted (single_query.h's reference).
  const SingleQueryRun whole = RunSingleQuery(q);
  run.reference_output = whole.reference_output;
  WrongCombines(run, exact);
  if (exact) run.exact = SplitKvRun::Exact{ExactOutput(exact_state), whole.exact->reference_output};

  run.events.push_back({DecodeEventKind::kStart, 0, "start"});
  for (int r = 1; r <= longest; ++r) {
    run.events.push_back({DecodeEventKind::kLoad, r, "load:" + std::to_string(r)});
    run.events.push_back({DecodeEventKind::kUpdate, r, "update:" + std::to_string(r)});
  }
  run.events.push_back({DecodeEventKind::kPartial, 0, "partial"});
  for (const SplitResult& s : run.splits)
    run.events.push_back({DecodeEventKind::kCombine, s.split, "combine:" + std::to_string(s.split)});
  run.events.push_back({DecodeEventKind::kWrite, 0, "write"});
  return run;
}

int SplitKvRun::FindEvent(const std::string& label) const {
  for (size_t e = 0; e < events.size(); ++e)
    if (events[e].label == label) return static_cast<int>(e);
  return -1;
}

const WrongCombine& SplitKvRun::Wrong(CombineVariant v) const {
  for (const WrongCombine& w : wrong)
    if (w.variant == v) return w;
  throw std::out_of_range(std::string("no wrong combine ") + ToString(v));
}

int ChooseSplitCount(std::int64_t ctas, int sm_count, int tiles, int max_splits) {
  if (ctas < 1 || sm_count < 1 || tiles < 1) return 1;
  if (static_cast<double>(ctas) >= 0.8 * sm_count) return 1;
  const int limit = std::max(1, std::min({max_splits, sm_count, tiles}));
  // A split count is worth trying only if it changes the tiles per split (⌈tiles / s⌉).
  auto eligible = [&](int s) { return s == 1 || (tiles + s - 1) / s != (tiles + s - 2) / (s - 1); };
  std::vector<double> efficiency(limit + 1, 0.0);
  double best = 0;
  for (int s = 1; s <= limit; ++s) {
    if (!eligible(s)) continue;
    const double waves = static_cast<double>(ctas) * s / sm_count;
    efficiency[s] = waves / std::ceil(waves);
    best = std::max(best, efficiency[s]);
  }
  for (int s = 1; s <= limit; ++s)
    if (eligible(s) && efficiency[s] >= 0.85 * best) return s;
  return 1;
}

double LastWaveOccupancy(std::int64_t ctas, int sm_count) {
  if (ctas < 1 || sm_count < 1) return 0;
  const std::int64_t last = ctas % sm_count == 0 ? sm_count : ctas % sm_count;
  return static_cast<double>(last) / sm_count;
}

std::vector<int> EvenSplit(int tiles, int splits) {
  if (tiles < 1 || splits < 1) return {};
  splits = std::min(splits, tiles);
  std::vector<int> out(splits, tiles / splits);
  for (int s = 0; s < tiles % splits; ++s) ++out[s];
  return out;
}

}  // namespace bw::engine
