// cuda_attention_bench.cpp — H200 measurements for docs/performance.md ("GPU (H200)"), printed as
// JSON lines that bench/gpu/make_table.py turns into tables. Modes:
//   fp32      materialising vs tiled fp32, N = 1k..16k, d = 64/128, causal or not (heads = 65536/N)
//   tc        tensor-core bf16 kernel, same grid, heads = 65536/N (torch SDPA is timed by sdpa_bench.py)
//   overhead  counters (tile records + per-tensor tallies) on vs off, and live records into mapped host memory
//   ncu ALG N D CAUSAL   one launch with counters, prints our byte counters (ncu reads its own)
//   record PATH [N D B_r B_c MASK PACE_NS]   one live GpuRun, saved as recorded-run JSON
// TFLOP/s = 4*N^2*d*heads / time, halved for causal (issue 6).
#include "cuda/attention_cuda.h"
#include "cuda/gpu_record_json.h"
#include "cuda/gpu_run.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>

using namespace bw::cuda;

namespace {

double Tflops(int n, int d, int heads, bool causal, double ms) {
  return 4.0 * n * (double)n * d * heads * (causal ? 0.5 : 1.0) / (ms * 1e-3) / 1e12;
}

void Line(const char* table, Algorithm a, int n, int d, int heads, bool causal, const BenchResult& r, const char* extra = "") {
  std::printf("{\"table\":\"%s\",\"alg\":\"%s\",\"n\":%d,\"d\":%d,\"heads\":%d,\"causal\":%d,\"ms\":%.5f,\"min_ms\":%.5f,"
              "\"tflops\":%.3f%s}\n",
              table, AlgorithmName(a), n, d, heads, causal ? 1 : 0, r.median_ms, r.min_ms, Tflops(n, d, heads, causal, r.median_ms), extra);
  std::fflush(stdout);
}

BenchResult Run(Algorithm a, int n, int d, int heads, bool causal, bool counters, int iters) {
  BenchConfig c;
  c.algorithm = a;
  c.n = n; c.d = d; c.heads = heads; c.causal = causal;
  c.tiling = Tiling{64, 64};
  c.record_tiles = counters;
  c.warmup = 2;
  c.iters = iters;
  return Benchmark(c);
}

int Fp32() {
  for (int d : {64, 128})
    for (bool causal : {false, true})
      for (int n : {1024, 2048, 4096, 8192, 16384}) {
        const int heads = std::max(1, 65536 / n);  // the same batch*heads as the tensor-core table
        const int iters = n >= 8192 ? 5 : 10;
        Line("fp32", Algorithm::Materialising, n, d, heads, causal, Run(Algorithm::Materialising, n, d, heads, causal, false, iters));
        Line("fp32", Algorithm::TiledFp32, n, d, heads, causal, Run(Algorithm::TiledFp32, n, d, heads, causal, false, iters));
      }
  return 0;
}

int Tc() {
  for (int d : {64, 128})
    for (bool causal : {false, true})
      for (int n : {1024, 2048, 4096, 8192, 16384}) {
        const int heads = std::max(1, 65536 / n);
        Line("tc", Algorithm::TensorCoreBf16, n, d, heads, causal, Run(Algorithm::TensorCoreBf16, n, d, heads, causal, false, 20));
      }
  return 0;
}

int Overhead() {
  for (Algorithm a : {Algorithm::TiledFp32, Algorithm::TensorCoreBf16})
    for (int n : {4096, 8192})
      for (int d : {64, 128})
        for (bool causal : {false, true}) {
          const int heads = std::max(1, 65536 / n);
          const BenchResult off = Run(a, n, d, heads, causal, false, 20);
          const BenchResult on = Run(a, n, d, heads, causal, true, 20);
          char extra[160];
          std::snprintf(extra, sizeof extra, ",\"ms_counters_on\":%.5f,\"overhead_pct\":%.2f", on.median_ms,
                        100.0 * (on.median_ms - off.median_ms) / off.median_ms);
          Line("overhead", a, n, d, heads, causal, off, extra);
        }
  // live: records into mapped pinned host memory through GpuRun (one head, one run after a warm-up)
  for (Algorithm a : {Algorithm::TiledFp32, Algorithm::TensorCoreBf16})
    for (int n : {4096, 8192}) {
      std::mt19937 rng(5);
      std::uniform_real_distribution<float> u(-1.f, 1.f);
      Problem p;
      p.n_q = p.n_k = n; p.d = p.d_v = 64; p.scale = 0.125f;
      p.q.resize((size_t)n * 64); p.k.resize(p.q.size()); p.v.resize(p.q.size());
      for (auto* x : {&p.q, &p.k, &p.v}) for (auto& e : *x) e = u(rng);
      double best = 1e30;
      for (int rep = 0; rep < 3; ++rep) {
        GpuRun run;
        GpuRunOptions o;
        o.algorithm = a;
        run.Start(p, o);
        while (!run.Done()) { run.Poll(); std::this_thread::sleep_for(std::chrono::microseconds(200)); }
        run.Poll();
        best = std::min(best, run.Totals().kernel_ms);
      }
      const BenchResult off = Run(a, n, 64, 1, false, false, 20);
      std::printf("{\"table\":\"live\",\"alg\":\"%s\",\"n\":%d,\"d\":64,\"heads\":1,\"causal\":0,\"ms\":%.5f,\"ms_live_mapped\":%.5f,"
                  "\"overhead_pct\":%.2f}\n",
                  AlgorithmName(a), n, off.median_ms, best, 100.0 * (best - off.median_ms) / off.median_ms);
      std::fflush(stdout);
    }
  return 0;
}

int Ncu(int argc, char** argv) {
  if (argc < 6) return 2;
  const std::string alg = argv[2];
  const Algorithm a = alg == "tiled" ? Algorithm::TiledFp32 : alg == "tc" ? Algorithm::TensorCoreBf16 : Algorithm::Materialising;
  const int n = std::atoi(argv[3]), d = std::atoi(argv[4]);
  const bool causal = std::atoi(argv[5]) != 0;
  BenchConfig c;
  c.algorithm = a; c.n = n; c.d = d; c.heads = 1; c.causal = causal; c.record_tiles = true; c.warmup = 0; c.iters = 1;
  const BenchResult r = Benchmark(c);
  const Counters& k = r.counters;
  const Tiling t = a == Algorithm::TiledFp32 ? Tiling{64, 64} : TensorCoreTiling(causal ? MaskKind::CausalTopLeft : MaskKind::None);
  const long long cls_bytes = (long long)((n + t.b_r - 1) / t.b_r) * ((n + t.b_c - 1) / t.b_c);  // tile-class bytes
  std::printf("{\"table\":\"ncu_ours\",\"alg\":\"%s\",\"n\":%d,\"d\":%d,\"causal\":%d,\"q_bytes\":%lld,\"k_bytes\":%lld,"
              "\"v_bytes\":%lld,\"load_bytes\":%lld,\"tile_class_bytes\":%lld,\"write_bytes\":%lld}\n",
              AlgorithmName(a), n, d, causal ? 1 : 0, (long long)k.q.read_bytes, (long long)k.k.read_bytes, (long long)k.v.read_bytes,
              (long long)(k.q.read_bytes + k.k.read_bytes + k.v.read_bytes), cls_bytes, (long long)k.hbm_write_bytes());
  return 0;
}

int Record(int argc, char** argv) {
  const std::string path = argv[2];
  const int n = argc > 3 ? std::atoi(argv[3]) : 4096, d = argc > 4 ? std::atoi(argv[4]) : 64;
  const int b_r = argc > 5 ? std::atoi(argv[5]) : 64, b_c = argc > 6 ? std::atoi(argv[6]) : 64;
  const std::string mask = argc > 7 ? argv[7] : "causal_top_left";
  const unsigned long long pace = argc > 8 ? std::strtoull(argv[8], nullptr, 10) : 0;
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Problem p;
  p.n_q = p.n_k = n; p.d = p.d_v = d; p.scale = 1.f / std::sqrt((float)d);
  p.q.resize((size_t)n * d); p.k.resize(p.q.size()); p.v.resize(p.q.size());
  for (auto* x : {&p.q, &p.k, &p.v}) for (auto& e : *x) e = u(rng);
  p.mask.kind = mask == "none" ? MaskKind::None : mask == "causal_bottom_right" ? MaskKind::CausalBottomRight : MaskKind::CausalTopLeft;
  GpuRunOptions o;
  o.tiling = {b_r, b_c};
  o.pace_ns = pace;
  { GpuRun warm; warm.Start(p, o); while (!warm.Done()) std::this_thread::sleep_for(std::chrono::microseconds(100)); }
  GpuRun run;
  run.Start(p, o);
  int polls = 0, polls_with_news = 0;
  while (!run.Done()) {
    ++polls;
    if (!run.Poll().empty()) ++polls_with_news;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  run.Poll();
  SaveRecordedRun(run.Totals(), path);
  const RunSummary& s = run.Totals();
  std::printf("{\"table\":\"record\",\"path\":\"%s\",\"tiles\":%zu,\"kernel_ms\":%.4f,\"tflops\":%.3f,\"polls\":%d,"
              "\"polls_with_new_records_before_done\":%d,\"device\":\"%s\"}\n",
              path.c_str(), s.tiles.size(), s.kernel_ms, s.tflops, polls, polls_with_news, s.device_name.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s fp32|tc|overhead|ncu ALG N D CAUSAL|record PATH [N D B_r B_c MASK PACE_NS]\n", argv[0]);
    return 2;
  }
  std::string why;
  if (!GpuAvailable(&why)) { std::fprintf(stderr, "%s\n", why.c_str()); return 1; }
  std::fprintf(stderr, "device: %s\n", DeviceName().c_str());
  try {
    const std::string mode = argv[1];
    if (mode == "fp32") return Fp32();
    if (mode == "tc") return Tc();
    if (mode == "overhead") return Overhead();
    if (mode == "ncu") return Ncu(argc, argv);
    if (mode == "record" && argc > 2) return Record(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 2;
}
