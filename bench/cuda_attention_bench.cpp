// cuda_attention_bench.cpp — H200 measurements for docs/performance.md ("GPU (H200)"), printed as
// JSON lines that bench/gpu/make_table.py turns into tables. Modes:
//   fp32      materialising vs tiled fp32, N = 1k..16k, d = 64/128, causal or not (heads = 65536/N)
//   tc        tensor-core bf16 kernel, same grid, heads = 65536/N (torch SDPA is timed by sdpa_bench.py)
//   overhead  counters (tile records + per-tensor tallies) on vs off, and live records into mapped host memory
//   ncu ALG N D CAUSAL   one launch with counters, prints our byte counters (ncu reads its own)
//   live      issue 15: counters off / on / live (device copy) / live (mapped host memory), medians
//   record PATH [N D B_r B_c MASK PACE_NS ALG]   one live GpuRun, saved as recorded-run JSON (ALG fp32|bf16)
// TFLOP/s = 4*N^2*d*heads / time, halved for causal (issue 6).
#include "cuda/attention_cuda.h"
#include "cuda/gpu_record_json.h"
#include "cuda/gpu_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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
  return 0;
}

// One GpuRun of `p`, polled every `poll_us` microseconds while it runs (poll_us < 0: not polled until
// the kernel is done). Returns the kernel's CUDA-event time; copies/mismatches/polls with news out.
double TimeGpuRun(const Problem& p, Algorithm a, RecordTransport tr, int poll_us, int& copies, int& mismatches, int& news) {
  GpuRun run;
  GpuRunOptions o;
  o.algorithm = a;
  o.tiling = Tiling{64, 64};
  o.transport = tr;
  run.Start(p, o);
  news = 0;
  while (!run.Done()) {
    if (poll_us >= 0) {
      if (!run.Poll().empty()) ++news;
      if (poll_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(poll_us));
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }
  run.Poll();
  if (run.TilesSeen() != run.TilesTotal()) throw std::runtime_error("live run lost records");
  copies = run.CopiesIssued();
  mismatches = run.LiveMismatches();
  return run.Totals().kernel_ms;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Issue 15: counters off / counters on (records in device memory, read after the kernel) / live (the
// same kernel while its whole record buffer is copied to pinned host memory on a second stream, back to
// back) / mapped (issue 6: records into mapped host memory behind system fences) — all four in the same
// harness (Benchmark: buffers allocated once, 2 warm-ups, median of 20). Then GpuRun end to end (fresh
// buffers and upload per run, records copied only for unfinished rows, polled back to back; and the same
// not polled): median of 5, with its copies and the live records that differed from the final read.
BenchResult RunLive(Algorithm a, int n, int d, int heads, bool causal, int live) {
  BenchConfig c;
  c.algorithm = a;
  c.n = n; c.d = d; c.heads = heads; c.causal = causal;
  c.tiling = Tiling{64, 64};
  c.record_tiles = true;
  c.live = live;
  c.warmup = 2;
  c.iters = 20;
  return Benchmark(c);
}

int Live() {
  struct Shape { int n, d, heads; bool causal; };
  std::vector<Shape> shapes;
  for (int n : {4096, 8192})
    for (int d : {64, 128})
      for (bool causal : {false, true}) shapes.push_back({n, d, 65536 / n, causal});
  for (int n : {4096, 8192}) shapes.push_back({n, 64, 1, false});  // issue 15's case: one head, short kernels
  for (Algorithm a : {Algorithm::TiledFp32, Algorithm::TensorCoreBf16})
    for (const Shape& sh : shapes) {
      const BenchResult off = Run(a, sh.n, sh.d, sh.heads, sh.causal, false, 20);
      const BenchResult on = Run(a, sh.n, sh.d, sh.heads, sh.causal, true, 20);
      const BenchResult live = RunLive(a, sh.n, sh.d, sh.heads, sh.causal, 1);
      const BenchResult mapped = RunLive(a, sh.n, sh.d, sh.heads, sh.causal, 2);
      std::mt19937 rng(5);
      std::uniform_real_distribution<float> u(-1.f, 1.f);
      Problem p;
      p.n_q = p.n_k = sh.n; p.d = p.d_v = sh.d; p.heads = sh.heads; p.scale = 1.f / std::sqrt((float)sh.d);
      p.mask.kind = sh.causal ? MaskKind::CausalTopLeft : MaskKind::None;
      p.q.resize((size_t)sh.heads * sh.n * sh.d); p.k.resize(p.q.size()); p.v.resize(p.q.size());
      for (auto* x : {&p.q, &p.k, &p.v}) for (auto& e : *x) e = u(rng);
      int copies = 0, mism = 0, news = 0, copies_total = 0, mism_total = 0;
      std::vector<double> quiet, polled;
      for (int rep = 0; rep < 5; ++rep) {
        quiet.push_back(TimeGpuRun(p, a, RecordTransport::kDeviceCopy, -1, copies, mism, news));
        mism_total += mism;
        polled.push_back(TimeGpuRun(p, a, RecordTransport::kDeviceCopy, 0, copies, mism, news));
        copies_total += copies; mism_total += mism;
      }
      const double q = Median(quiet), g = Median(polled), base = off.median_ms;
      std::printf("{\"table\":\"live\",\"alg\":\"%s\",\"n\":%d,\"d\":%d,\"heads\":%d,\"causal\":%d,\"ms\":%.5f,"
                  "\"ms_counters_on\":%.5f,\"ms_live\":%.5f,\"ms_live_mapped\":%.5f,\"ms_gpurun_live\":%.5f,"
                  "\"ms_gpurun_not_polled\":%.5f,\"on_pct\":%.2f,\"live_pct\":%.2f,\"mapped_pct\":%.2f,"
                  "\"copies_per_kernel\":%.1f,\"gpurun_copies_per_run\":%.1f,\"live_mismatches\":%d}\n",
                  AlgorithmName(a), sh.n, sh.d, sh.heads, sh.causal ? 1 : 0, base, on.median_ms, live.median_ms,
                  mapped.median_ms, g, q, 100.0 * (on.median_ms - base) / base, 100.0 * (live.median_ms - base) / base,
                  100.0 * (mapped.median_ms - base) / base, live.copies_per_iter, copies_total / 5.0, mism_total);
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
  if (argc > 9 && std::string(argv[9]) == "bf16") o.algorithm = Algorithm::TensorCoreBf16;
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
    std::fprintf(stderr, "usage: %s fp32|tc|overhead|live|ncu ALG N D CAUSAL|record PATH [N D B_r B_c MASK PACE_NS fp32|bf16]\n", argv[0]);
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
    if (mode == "live") return Live();
    if (mode == "ncu") return Ncu(argc, argv);
    if (mode == "record" && argc > 2) return Record(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 2;
}
