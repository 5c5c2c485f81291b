// cuda_decode_bench.cpp — split-KV decode on the GPU (issue 34) for docs/performance.md ("Split-KV decoding
// on the H200"), printed as JSON lines (bench/gpu/decode_table.py makes the table). Modes:
//   grid [quick]     q_len 1, d = 128, H_q = 32, GQA 1/4/8 (H_kv = 32/8/4), N = 1k … 128k, B = 1/8/64
//                    (shapes whose K/V exceed 8 GiB are left out): the split path (the plan's heuristic)
//                    and the no-split path (S = 1); then the device-to-device copy rate
//   copy             cudaMemcpy D2D of 1 GiB, back to back after a spin
//   sweep            tuning: L2 prefetch size (env BW_DECODE_L2_PREFETCH) × split counts for a few shapes
//   ncu N B G [S]    one run (split kernel + combine) with counters, for Nsight Compute; prints our counters
// Figure: GB/s of K/V bytes moved (the model's K + V reads) per run; every kernel timed back to back after a
// GPU spin (many launches between two events, divided), never one call between two events.
#include "cuda/attention_cuda.h"
#include "cuda/decode_cuda.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace bw::cuda;

namespace {

DecodeShape Shape(int n, int batch, int group) {
  DecodeShape s;
  s.batch = batch; s.q_len = 1; s.n_kv = n; s.heads_q = 32; s.heads_kv = 32 / group; s.d = 128;
  return s;
}

void Line(const DecodeShape& s, const char* path, const DecodeBenchResult& r) {
  const DecodeCounters want = PredictDecodeCounters(r.plan);
  std::printf("{\"table\":\"decode\",\"path\":\"%s\",\"n\":%d,\"batch\":%d,\"group\":%d,\"hq\":%d,\"hkv\":%d,\"d\":%d,"
              "\"q_len\":%d,\"splits\":%d,\"grid\":%lld,\"slots\":%d,\"iters\":%d,\"ms\":%.6f,\"kv_bytes\":%lld,"
              "\"kv_gbps\":%.1f,\"hbm_gbps\":%.1f,\"counters_match\":%s}\n",
              path, s.n_kv, s.batch, s.Group(), s.heads_q, s.heads_kv, s.d, s.q_len, r.plan.splits, (long long)r.plan.grid,
              r.plan.slots, r.iters, r.ms, (long long)r.kv_bytes, r.kv_gbps, r.hbm_gbps, r.counters == want ? "true" : "false");
  std::fflush(stdout);
}

void Copy() {
  const CopyBench c = BenchCopy(1ull << 30, 20);
  std::printf("{\"table\":\"copy\",\"bytes\":%llu,\"ms\":%.5f,\"gbps_read_write\":%.1f,\"gbps_one_way\":%.1f}\n",
              1ull << 30, c.ms, c.gbps_read_write, c.gbps_one_way);
  std::fflush(stdout);
}

int Grid(bool quick) {
  std::printf("{\"table\":\"decode_env\",\"device\":\"%s\",\"sm_count\":%d}\n", DeviceName().c_str(), SmCount());
  Copy();
  const std::vector<int> ns = quick ? std::vector<int>{4096, 32768} : std::vector<int>{1024, 4096, 16384, 32768, 65536, 131072};
  const std::vector<int> bs = quick ? std::vector<int>{1, 8} : std::vector<int>{1, 8, 64};
  for (int group : {1, 4, 8})
    for (int b : bs)
      for (int n : ns) {
        const DecodeShape s = Shape(n, b, group);
        const double kv = 2.0 * s.batch * s.heads_kv * (double)s.n_kv * s.d * 2;
        if (kv > 8.0 * (1ull << 30)) continue;
        Line(s, "split", BenchDecode(s, 0, 0));
        Line(s, "nosplit", BenchDecode(s, 1, 0));
      }
  Copy();  // again at the end: the rate the device kept through the run
  return 0;
}

// Tuning: for a few shapes, the L2 prefetch size of the K/V cp.async and the split count.
int Sweep() {
  const int shapes[][3] = {{16384, 1, 8}, {131072, 1, 8}, {4096, 1, 4}, {131072, 1, 4}, {32768, 1, 1},
                           {32768, 8, 8}, {32768, 8, 4}, {32768, 64, 4}, {65536, 8, 1}};
  for (const auto& sh : shapes) {
    const DecodeShape s = Shape(sh[0], sh[1], sh[2]);
    const long long ctas = (long long)s.batch * s.heads_kv;
    const int tiles = (s.n_kv + kDecodeBc - 1) / kDecodeBc;
    std::vector<int> cands = {0, 1};
    for (int k : {1, 2, 3, 4}) cands.push_back((int)std::max(1LL, k * 132 / ctas));
    for (int k : {1, 2}) cands.push_back((int)std::max(1LL, k * 132 / ctas - 1));
    for (const char* pf : {"0", "128", "256"}) {
      setenv("BW_DECODE_L2_PREFETCH", pf, 1);
      std::vector<int> done;
      for (int c : cands) {
        const int sc = std::min(c, std::min(tiles, 128));
        if (c > 0 && std::find(done.begin(), done.end(), sc) != done.end()) continue;
        if (c > 0) done.push_back(sc);
        const DecodeBenchResult r = BenchDecode(s, c, 0);
        std::printf("{\"table\":\"sweep\",\"n\":%d,\"batch\":%d,\"group\":%d,\"pf\":%s,\"forced\":%d,\"splits\":%d,"
                    "\"grid\":%lld,\"ms\":%.6f,\"kv_gbps\":%.1f}\n",
                    s.n_kv, s.batch, s.Group(), pf, c, r.plan.splits, (long long)r.plan.grid, r.ms, r.kv_gbps);
        std::fflush(stdout);
      }
    }
    unsetenv("BW_DECODE_L2_PREFETCH");
    setenv("BW_DECODE_SLOTS_PER_SM", "1", 1);
    const DecodeBenchResult r1 = BenchDecode(s, 0, 0);
    std::printf("{\"table\":\"sweep\",\"n\":%d,\"batch\":%d,\"group\":%d,\"pf\":0,\"forced\":-1,\"splits\":%d,"
                "\"grid\":%lld,\"ms\":%.6f,\"kv_gbps\":%.1f}\n",
                s.n_kv, s.batch, s.Group(), r1.plan.splits, (long long)r1.plan.grid, r1.ms, r1.kv_gbps);
    unsetenv("BW_DECODE_SLOTS_PER_SM");
  }
  return 0;
}

int Ncu(int n, int b, int group, int splits) {
  const DecodeShape s = Shape(n, b, group);
  const DecodeBenchResult r = BenchDecode(s, splits, 1);  // 3 warm-ups, 1 timed, 1 counted run
  const DecodeCounters& c = r.counters;
  std::printf("{\"table\":\"decode_ncu\",\"n\":%d,\"batch\":%d,\"group\":%d,\"splits\":%d,\"grid\":%lld,"
              "\"q_read_bytes\":%lld,\"k_read_bytes\":%lld,\"v_read_bytes\":%lld,\"o_part_write_bytes\":%lld,"
              "\"lse_write_bytes\":%lld,\"o_part_read_bytes\":%lld,\"lse_read_bytes\":%lld,\"o_write_bytes\":%lld,"
              "\"split_kernel_read_bytes\":%lld,\"combine_read_bytes\":%lld,\"counters_match\":%s}\n",
              n, b, group, r.plan.splits, (long long)r.plan.grid, (long long)c.q.read_bytes, (long long)c.k.read_bytes,
              (long long)c.v.read_bytes, (long long)c.o_part.write_bytes, (long long)c.lse_part.write_bytes,
              (long long)c.o_part.read_bytes, (long long)c.lse_part.read_bytes, (long long)c.o.write_bytes,
              (long long)(c.q.read_bytes + c.k.read_bytes + c.v.read_bytes + c.table.read_bytes),
              (long long)(c.o_part.read_bytes + c.lse_part.read_bytes),
              c == PredictDecodeCounters(r.plan) ? "true" : "false");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string why;
  if (!GpuAvailable(&why)) {
    std::fprintf(stderr, "cuda_decode_bench: %s\n", why.c_str());
    return 2;
  }
  const std::string mode = argc > 1 ? argv[1] : "grid";
  try {
    if (mode == "grid") return Grid(argc > 2 && std::strcmp(argv[2], "quick") == 0);
    if (mode == "copy") { Copy(); return 0; }
    if (mode == "sweep") return Sweep();
    if (mode == "ncu" && argc >= 5) return Ncu(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]), argc > 5 ? std::atoi(argv[5]) : 0);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuda_decode_bench: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "usage: cuda_decode_bench grid [quick] | copy | ncu N B GROUP [SPLITS]\n");
  return 2;
}
