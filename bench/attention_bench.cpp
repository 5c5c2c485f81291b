// CPU engine benchmark (Google Benchmark): tiled FlashAttention-2 order vs the materialising
// reference, N = 1024…8192, d = 64, float, no mask. Reports time and peak extra heap memory of each,
// and on the tiled rows the ratios to the reference (time_ratio, extra_mem_ratio). Also measures
// random access into the trace of an N = 4096 run (StateAt / CountersAt), which the app scrubs.
// Extra memory = the heap the call's allocations reach at their peak, minus what it returns
// (O, L, flags), measured by counting every malloc/free of this process (heap_counter.h).
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <random>

#include "engine/attention.h"
#include "heap_counter.h"

// [SECTION] Heap accounting: glibc's malloc family, wrapped -------------------------------------


namespace {

using bw::engine::AttentionMatrix;
using bw::engine::AttentionProblem;
using bw::engine::AttentionResult;
using bw::engine::RunOptions;

constexpr std::int64_t kD = 64;
// SRAM of M = 16384 elements (64 KiB of float): B_c = ⌈M/4d⌉ = 64, B_r = min(64, d) = 64.
constexpr std::int64_t kSramElements = 16384;

AttentionProblem MakeProblem(std::int64_t n) {
  std::mt19937_64 rng(static_cast<unsigned long long>(n));
  std::normal_distribution<double> g(0.0, 1.0);
  AttentionProblem p;
  p.Q.resize(n, kD);
  p.K.resize(n, kD);
  p.V.resize(n, kD);
  for (auto* m : {&p.Q, &p.K, &p.V})
    for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = g(rng);
  return p;
}

RunOptions FloatOptions() {
  RunOptions o;
  o.precision = bw::engine::Precision::kFloat;
  o.tiles = bw::engine::DeriveTileSizes(kSramElements, kD).tiles;
  return o;
}

long long ReturnedBytes(const AttentionResult& r) {
  return static_cast<long long>(r.O.size() * 8 + r.L.size() * 8 + static_cast<Eigen::Index>(r.row_fully_masked.size()));
}

struct Measured {
  double seconds = 0;
  long long extra_bytes = 0;
  long long model_extra_bytes = 0;  // counters: HBM scratch + SRAM peak
};
std::map<std::int64_t, Measured> g_reference;

template <typename Run>
Measured Measure(benchmark::State& state, const AttentionProblem& p, Run run) {
  Measured m;
  std::int64_t iterations = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    const long long before = bw::bench::HeapNow();
    bw::bench::ResetHeapPeak();
    AttentionResult r = run(p);
    const long long extra = bw::bench::HeapPeak() - before - ReturnedBytes(r);
    m.extra_bytes = std::max(m.extra_bytes, extra);
    m.model_extra_bytes = r.counters.hbm_scratch_bytes + r.counters.sram_peak_bytes;
    benchmark::DoNotOptimize(r.O.data());
    ++iterations;
  }
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
              static_cast<double>(std::max<std::int64_t>(1, iterations));
  state.counters["extra_MiB"] = static_cast<double>(m.extra_bytes) / (1 << 20);
  state.counters["model_extra_MiB"] = static_cast<double>(m.model_extra_bytes) / (1 << 20);
  return m;
}

void BM_Reference(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const AttentionProblem p = MakeProblem(n);
  const RunOptions o = FloatOptions();
  g_reference[n] = Measure(state, p, [&](const AttentionProblem& q) { return bw::engine::RunReference(q, o); });
}

void BM_Flash2(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const AttentionProblem p = MakeProblem(n);
  const RunOptions o = FloatOptions();
  const Measured m = Measure(state, p, [&](const AttentionProblem& q) { return bw::engine::RunFlash2(q, o); });
  const auto it = g_reference.find(n);
  if (it != g_reference.end()) {  // the reference row for this N ran first
    state.counters["time_ratio"] = m.seconds / it->second.seconds;
    state.counters["extra_mem_ratio"] = static_cast<double>(m.extra_bytes) / static_cast<double>(it->second.extra_bytes);
    state.counters["model_mem_ratio"] =
        static_cast<double>(m.model_extra_bytes) / static_cast<double>(it->second.model_extra_bytes);
  }
}

// Iterations are fixed: the machine has 2 shared cores; each row stays within a few seconds.
void Sizes(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_Reference)->Arg(1024)->Iterations(5)->Apply(Sizes);
BENCHMARK(BM_Flash2)->Arg(1024)->Iterations(5)->Apply(Sizes);
BENCHMARK(BM_Reference)->Arg(2048)->Iterations(3)->Apply(Sizes);
BENCHMARK(BM_Flash2)->Arg(2048)->Iterations(3)->Apply(Sizes);
BENCHMARK(BM_Reference)->Arg(4096)->Iterations(2)->Apply(Sizes);
BENCHMARK(BM_Flash2)->Arg(4096)->Iterations(2)->Apply(Sizes);
BENCHMARK(BM_Reference)->Arg(8192)->Iterations(1)->Apply(Sizes);
BENCHMARK(BM_Flash2)->Arg(8192)->Iterations(1)->Apply(Sizes);

// [SECTION] Scrubbing the trace of an N = 4096 run ------------------------------------------------

struct TracedRun {
  AttentionProblem p;
  AttentionResult r;
  double record_seconds = 0;
};
const TracedRun& Traced4096() {
  static const TracedRun t = [] {
    TracedRun x;
    x.p = MakeProblem(4096);
    RunOptions o = FloatOptions();
    o.record_trace = true;
    const auto t0 = std::chrono::steady_clock::now();
    x.r = bw::engine::RunFlash2(x.p, o);
    x.record_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return x;
  }();
  return t;
}

// One random jump: cumulative counters and the (m, l, u) of the current Q block at a random event.
void BM_TraceJump4096(benchmark::State& state) {
  const TracedRun& t = Traced4096();
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<std::size_t> pick(0, t.r.trace.size() - 1);
  for (auto _ : state) {
    const std::size_t e = pick(rng);
    const auto c = t.r.trace.CountersAt(e);
    const auto s = t.r.trace.StateAt(t.p, e);
    benchmark::DoNotOptimize(c.matmul_flops);
    benchmark::DoNotOptimize(s.l.data());
  }
  state.counters["events"] = static_cast<double>(t.r.trace.size());
  state.counters["trace_MiB"] = static_cast<double>(t.r.trace.MemoryBytes()) / (1 << 20);
  state.counters["record_run_s"] = t.record_seconds;
}
BENCHMARK(BM_TraceJump4096)->Unit(benchmark::kMicrosecond)->MinTime(1.0);

// The worst case: an update event just before a state snapshot (the most tiles to recompute).
void BM_TraceJump4096Worst(benchmark::State& state) {
  const TracedRun& t = Traced4096();
  const auto& ev = t.r.trace.events();
  const int stride = t.r.trace.state_snapshot_stride();
  std::size_t e = 0;
  for (std::size_t k = 0; k < ev.size(); ++k)
    if (ev[k].kind == bw::engine::EventKind::kUpdateMLU && ev[k].step % stride == stride - 1) e = k;
  for (auto _ : state) {
    const auto s = t.r.trace.StateAt(t.p, e);
    benchmark::DoNotOptimize(s.l.data());
  }
  state.counters["tiles_replayed"] = stride - 1;
}
BENCHMARK(BM_TraceJump4096Worst)->Unit(benchmark::kMicrosecond)->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
