// Ring attention over simulated devices; see ring.h.
#include "engine/ring.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/exact_softmax.h"

namespace bw::engine {

const char* ToString(RingOrder o) { return o == RingOrder::kContiguous ? "contiguous" : "zigzag"; }

std::int64_t RingStep::MaxPairs() const {
  std::int64_t m = 0;
  for (const auto& d : devices) m = std::max(m, d.pairs);
  return m;
}

std::int64_t RingRun::PairsOf(int device) const {
  std::int64_t sum = 0;
  for (const auto& s : steps) sum += s.devices[device].pairs;
  return sum;
}

std::vector<std::vector<int>> RingShards(int n, int devices, RingOrder order) {
  if (devices < 1 || n < 0) return {};
  const int chunks = order == RingOrder::kZigZag ? 2 * devices : devices;
  std::vector<int> start(chunks + 1, 0);
  for (int c = 0; c < chunks; ++c) start[c + 1] = start[c] + n / chunks + (c < n % chunks ? 1 : 0);
  std::vector<std::vector<int>> shards(devices);
  auto add = [&](int p, int chunk) {
    for (int r = start[chunk]; r < start[chunk + 1]; ++r) shards[p].push_back(r);
  };
  for (int p = 0; p < devices; ++p) {
    add(p, p);
    if (order == RingOrder::kZigZag) add(p, chunks - 1 - p);
  }
  return shards;
}

namespace {

void ValidateRing(const RingProblem& p) {
  Validate(p.attention);
  const auto n = p.attention.n_q();
  if (p.attention.n_k() != n)
    throw ValidationError("attention: ring attention shards one sequence: N_q = " + std::to_string(n) +
                          " but N_k = " + std::to_string(p.attention.n_k()));
  const MaskKind mk = p.attention.mask.kind;
  if (mk != MaskKind::kNone && mk != MaskKind::kCausal)
    throw ValidationError(std::string("attention.mask: ring attention takes none or causal, not ") + ToString(mk));
  if (p.devices < 1) throw ValidationError("devices: needs at least one device");
  const int chunks = p.order == RingOrder::kZigZag ? 2 * p.devices : p.devices;
  if (n < chunks)
    throw ValidationError("devices: " + std::to_string(n) + " rows cannot fill " + std::to_string(chunks) +
                          " chunks (" + ToString(p.order) + " order over " + std::to_string(p.devices) + " devices)");
  if (p.element_bytes < 1) throw ValidationError("element_bytes: must be at least 1");
  if (p.exact_weights.has_value() != p.exact_values.has_value())
    throw ValidationError("exact_weights: exact weights and exact values come together");
  if (p.exact_weights) {
    if (static_cast<std::int64_t>(p.exact_weights->size()) != n || static_cast<std::int64_t>(p.exact_values->size()) != n)
      throw ValidationError("exact_weights: needs " + std::to_string(n) + " rows of weights and of values");
    for (std::int64_t r = 0; r < n; ++r) {
      if (static_cast<std::int64_t>((*p.exact_weights)[r].size()) != n)
        throw ValidationError("exact_weights[" + std::to_string(r) + "]: needs " + std::to_string(n) + " weights");
      if (static_cast<std::int64_t>((*p.exact_values)[r].size()) != p.attention.d_v())
        throw ValidationError("exact_values[" + std::to_string(r) + "]: needs " + std::to_string(p.attention.d_v()) +
                              " components");
      for (const Rational& w : (*p.exact_weights)[r])
        if (w < 0) throw ValidationError("exact_weights[" + std::to_string(r) + "]: a weight is negative");
    }
  }
}

// One row's contribution from the keys of a shard: m_b, l_b = Σ e^{s−m_b}, u_b = Σ e^{s−m_b} v over
// the keys the mask allows (FA-2 Algorithm 1 lines 8–9 for one row).
SoftmaxState ShardState(const RingProblem& p, int r, const std::vector<int>& keys, std::int64_t* pairs) {
  const AttentionProblem& a = p.attention;
  const double scale = a.EffectiveScale();
  SoftmaxState st = SoftmaxState::Empty(a.d_v());
  std::vector<double> s;
  std::vector<int> kept;
  for (int c : keys) {
    if (!a.mask.Allows(r, c, a.n_q(), a.n_k())) continue;
    ++*pairs;
    const double x = scale * a.Q.row(r).dot(a.K.row(c));
    if (x == -std::numeric_limits<double>::infinity()) continue;  // weight 0: e^{−∞} adds nothing
    s.push_back(x);
    kept.push_back(c);
  }
  if (kept.empty()) return st;
  st.m = *std::max_element(s.begin(), s.end());
  for (size_t i = 0; i < kept.size(); ++i) {
    const double w = std::exp(s[i] - st.m);
    st.l += w;
    st.u += w * a.V.row(kept[i]).transpose();
  }
  return st;
}

ExactState ExactShardState(const RingProblem& p, int r, const std::vector<int>& keys) {
  const AttentionProblem& a = p.attention;
  const auto& w = (*p.exact_weights)[r];
  ExactState st = ExactEmpty(static_cast<size_t>(a.d_v()));
  for (int c : keys)
    if (a.mask.Allows(r, c, a.n_q(), a.n_k())) st.M = std::max(st.M, w[c]);
  if (st.M == 0) return st;
  for (int c : keys) {
    if (!a.mask.Allows(r, c, a.n_q(), a.n_k()) || w[c] == 0) continue;
    const Rational scaled = w[c] / st.M;
    st.l += scaled;
    for (size_t k = 0; k < st.u.size(); ++k) st.u[k] += scaled * (*p.exact_values)[c][k];
  }
  return st;
}

}  // namespace

RingRun RunRing(const RingProblem& p) {
  ValidateRing(p);
  const AttentionProblem& a = p.attention;
  const int n = static_cast<int>(a.n_q());
  const int P = p.devices;
  const bool exact = p.exact_weights.has_value();

  RingRun run;
  run.problem = p;
  run.shard_rows = RingShards(n, P, p.order);
  const std::int64_t key_width = p.key_width >= 0 ? p.key_width : a.logits_given ? 0 : a.d();
  // Every shard has ⌊N/chunks⌋ or ⌈N/chunks⌉ rows per chunk; the link carries the shard in hand.
  auto shard_bytes = [&](int shard) {
    return static_cast<std::int64_t>(run.shard_rows[shard].size()) * (key_width + a.d_v()) * p.element_bytes;
  };
  run.bytes_per_link_per_step = shard_bytes(0);

  std::vector<std::vector<SoftmaxState>> state(P);
  std::vector<std::vector<ExactState>> exact_state(P);
  for (int d = 0; d < P; ++d) {
    state[d].assign(run.shard_rows[d].size(), SoftmaxState::Empty(a.d_v()));
    if (exact) exact_state[d].assign(run.shard_rows[d].size(), ExactEmpty(static_cast<size_t>(a.d_v())));
  }
  std::int64_t all_pairs = 0, critical_pairs = 0;
  for (int t = 0; t < P; ++t) {
    RingStep step;
    step.step = t;
    for (int d = 0; d < P; ++d) {
      RingDeviceStep ds;
      ds.device = d;
      ds.shard = ((d - t) % P + P) % P;
      const auto& keys = run.shard_rows[ds.shard];
      for (size_t i = 0; i < run.shard_rows[d].size(); ++i) {
        const int r = run.shard_rows[d][i];
        state[d][i] = Merge(state[d][i], ShardState(p, r, keys, &ds.pairs));
        if (exact) exact_state[d][i] = ExactMerge(exact_state[d][i], ExactShardState(p, r, keys));
      }
      ds.idle = ds.pairs == 0;
      ds.bytes_sent = t + 1 < P ? shard_bytes(ds.shard) : 0;
      run.total_link_bytes += ds.bytes_sent;
      run.idle_device_steps += ds.idle ? 1 : 0;
      all_pairs += ds.pairs;
      ds.after = state[d];
      if (exact) ds.exact_after = exact_state[d];
      step.devices.push_back(std::move(ds));
    }
    critical_pairs += step.MaxPairs();
    run.steps.push_back(std::move(step));
  }
  run.imbalance = all_pairs > 0 ? static_cast<double>(critical_pairs) * P / static_cast<double>(all_pairs) : 1.0;

  run.output = AttentionMatrix::Zero(n, a.d_v());
  if (exact) run.exact.emplace();
  if (exact) run.exact->output.assign(n, {});
  for (int d = 0; d < P; ++d)
    for (size_t i = 0; i < run.shard_rows[d].size(); ++i) {
      const int r = run.shard_rows[d][i];
      run.output.row(r) = Output(state[d][i]).transpose();
      if (exact) run.exact->output[r] = ExactOutput(exact_state[d][i]);
    }
  const AttentionResult ref = RunReference(a);
  run.reference_output = ref.O;
  run.row_masked = ref.row_fully_masked;
  for (int r = 0; r < n; ++r)
    for (Eigen::Index c = 0; c < a.d_v(); ++c) {
      const double e = std::abs(run.output(r, c) - ref.O(r, c));
      run.max_abs_error = std::isnan(e) ? std::numeric_limits<double>::infinity() : std::max(run.max_abs_error, e);
    }
  if (exact) {
    std::vector<int> all(n);
    for (int c = 0; c < n; ++c) all[c] = c;
    for (int r = 0; r < n; ++r) run.exact->reference_output.push_back(ExactOutput(ExactShardState(p, r, all)));
  }
  return run;
}

}  // namespace bw::engine
