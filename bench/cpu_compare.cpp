// One row of scripts/bench-cpu: time the engine's tiled FA-2 order or its reference on one problem
// (float, d = 64, no mask, random normal Q, K, V; tiles 64 × 64 from M = 16384 elements), median of
// `reps` calls after one warm-up call, and the peak extra heap of a call (malloc counted by
// heap_counter.h; glibc's tunables, set by the script, decide whether freed memory is kept).
// Usage: cpu_compare tiled|reference N workers reps
// Prints: "<median ms> <extra bytes> <simd level> <counted HBM scratch bytes>" — the last is what the
// algorithm holds in HBM besides Q, K, V, O as the counters count it (Algorithm 0: S and P whole,
// 2·N²·4 bytes in float; FA-2: 0), whatever the implementation's own heap (the engine's reference
// forms S and P a block of rows at a time above 2048² scores).
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "engine/attention.h"
#include "engine/tile_simd.h"
#include "heap_counter.h"


int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s tiled|reference N workers reps\n", argv[0]);
    return 2;
  }
  const std::string impl = argv[1];
  const long n = std::atol(argv[2]);
  const int workers = std::atoi(argv[3]), reps = std::max(1, std::atoi(argv[4]));
  using namespace bw::engine;
  AttentionProblem p;
  std::mt19937_64 rng(static_cast<unsigned long long>(n));
  std::normal_distribution<double> g(0.0, 1.0);
  for (auto* m : {&p.Q, &p.K, &p.V}) {
    m->resize(n, 64);
    for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = g(rng);
  }
  RunOptions o;
  o.precision = Precision::kFloat;
  o.tiles = DeriveTileSizes(16384, 64).tiles;
  o.workers = workers;
  const auto run = [&] { return impl == "tiled" ? RunFlash2(p, o) : RunReference(p, o); };
  run();  // warm-up: code, tile buffers, and (when glibc keeps freed memory) the heap
  std::vector<double> ms;
  long long extra = 0, scratch = 0;
  for (int r = 0; r < reps; ++r) {
    const long long before = bw::bench::HeapNow();
    bw::bench::ResetHeapPeak();
    const auto t0 = std::chrono::steady_clock::now();
    AttentionResult res = run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    const long long returned = static_cast<long long>(res.O.size() * 8 + res.L.size() * 8 + static_cast<long long>(res.row_fully_masked.size()));
    extra = std::max(extra, bw::bench::HeapPeak() - before - returned);
    scratch = res.counters.hbm_scratch_bytes;
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%.2f %lld %s %lld\n", ms[ms.size() / 2], extra, bw::engine::detail::ToString(bw::engine::detail::ActiveSimdLevel()),
              scratch);
  return 0;
}
