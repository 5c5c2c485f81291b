// host.cpp — host side of the CUDA backend: device buffers, launches, timing with CUDA events,
// counter read-back, and the benchmark entry point. Kernels live in kernels_fp32.cu / kernel_tc.cu.
// Every CUDA call is checked; failures throw std::runtime_error with the call's name.
#include "cuda/attention_cuda.h"
#include "cuda/cuda_util.h"
#include "cuda/kernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace bw::cuda {

using detail::DevBuf;
using detail::Check;

bool GpuAvailable(std::string* why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    if (why) *why = std::string("no usable CUDA device: ") + cudaGetErrorString(e);
    return false;
  }
  if (n == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  return true;
}

std::string DeviceName() {
  cudaDeviceProp prop{};
  Check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  return prop.name;
}

int SmCount() {
  cudaDeviceProp prop{};
  Check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  return prop.multiProcessorCount;
}

namespace detail {

void Validate(const Problem& p) {
  if (p.n_q < 1 || p.n_k < 1 || p.d < 1 || p.d_v < 1 || p.heads < 1) throw std::invalid_argument("problem sizes must be >= 1");
  if (p.q.size() != (size_t)p.heads * p.n_q * p.d || p.k.size() != (size_t)p.heads * p.n_k * p.d ||
      p.v.size() != (size_t)p.heads * p.n_k * p.d_v)
    throw std::invalid_argument("Q, K, V sizes do not match (heads, N, d)");
}

MaskBuffers UploadMask(const Problem& p) {
  MaskBuffers mb;
  mb.dev.kind = static_cast<int>(p.mask.kind);
  mb.dev.n_q = p.n_q;
  mb.dev.n_k = p.n_k;
  if (p.mask.kind == MaskKind::KeyPadding) {
    mb.key_keep = DevBuf(p.mask.key_keep.size());
    mb.key_keep.Upload(p.mask.key_keep.data(), p.mask.key_keep.size());
    mb.dev.key_keep = mb.key_keep.as<std::uint8_t>();
  } else if (p.mask.kind == MaskKind::Explicit) {
    mb.keep = DevBuf(p.mask.keep.size());
    mb.keep.Upload(p.mask.keep.data(), p.mask.keep.size());
    mb.dev.keep = mb.keep.as<std::uint8_t>();
  }
  return mb;
}

DevProblem MakeDevProblem(const Problem& p, const dev::MaskDev& m) {
  DevProblem dp;
  dp.n_q = p.n_q; dp.n_k = p.n_k; dp.d = p.d; dp.d_v = p.d_v; dp.heads = p.heads; dp.scale = p.scale;
  dp.mask = m;
  return dp;
}

void FillCountersFromDevice(const unsigned long long* c, int eb, Counters& out) {
  auto set = [](TensorTraffic& tt, long long re, long long we, int b) {
    tt.read_elems = re; tt.read_bytes = re * b; tt.write_elems = we; tt.write_bytes = we * b;
  };
  out = Counters{};
  set(out.q, (long long)c[dev::kQRead], 0, eb);
  set(out.k, (long long)c[dev::kKRead], 0, eb);
  set(out.v, (long long)c[dev::kVRead], 0, eb);
  set(out.o, 0, (long long)c[dev::kOWrite], eb);
  set(out.l, 0, (long long)c[dev::kLWrite], 4);
  out.tiles_total = (long long)c[dev::kTiles];
  out.tiles_skipped = (long long)c[dev::kSkipped];
  out.rows_fully_masked = (long long)c[dev::kRowsMasked];
}

double FlopsOf(const Problem& p) {
  // 4 N_q N_k d per head (2 for Q K^T, 2 for P V), halved for causal as in the issue's formula
  double f = 2.0 * p.n_q * p.n_k * (p.d + p.d_v) * p.heads;
  if (p.mask.kind == MaskKind::CausalTopLeft || p.mask.kind == MaskKind::CausalBottomRight) f *= 0.5;
  return f;
}

void FillSummary(const Problem& p, Algorithm a, const Tiling& t, std::uint64_t pace, double ms, RunSummary& r) {
  cudaDeviceProp prop{};
  Check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  r.device_name = prop.name;
  r.sm_count = prop.multiProcessorCount;
  r.algorithm = a;
  r.n_q = p.n_q; r.n_k = p.n_k; r.d = p.d; r.d_v = p.d_v; r.heads = p.heads;
  r.b_r = t.b_r; r.b_c = t.b_c;
  r.mask = p.mask.kind;
  r.pace_ns = pace;
  r.kernel_ms = ms;
  r.tflops = ms > 0 ? FlopsOf(p) / (ms * 1e-3) / 1e12 : 0;
  r.gbps = ms > 0 ? (double)(r.counters.hbm_read_bytes() + r.counters.hbm_write_bytes()) / (ms * 1e-3) / 1e9 : 0;
}

}  // namespace detail

using namespace detail;

Output RunMaterialising(const Problem& p) {
  Validate(p);
  const size_t nq = (size_t)p.heads * p.n_q, nn = nq * p.n_k;
  DevBuf q(p.q.size() * 4), k(p.k.size() * 4), v(p.v.size() * 4), s(nn * 4), pm(nn * 4), o(nq * p.d_v * 4), lse(nq * 4), rm(nq);
  q.Upload(p.q.data(), p.q.size() * 4);
  k.Upload(p.k.data(), p.k.size() * 4);
  v.Upload(p.v.data(), p.v.size() * 4);
  MaskBuffers mb = UploadMask(p);
  const DevProblem dp = MakeDevProblem(p, mb.dev);
  Events ev;
  ev.Record(0, nullptr);
  LaunchMaterialising(dp, q.as<float>(), k.as<float>(), v.as<float>(), s.as<float>(), pm.as<float>(), o.as<float>(),
                      lse.as<float>(), rm.as<std::uint8_t>(), nullptr);
  ev.Record(1, nullptr);
  Check(cudaDeviceSynchronize(), "materialising kernels");
  Output out;
  out.o.resize(nq * p.d_v);
  out.lse.resize(nq);
  out.row_masked.resize(nq);
  o.Download(out.o.data(), out.o.size() * 4);
  lse.Download(out.lse.data(), nq * 4);
  rm.Download(out.row_masked.data(), nq);
  out.run.counters = PredictCounters(p, Algorithm::Materialising, Tiling{});
  long long masked = 0;
  for (auto f : out.row_masked) masked += f;
  out.run.counters.rows_fully_masked = masked;
  FillSummary(p, Algorithm::Materialising, Tiling{0, 0}, 0, ev.Ms(0, 1), out.run);
  return out;
}

namespace {

// Runs a tiled kernel (fp32 or tensor core) synchronously with records in device memory.
Output RunTiled(const Problem& p, Algorithm a, const Tiling& t_in, const Options& opt) {
  Validate(p);
  const bool tc = a != Algorithm::TiledFp32;
  const Tiling t = tc ? TensorCoreTiling(p.mask.kind) : t_in;
  const auto cls = ClassifyTiles(p, t);
  const int t_r = (p.n_q + t.b_r - 1) / t.b_r, t_c = (p.n_k + t.b_c - 1) / t.b_c;
  const size_t nq = (size_t)p.heads * p.n_q, n_rec = (size_t)p.heads * t_r * t_c;
  const int D = tc ? TcPadD(std::max(p.d, p.d_v)) : 0;
  DevBuf q, k, v, o;
  if (tc) {
    const bool bf16 = a == Algorithm::TensorCoreBf16;
    q = UploadHalfPadded(p.q, p.heads * p.n_q, p.d, D, bf16);
    k = UploadHalfPadded(p.k, p.heads * p.n_k, p.d, D, bf16);
    v = UploadHalfPadded(p.v, p.heads * p.n_k, p.d_v, D, bf16);
    o = DevBuf(nq * D * 2);
  } else {
    q = DevBuf(p.q.size() * 4); q.Upload(p.q.data(), p.q.size() * 4);
    k = DevBuf(p.k.size() * 4); k.Upload(p.k.data(), p.k.size() * 4);
    v = DevBuf(p.v.size() * 4); v.Upload(p.v.data(), p.v.size() * 4);
    o = DevBuf(nq * p.d_v * 4);
  }
  DevBuf lse(nq * 4), rm(nq), dcls(cls.size()), rec(opt.record_tiles ? n_rec * sizeof(TileRecord) : 0),
      cnt(dev::kNumCounterSlots * 8);
  dcls.Upload(cls.data(), cls.size());
  cnt.Zero();
  if (opt.record_tiles) rec.Zero();
  o.Fill(0xFF);  // poison: NaN in fp32, NaN in bf16/fp16 — every element must be written
  MaskBuffers mb = UploadMask(p);
  DevProblem dp = MakeDevProblem(p, mb.dev);
  Events ev;
  ev.Record(0, nullptr);
  if (tc) {
    dp.d = dp.d_v = D;
    LaunchTensorCore(dp, t.b_r, a == Algorithm::TensorCoreBf16, q.ptr, k.ptr, v.ptr, dcls.as<std::uint8_t>(), o.ptr, lse.as<float>(),
                     rm.as<std::uint8_t>(), opt.record_tiles ? rec.as<TileRecord>() : nullptr,
                     cnt.as<unsigned long long>(), opt.pace_ns, false, nullptr);
  } else {
    LaunchTiledFp32(dp, t.b_r, t.b_c, q.as<float>(), k.as<float>(), v.as<float>(), dcls.as<std::uint8_t>(), o.as<float>(),
                    lse.as<float>(), rm.as<std::uint8_t>(), opt.record_tiles ? rec.as<TileRecord>() : nullptr,
                    cnt.as<unsigned long long>(), opt.pace_ns, false, nullptr);
  }
  ev.Record(1, nullptr);
  Check(cudaDeviceSynchronize(), "tiled kernel");
  Output out;
  out.lse.resize(nq);
  out.row_masked.resize(nq);
  lse.Download(out.lse.data(), nq * 4);
  rm.Download(out.row_masked.data(), nq);
  if (tc) {
    out.o = DownloadHalfUnpadded(o, p.heads * p.n_q, p.d_v, D, a == Algorithm::TensorCoreBf16);
  } else {
    out.o.resize(nq * p.d_v);
    o.Download(out.o.data(), out.o.size() * 4);
  }
  unsigned long long c[dev::kNumCounterSlots];
  cnt.Download(c, sizeof c);
  FillCountersFromDevice(c, tc ? 2 : 4, out.run.counters);
  if (opt.record_tiles) {
    out.run.tiles.resize(n_rec);
    rec.Download(out.run.tiles.data(), n_rec * sizeof(TileRecord));
  }
  FillSummary(p, a, t, opt.pace_ns, ev.Ms(0, 1), out.run);
  return out;
}

}  // namespace

Output RunTiledFp32(const Problem& p, const Tiling& t, const Options& opt) { return RunTiled(p, Algorithm::TiledFp32, t, opt); }

Output RunTensorCore(const Problem& p, bool bf16, const Options& opt) {
  return RunTiled(p, bf16 ? Algorithm::TensorCoreBf16 : Algorithm::TensorCoreFp16, Tiling{}, opt);
}

BenchResult Benchmark(const BenchConfig& c) {
  Problem p;
  p.n_q = p.n_k = c.n;
  p.d = p.d_v = c.d;
  p.heads = c.heads;
  p.scale = 1.f / std::sqrt((float)c.d);
  p.mask.kind = c.causal ? MaskKind::CausalTopLeft : MaskKind::None;
  const bool tc = c.algorithm == Algorithm::TensorCoreBf16 || c.algorithm == Algorithm::TensorCoreFp16;
  const Tiling t = tc ? TensorCoreTiling(p.mask.kind) : c.tiling;
  const size_t elems = (size_t)c.heads * c.n * c.d, nq = (size_t)c.heads * c.n;
  const int eb = tc ? 2 : 4;
  DevBuf q(elems * eb), k(elems * eb), v(elems * eb), o(elems * eb), lse(nq * 4), rm(nq);
  RandomFill(q, elems, tc, c.algorithm == Algorithm::TensorCoreBf16, 1);
  RandomFill(k, elems, tc, c.algorithm == Algorithm::TensorCoreBf16, 2);
  RandomFill(v, elems, tc, c.algorithm == Algorithm::TensorCoreBf16, 3);
  DevBuf s, pm, dcls, rec, cnt(dev::kNumCounterSlots * 8);
  if (c.algorithm == Algorithm::Materialising) {
    s = DevBuf(nq * c.n * 4);
    pm = DevBuf(nq * c.n * 4);
  } else {
    Problem pc = p;  // ClassifyTiles needs only sizes and the mask
    const auto cls = ClassifyTiles(pc, t);
    dcls = DevBuf(cls.size());
    dcls.Upload(cls.data(), cls.size());
    const int t_r = (c.n + t.b_r - 1) / t.b_r, t_c = (c.n + t.b_c - 1) / t.b_c;
    if (c.record_tiles) rec = DevBuf((size_t)c.heads * t_r * t_c * sizeof(TileRecord));
  }
  // Live transports (record_tiles only): pinned staging + a second stream, or mapped host records.
  TileRecord* host_rec = nullptr;
  TileRecord* rec_ptr = rec.as<TileRecord>();
  cudaStream_t copy_stream = nullptr;
  if (c.record_tiles && c.live != 0) {
    Check(cudaHostAlloc(reinterpret_cast<void**>(&host_rec), rec.bytes, c.live == 2 ? cudaHostAllocMapped : 0), "cudaHostAlloc");
    std::memset(static_cast<void*>(host_rec), 0, rec.bytes);
    if (c.live == 2) Check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&rec_ptr), host_rec, 0), "cudaHostGetDevicePointer");
    else Check(cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  }
  const bool mapped = c.record_tiles && c.live == 2;
  const DevProblem dp = MakeDevProblem(p, dev::MaskDev{static_cast<int>(p.mask.kind), c.n, c.n, nullptr, nullptr});
  auto launch = [&] {
    if (c.record_tiles) cnt.ZeroAsync();
    switch (c.algorithm) {
      case Algorithm::Materialising:
        LaunchMaterialising(dp, q.as<float>(), k.as<float>(), v.as<float>(), s.as<float>(), pm.as<float>(), o.as<float>(),
                            nullptr, nullptr, nullptr);  // Algorithm 0 writes no L
        break;
      case Algorithm::TiledFp32:
        LaunchTiledFp32(dp, t.b_r, t.b_c, q.as<float>(), k.as<float>(), v.as<float>(), dcls.as<std::uint8_t>(), o.as<float>(),
                        lse.as<float>(), rm.as<std::uint8_t>(), c.record_tiles ? rec_ptr : nullptr,
                        c.record_tiles ? cnt.as<unsigned long long>() : nullptr, 0, mapped, nullptr);
        break;
      default:
        LaunchTensorCore(dp, t.b_r, c.algorithm == Algorithm::TensorCoreBf16, q.ptr, k.ptr, v.ptr, dcls.as<std::uint8_t>(), o.ptr,
                         lse.as<float>(), rm.as<std::uint8_t>(), c.record_tiles ? rec_ptr : nullptr,
                         c.record_tiles ? cnt.as<unsigned long long>() : nullptr, 0, mapped, nullptr);
    }
  };
  for (int w = 0; w < c.warmup; ++w) launch();
  Check(cudaDeviceSynchronize(), "benchmark warm-up");
  std::vector<double> ms;
  long long copies = 0;
  Events ev;
  for (int it = 0; it < c.iters; ++it) {
    ev.Record(0, nullptr);
    launch();
    ev.Record(1, nullptr);
    if (copy_stream) {  // copy every record, again and again, while the kernel runs
      while (cudaEventQuery(ev.e[1]) == cudaErrorNotReady) {
        Check(cudaMemcpyAsync(host_rec, rec.ptr, rec.bytes, cudaMemcpyDeviceToHost, copy_stream), "record copy");
        Check(cudaStreamSynchronize(copy_stream), "record copy");
        ++copies;
      }
    }
    Check(cudaEventSynchronize(ev.e[1]), "benchmark iteration");
    ms.push_back(ev.Ms(0, 1));
  }
  if (copy_stream) cudaStreamDestroy(copy_stream);
  if (host_rec) cudaFreeHost(host_rec);
  std::sort(ms.begin(), ms.end());
  BenchResult r;
  r.copies_per_iter = static_cast<double>(copies) / c.iters;
  r.median_ms = ms[ms.size() / 2];
  r.min_ms = ms.front();
  if (c.algorithm == Algorithm::Materialising) {
    r.counters = PredictCounters(p, c.algorithm, t);
  } else if (c.record_tiles) {
    unsigned long long cc[dev::kNumCounterSlots];
    cnt.Download(cc, sizeof cc);
    FillCountersFromDevice(cc, eb, r.counters);
  }
  return r;
}

}  // namespace bw::cuda
