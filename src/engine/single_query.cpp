// Blocked single-query attention with a step trace and exact rationals; see single_query.h.
#include "engine/single_query.h"

#include "engine/exact_softmax.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace bw::engine {

const char* ToString(SoftmaxMode mode) { return mode == SoftmaxMode::kRaw ? "raw" : "stable"; }
const char* ToString(ScoreKind kind) { return kind == ScoreKind::kWeights ? "weights" : "logits"; }

std::optional<ProblemError> Validate(const SingleQueryProblem& p) {
  const int n = static_cast<int>(p.scores.size());
  if (n == 0) return ProblemError{"scores", -1, "needs at least one position"};
  if (p.values.rows() != n)
    return ProblemError{"values", -1, "has " + std::to_string(p.values.rows()) + " rows but there are " +
                                          std::to_string(n) + " " + ToString(p.score_kind)};
  if (p.values.cols() < 1) return ProblemError{"values", -1, "each value needs at least one component"};
  for (int i = 0; i < n; ++i) {
    const double s = p.scores[i];
    if (std::isnan(s)) return ProblemError{"scores", i, "is NaN"};
    if (p.score_kind == ScoreKind::kWeights) {
      if (std::isinf(s)) return ProblemError{"scores", i, "weight is infinite"};
      if (s < 0) return ProblemError{"scores", i, "weight is negative (weights are e^s > 0; use 0 to mask)"};
    } else if (s == std::numeric_limits<double>::infinity()) {
      return ProblemError{"scores", i, "logit is +infinity"};
    }
    for (Eigen::Index c = 0; c < p.values.cols(); ++c)
      if (!std::isfinite(p.values(i, c))) return ProblemError{"values", i, "is not a finite number"};
  }
  if (p.block_sizes.empty()) return ProblemError{"block_sizes", -1, "needs at least one block"};
  long sum = 0;
  for (size_t j = 0; j < p.block_sizes.size(); ++j) {
    if (p.block_sizes[j] < 1)
      return ProblemError{"block_sizes", static_cast<int>(j), "block size must be at least 1"};
    sum += p.block_sizes[j];
  }
  if (sum != n)
    return ProblemError{"block_sizes", -1, "sizes sum to " + std::to_string(sum) + " but there are " +
                                               std::to_string(n) + " positions"};
  if (p.rescale_threshold) {
    if (p.mode != SoftmaxMode::kStable)
      return ProblemError{"rescale_threshold", -1, "needs the stable mode (raw mode has no running max to keep)"};
    if (!std::isfinite(*p.rescale_threshold) || *p.rescale_threshold < 0)
      return ProblemError{"rescale_threshold", -1, "must be a finite number >= 0 (natural-log units)"};
  }
  if (p.exact_weights && static_cast<int>(p.exact_weights->size()) != n)
    return ProblemError{"scores", -1, "exact copy has the wrong length"};
  return std::nullopt;
}

namespace {

bool Masked(const SingleQueryProblem& p, int i) {
  return p.score_kind == ScoreKind::kWeights ? p.scores[i] == 0.0
                                             : p.scores[i] == -std::numeric_limits<double>::infinity();
}

// Block-local state over positions [b, e): m_b, l_b = Σ e^{s−m_b}, u_b = Σ e^{s−m_b} v, in `mode`.
// With a report, names every e^s that overflows, a block whose weights all underflow although it
// holds an unmasked position, and l_b or u_b that overflow or turn NaN (block j, 0-based).
SoftmaxState LocalState(const SingleQueryProblem& p, int b, int e, SoftmaxMode mode, NumericsReport* report = nullptr,
                        int j = -1) {
  SoftmaxState st = SoftmaxState::Empty(p.values.cols());
  double s_max = -std::numeric_limits<double>::infinity();
  bool any = false;
  for (int i = b; i < e; ++i) {
    if (Masked(p, i)) continue;
    any = true;
    const double s = p.score_kind == ScoreKind::kWeights ? std::log(p.scores[i]) : p.scores[i];
    s_max = std::max(s_max, s);
  }
  if (!any) return st;
  st.m = mode == SoftmaxMode::kStable ? s_max : 0.0;
  const char* w_name = p.score_kind == ScoreKind::kWeights ? "weights" : "e^s";
  bool exp_overflowed = false, product_overflowed = false;
  for (int i = b; i < e; ++i) {
    if (Masked(p, i)) continue;
    // Weights in raw mode are used as given (no log/exp round trip), so 2,1,4 stay exact doubles.
    double w;
    if (p.score_kind == ScoreKind::kWeights)
      w = mode == SoftmaxMode::kRaw ? p.scores[i] : p.scores[i] / std::exp(st.m);
    else
      w = std::exp(p.scores[i] - st.m);
    if (report && std::isinf(w) && (exp_overflowed = true))
      report->Add({NumericsKind::kExpOverflow, w_name, -1, i, -1, j, p.scores[i], "double"});
    st.l += w;
    const Eigen::VectorXd term = w * p.values.row(i).transpose();
    // A term that is ±∞ from finite factors: the product overflowed, not the sum (issue 31: weights
    // 1e308 and values 3 were named an accumulator overflow). The first one is named.
    if (report && !product_overflowed && std::isfinite(w))
      for (Eigen::Index c = 0; c < term.size(); ++c)
        if (std::isinf(term[c]) && std::isfinite(p.values(i, c))) {
          report->Add({NumericsKind::kProductOverflow, "w\u00b7v", -1, i, -1, j, term[c], "double"});
          product_overflowed = true;
          break;
        }
    st.u += term;
  }
  if (report) {
    if (st.l == 0.0)
      report->Add({NumericsKind::kWeightsUnderflow, "l_b", -1, -1, -1, j, s_max, "double"});
    else if (std::isinf(st.l) && !exp_overflowed)
      report->Add({NumericsKind::kAccumulatorOverflow, "l_b", -1, -1, -1, j, st.l, "double"});
    for (Eigen::Index c = 0; c < st.u.size(); ++c) {
      if (std::isnan(st.u[c])) {
        report->Add({NumericsKind::kNaN, "u_b", -1, c, -1, j, st.u[c], "double"});
        break;
      }
      if (std::isinf(st.u[c]) && std::isfinite(st.l) && !product_overflowed) {
        report->Add({NumericsKind::kAccumulatorOverflow, "u_b", -1, c, -1, j, st.u[c], "double"});
        break;
      }
    }
  }
  return st;
}

bool AllMasked(const SingleQueryProblem& p, int b, int e) {
  for (int i = b; i < e; ++i)
    if (!Masked(p, i)) return false;
  return true;
}

// After merging block j: l or u that became non-finite from finite parts.
void CheckMerge(const QueryBlockStep& step, NumericsReport& report, int j) {
  const bool parts_finite = std::isfinite(step.before.l) && std::isfinite(step.local.l);
  if (parts_finite && std::isinf(step.after.l))
    report.Add({NumericsKind::kAccumulatorOverflow, "l", -1, -1, -1, j, step.after.l, "double"});
  for (Eigen::Index c = 0; c < step.after.u.size(); ++c) {
    const bool finite_parts = std::isfinite(step.before.u[c]) && std::isfinite(step.local.u[c]);
    if (finite_parts && std::isnan(step.after.u[c])) {
      report.Add({NumericsKind::kNaN, "u", -1, c, -1, j, step.after.u[c], "double"});
      break;
    }
    if (finite_parts && std::isinf(step.after.u[c])) {
      report.Add({NumericsKind::kAccumulatorOverflow, "u", -1, c, -1, j, step.after.u[c], "double"});
      break;
    }
  }
}

ExactState ExactLocal(const SingleQueryProblem& p, int b, int e) {
  const auto& w = *p.exact_weights;
  const auto& v = *p.exact_values;
  ExactState st = ExactEmpty(p.values.cols());
  Rational w_max = 0;
  for (int i = b; i < e; ++i) w_max = std::max(w_max, w[i]);
  if (w_max == 0) return st;
  st.M = p.mode == SoftmaxMode::kStable ? w_max : Rational(1);
  for (int i = b; i < e; ++i) {
    if (w[i] == 0) continue;
    const Rational scaled = w[i] / st.M;
    st.l += scaled;
    for (size_t c = 0; c < st.u.size(); ++c) st.u[c] += scaled * v[i][c];
  }
  return st;
}

}  // namespace

ExactState ExactEmpty(std::size_t d_v) { return {0, 0, std::vector<Rational>(d_v, Rational(0))}; }

namespace {
Rational ExactFactor(const Rational& M, const Rational& M_new) { return M == 0 ? Rational(0) : Rational(M / M_new); }
}  // namespace

ExactState ExactMerge(const ExactState& a, const ExactState& b, Rational* alpha, Rational* beta, bool keep_reference) {
  ExactState out;
  out.M = keep_reference ? a.M : std::max(a.M, b.M);
  const Rational f_a = ExactFactor(a.M, out.M), f_b = ExactFactor(b.M, out.M);
  out.l = f_a * a.l + f_b * b.l;
  out.u.resize(a.u.size());
  for (size_t c = 0; c < a.u.size(); ++c) out.u[c] = f_a * a.u[c] + f_b * b.u[c];
  if (alpha) *alpha = f_a;
  if (beta) *beta = f_b;
  return out;
}

std::vector<Rational> ExactOutput(const ExactState& s) {
  std::vector<Rational> o(s.u.size(), Rational(0));
  if (s.l == 0) return o;
  for (size_t c = 0; c < o.size(); ++c) o[c] = s.u[c] / s.l;
  return o;
}

SingleQueryRun RunSingleQuery(const SingleQueryProblem& p) {
  if (auto err = Validate(p)) {
    std::string where = err->field + (err->index >= 0 ? "[" + std::to_string(err->index) + "]" : "");
    throw std::invalid_argument(where + ": " + err->reason);
  }
  const bool exact = p.exact_weights.has_value() && p.exact_values.has_value() &&
                     p.score_kind == ScoreKind::kWeights;
  const Eigen::Index d_v = p.values.cols();

  SingleQueryRun run;
  run.problem = p;
  run.events.push_back({QueryEventKind::kStart, 0, "start"});

  SoftmaxState state = InitialState(p);
  ExactState exact_state = ExactEmpty(d_v);
  if (p.mode == SoftmaxMode::kRaw) exact_state.M = 1;  // m = ln 1 = 0 (InitialState)
  Eigen::VectorXd avg_sum = Eigen::VectorXd::Zero(d_v);
  std::vector<Rational> exact_avg_sum(d_v, Rational(0));
  int nonempty_blocks = 0;

  int begin = 0;
  for (size_t j = 0; j < p.block_sizes.size(); ++j) {
    QueryBlockStep step;
    step.block = static_cast<int>(j) + 1;
    step.begin = begin;
    step.end = begin + p.block_sizes[j];
    step.all_masked = AllMasked(p, step.begin, step.end);
    step.local = LocalState(p, step.begin, step.end, p.mode, &run.numerics, static_cast<int>(j));
    step.before = state;
    step.after = p.rescale_threshold ? MergeConditional(state, step.local, *p.rescale_threshold, &step.factors, &step.rescale_skipped)
                                     : Merge(state, step.local, &step.factors);
    run.rescales_skipped += step.rescale_skipped ? 1 : 0;
    CheckMerge(step, run.numerics, static_cast<int>(j));
    step.local_output = Output(step.local);
    step.output_so_far = Output(step.after);
    if (!step.local.IsEmpty()) {
      avg_sum += step.local_output;
      ++nonempty_blocks;
    }
    if (exact) {
      QueryBlockStep::Exact ex;
      ex.local = ExactLocal(p, step.begin, step.end);
      ex.before = exact_state;
      // (The exact state keeps the same reference where the double run kept it: one decision.)
      ex.after = ExactMerge(exact_state, ex.local, &ex.alpha, &ex.beta, step.rescale_skipped);
      ex.local_output = ExactOutput(ex.local);
      ex.output_so_far = ExactOutput(ex.after);
      if (!ex.local.IsEmpty())
        for (Eigen::Index c = 0; c < d_v; ++c) exact_avg_sum[c] += ex.local_output[c];
      exact_state = ex.after;
      step.exact = std::move(ex);
    }
    state = step.after;
    run.events.push_back({QueryEventKind::kLoadBlock, step.block, "load:" + std::to_string(step.block)});
    run.events.push_back({QueryEventKind::kUpdate, step.block, "update:" + std::to_string(step.block)});
    run.blocks.push_back(std::move(step));
    begin += p.block_sizes[j];
  }
  run.events.push_back({QueryEventKind::kWriteOutput, 0, "write"});

  run.final_state = state;
  run.output = Output(state);
  run.all_masked = AllMasked(p, 0, static_cast<int>(p.scores.size()));
  for (Eigen::Index c = 0; c < run.output.size(); ++c)
    if (std::isnan(run.output[c]) && run.numerics.Count(NumericsKind::kNaN) == 0 &&
        run.numerics.Count(NumericsKind::kExpOverflow) == 0) {
      run.numerics.Add({NumericsKind::kNaN, "o", -1, c, -1, -1, run.output[c], "double"});  // u/l = ∞/∞
      break;
    }
  run.average_of_block_outputs =
      nonempty_blocks ? Eigen::VectorXd(avg_sum / nonempty_blocks) : Eigen::VectorXd::Zero(d_v);
  // Reference: one pass over all positions, no blocks, max-shifted over the whole row whatever the
  // mode (the true value the raw mode misses when it overflows or underflows).
  run.reference_output = Output(LocalState(p, 0, static_cast<int>(p.scores.size()), SoftmaxMode::kStable));

  if (exact) {
    SingleQueryRun::Exact ex;
    ex.output = ExactOutput(exact_state);
    ex.reference_output = ExactOutput(ExactLocal(p, 0, static_cast<int>(p.scores.size())));
    ex.average_of_block_outputs.assign(d_v, Rational(0));
    if (nonempty_blocks)
      for (Eigen::Index c = 0; c < d_v; ++c) ex.average_of_block_outputs[c] = exact_avg_sum[c] / nonempty_blocks;
    run.exact = std::move(ex);
  }
  return run;
}

int SingleQueryRun::FindEvent(const std::string& label) const {
  // The layout RunSingleQuery writes (start, load:1, update:1, …, write) puts "load:j" at 2j − 1
  // and "update:j" at 2j: checked there first, so a caller walking every block stays linear.
  const auto colon = label.find(':');
  if (colon != std::string::npos && label.size() - colon - 1 <= 9) {
    int j = 0;
    for (size_t i = colon + 1; i < label.size() && label[i] >= '0' && label[i] <= '9'; ++i) j = j * 10 + (label[i] - '0');
    const size_t guess = label.compare(0, colon, "update") == 0 ? 2 * static_cast<size_t>(j) : 2 * static_cast<size_t>(j) - 1;
    if (j > 0 && guess < events.size() && events[guess].label == label) return static_cast<int>(guess);
  }
  for (size_t e = 0; e < events.size(); ++e)
    if (events[e].label == label) return static_cast<int>(e);
  return -1;
}

int SingleQueryRun::BlocksMergedAt(int e) const {
  // Events are in block order, so the event itself says how many blocks are merged once it has
  // happened (O(1): the app and the CLI ask this once per block).
  if (events.empty() || e < 0) return 0;
  const auto& ev = events[std::min(static_cast<size_t>(e), events.size() - 1)];
  switch (ev.kind) {
    case QueryEventKind::kStart: return 0;
    case QueryEventKind::kLoadBlock: return ev.block - 1;
    case QueryEventKind::kUpdate: return ev.block;
    case QueryEventKind::kWriteOutput: return BlockCount();
  }
  return 0;
}

int SingleQueryRun::BlockInSramAt(int e) const {
  if (e < 0 || e >= static_cast<int>(events.size())) return 0;
  const auto& ev = events[e];
  return (ev.kind == QueryEventKind::kLoadBlock || ev.kind == QueryEventKind::kUpdate) ? ev.block : 0;
}

SoftmaxState SingleQueryRun::StateAt(int e) const {
  const int merged = BlocksMergedAt(e);
  if (merged == 0) return InitialState(problem);
  return blocks[merged - 1].after;
}

SoftmaxState InitialState(const SingleQueryProblem& p) {
  SoftmaxState s = SoftmaxState::Empty(p.values.cols());
  if (p.mode == SoftmaxMode::kRaw) s.m = 0;
  return s;
}

std::string ToFractionString(const Rational& q) {
  return q.str();  // canonical: "160/7", "40", "-3/2"
}

}  // namespace bw::engine
