// hopper_bench.cpp — issue 33's benchmark of our two tensor-core kernels, the Hopper kernel (TMA, wgmma,
// warp specialisation; hopper_cuda.h) and the FA-2 kernel (mma.sync, cp.async), on device-resident random
// bf16 data, each timed back to back after a GPU spin (PeerBench: about 30 ms of launches between two
// events, divided). TFLOP/s = 4 N^2 d heads / time, halved for causal. Prints JSON lines.
//   hopper_bench grid [quick|full] [hopper]  N 1k..16k (quick: 4096, 8192), d 128 and 64, causal and
//                                      not, heads = 65536 / N; both kernels (or the Hopper kernel only),
//                                      each with counters off, then on. BW_HOPPER_SCHED picks the schedule,
//                                      BW_HOPPER_RESCALE=always the unconditional O rescale.
//                                      The Hopper kernel also with tile records on (a live run's
//                                      writes) and with records plus warp phases of 4 CTAs.
//   hopper_bench ncu N d causal heads  one counted launch of the Hopper kernel (for Nsight Compute)
//   hopper_bench record N d causal heads warp_ctas PATH   one recorded run (random inputs, tile records
//                                      and warp phases) written as a GPU-panel recording (gpu_record_json.h)
#include "cuda/attention_cuda.h"
#include "cuda/gpu_record_json.h"
#include "cuda/hopper_cuda.h"

#include <random>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace bw::cuda;

namespace {

Problem Shape(int n, int d, int heads, bool causal) {
  Problem p;
  p.n_q = p.n_k = n;
  p.d = p.d_v = d;
  p.heads = heads;
  p.mask.kind = causal ? MaskKind::CausalTopLeft : MaskKind::None;
  return p;
}

void PrintCounters(const Counters& c) {
  std::printf("\"q_read_bytes\": %lld, \"k_read_bytes\": %lld, \"v_read_bytes\": %lld, \"o_write_bytes\": %lld, \"l_write_bytes\": %lld, "
              "\"tiles\": %lld, \"skipped\": %lld",
              (long long)c.q.read_bytes, (long long)c.k.read_bytes, (long long)c.v.read_bytes, (long long)c.o.write_bytes,
              (long long)c.l.write_bytes, (long long)c.tiles_total, (long long)c.tiles_skipped);
}

}  // namespace

int main(int argc, char** argv) {
  std::string why;
  if (!HopperAvailable(&why)) {
    std::fprintf(stderr, "hopper_bench: %s\n", why.c_str());
    return 2;
  }
  const std::string mode = argc > 1 ? argv[1] : "grid";
  try {
    if (mode == "ncu") {
      if (argc < 6) { std::fprintf(stderr, "usage: hopper_bench ncu N d causal heads\n"); return 1; }
      PeerBenchConfig c;
      c.kernel = "hopper";
      c.n = std::atoi(argv[2]);
      c.d = std::atoi(argv[3]);
      c.causal = std::atoi(argv[4]) != 0;
      c.heads = std::atoi(argv[5]);
      c.counters = true;
      c.iters = -1;
      const PeerBenchResult r = PeerBench(c);
      const Counters want = PredictHopperCounters(Shape(c.n, c.d, c.heads, c.causal));
      std::printf("{\"table\": \"ncu_hopper\", \"device\": \"%s\", \"n\": %d, \"d\": %d, \"causal\": %d, \"heads\": %d, ", DeviceName().c_str(),
                  c.n, c.d, (int)c.causal, c.heads);
      PrintCounters(r.counters);
      std::printf(", \"counters_equal_model\": %s}\n", r.counters == want ? "true" : "false");
      return 0;
    }
    if (mode == "record") {
      if (argc < 8) { std::fprintf(stderr, "usage: hopper_bench record N d causal heads warp_ctas PATH\n"); return 1; }
      Problem p = Shape(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[5]), std::atoi(argv[4]) != 0);
      p.scale = 1.f / std::sqrt((float)p.d);
      std::mt19937 rng(33);
      std::normal_distribution<float> nd(0.f, 1.f);
      for (auto* v : {&p.q, &p.k, &p.v}) {
        v->resize((size_t)p.heads * p.n_q * p.d);
        for (float& x : *v) x = nd(rng);
      }
      Options opt;
      opt.record_tiles = true;
      opt.warp_sample_ctas = std::atoi(argv[6]);
      RunHopper(p, opt);  // warm-up: the recorded launch is not the first
      const Output out = RunHopper(p, opt);
      SaveRecordedRun(out.run, argv[7]);
      std::printf("{\"table\": \"record\", \"device\": \"%s\", \"n\": %d, \"d\": %d, \"causal\": %d, \"heads\": %d, \"tiles\": %zu, "
                  "\"warp_phases\": %zu, \"kernel_ms\": %.4f, \"counters_equal_model\": %s, \"path\": \"%s\"}\n",
                  out.run.device_name.c_str(), p.n_q, p.d, (int)(p.mask.kind != MaskKind::None), p.heads, out.run.tiles.size(),
                  out.run.warp_phases.size(), out.run.kernel_ms, out.run.counters == PredictHopperCounters(p) ? "true" : "false", argv[7]);
      return 0;
    }
    const bool quick = argc > 2 && std::strcmp(argv[2], "quick") == 0;
    const bool only_hopper = argc > 3 && std::strcmp(argv[3], "hopper") == 0;  // grid quick hopper: our Hopper kernel only
    const int all_n[] = {1024, 2048, 4096, 8192, 16384}, quick_n[] = {4096, 8192};
    const int* ns = quick ? quick_n : all_n;
    const int nn = quick ? 2 : 5;
    const char* sched = std::getenv("BW_HOPPER_SCHED");
    const char* order = std::getenv("BW_TILE_ORDER");  // kernels.h TileGrid: heads fastest under a causal mask unless BW_TILE_ORDER=rows
    const char* rescale = std::getenv("BW_HOPPER_RESCALE");  // kernel_hopper.cu CondRescale: "always" turns it off
    std::printf("{\"table\": \"env\", \"device\": \"%s\", \"sms\": %d, \"hopper_sched\": %d, \"tile_order\": \"%s\", \"hopper_rescale\": \"%s\"}\n",
                DeviceName().c_str(), SmCount(), sched ? std::atoi(sched) : 2, order ? order : "default", rescale ? rescale : "conditional");
    std::fflush(stdout);
    for (int d : {128, 64})
      for (int causal : {0, 1})
        for (int i = 0; i < nn; ++i) {
          const int n = ns[i], heads = 65536 / n;
          for (const char* kernel : {"hopper", "fa2"}) {
            if (only_hopper && std::string(kernel) != "hopper") continue;
            PeerBenchConfig c;
            c.kernel = kernel;
            c.n = n;
            c.d = d;
            c.heads = heads;
            c.causal = causal != 0;
            const PeerBenchResult off = PeerBench(c);
            c.counters = true;
            const PeerBenchResult on = PeerBench(c);
            const Counters want = std::string(kernel) == "hopper" ? PredictHopperCounters(Shape(n, d, heads, causal))
                                                                  : PredictCounters(Shape(n, d, heads, causal), Algorithm::TensorCoreBf16, Tiling{});
            double ms_records = 0, ms_warps = 0;
            if (std::string(kernel) == "hopper") {  // a live run's writes: records (and warp phases) on too
              c.records = true;
              ms_records = PeerBench(c).ms;
              c.warp_ctas = 4;
              ms_warps = PeerBench(c).ms;
            }
            std::printf("{\"table\": \"peer\", \"sched\": %d, \"kernel\": \"%s\", \"n\": %d, \"d\": %d, \"causal\": %d, \"heads\": %d, \"iters\": %d, "
                        "\"ms\": %.5f, \"tflops\": %.2f, \"ms_counters\": %.5f, \"tflops_counters\": %.2f, \"counters_overhead_pct\": %.2f, "
                        "\"counters_equal_model\": %s, \"ms_records\": %.5f, \"records_overhead_pct\": %.2f, \"ms_warps\": %.5f, "
                        "\"warps_overhead_pct\": %.2f}\n",
                        sched ? std::atoi(sched) : 2, kernel, n, d, causal, heads, off.iters, off.ms, off.tflops, on.ms, on.tflops, 100.0 * (on.ms / off.ms - 1.0),
                        on.counters == want ? "true" : "false", ms_records, ms_records > 0 ? 100.0 * (ms_records / off.ms - 1.0) : 0.0, ms_warps,
                        ms_warps > 0 ? 100.0 * (ms_warps / off.ms - 1.0) : 0.0);
            std::fflush(stdout);
          }
        }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hopper_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
