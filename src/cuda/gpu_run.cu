// gpu_run.cu — GpuRun: live streaming of tile records (see gpu_run.h).
// Default transport: the kernel writes records to device memory (ready = RecordSeal(fields), no fence);
// Poll() keeps one cudaMemcpyAsync of the unfinished rows in flight on a second stream and, when it has
// landed, accepts each record whose seal matches. Mapped transport (issue 6): the kernel writes the
// fields, __threadfence_system(), then ready = 1; this side reads ready through a volatile pointer, then
// an acquire fence, then the fields. Either way a block finishes its K/V tiles in j order... except for
// skipped tiles in device memory, written at the block's end; one cursor per (head, Q tile) waits for them.
#include "cuda/gpu_run.h"
#include "cuda/cuda_util.h"
#include "cuda/hopper_launch.h"
#include "cuda/kernels.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace bw::cuda {

using namespace detail;

struct GpuRun::Impl {
  bool started = false, finished = false;
  Problem problem;
  GpuRunOptions opt;
  Tiling tiling;
  int t_r = 0, t_c = 0, D = 0;
  cudaStream_t stream = nullptr;
  bool mapped = false;
  TileRecord* host_rec = nullptr;  // pinned host memory, (heads, T_r, T_c): mapped, or the copy's target
  TileRecord* dev_rec = nullptr;   // where the kernel writes: the mapped memory's device address, or rec_buf
  DevBuf rec_buf;                  // device-copy transport: the records in device memory
  cudaStream_t copy_stream = nullptr;
  cudaEvent_t copy_done = nullptr;
  bool copy_in_flight = false;
  // rows [lo, hi) (head * T_r + i) the copy in flight covers: per head, from its first unfinished Q tile to
  // its last, adjacent heads' ranges merged. (A causal grid runs each head's Q tiles from the last to the
  // first, kernels.h TileGrid, so one range from the first unfinished row to the end never slid.)
  std::vector<std::pair<int, int>> copy_rows;
  int copies = 0, mismatches = 0;
  std::vector<int> cursor;         // next K/V tile to look at, per (head, Q tile)
  int seen = 0;
  std::vector<TileRecord> pending;  // seen by Done() but not yet handed out by Poll()
  DevBuf q, k, v, o, lse, rm, cls, cnt;
  MaskBuffers mask;
  Events ev;
  std::unique_ptr<HopperLaunch> hopper;  // the Hopper kernel's timed launch (kHopper), kept for its warp marks
  RunSummary summary;
  Output output;

  ~Impl() { Release(); }
  void Release() {
    if (stream) { cudaStreamSynchronize(stream); cudaStreamDestroy(stream); stream = nullptr; }
    if (copy_stream) { cudaStreamSynchronize(copy_stream); cudaStreamDestroy(copy_stream); copy_stream = nullptr; }
    if (copy_done) { cudaEventDestroy(copy_done); copy_done = nullptr; }
    if (host_rec) { cudaFreeHost(host_rec); host_rec = nullptr; }
  }
  int Rows() const { return problem.heads * t_r; }
  // Takes the complete records of rows [lo, hi) from host_rec, per row in j order from the cursor.
  void ScanRows(int lo, int hi, std::vector<TileRecord>& out) {
    for (int r = lo; r < hi; ++r) {
      while (cursor[r] < t_c) {
        TileRecord* slot = host_rec + (size_t)r * t_c + cursor[r];
        const std::uint32_t ready = *reinterpret_cast<volatile std::uint32_t*>(&slot->ready);
        if (ready == 0u) break;
        std::atomic_thread_fence(std::memory_order_acquire);
        TileRecord copy;
        std::memcpy(&copy, (const void*)slot, sizeof copy);
        if (!mapped && ready != RecordSeal(copy)) break;  // torn copy: the next one will have it whole
        copy.ready = RecordSeal(copy);
        out.push_back(copy);
        summary.tiles.push_back(copy);
        ++cursor[r];
        ++seen;
      }
    }
  }
  void IssueCopy() {
    copy_rows.clear();
    for (int h = 0; h < problem.heads; ++h) {
      int lo = h * t_r, hi = (h + 1) * t_r;
      while (lo < hi && cursor[lo] >= t_c) ++lo;
      while (hi > lo && cursor[hi - 1] >= t_c) --hi;
      if (lo >= hi) continue;
      if (!copy_rows.empty() && copy_rows.back().second == lo) copy_rows.back().second = hi;
      else copy_rows.push_back({lo, hi});
    }
    if (copy_rows.empty()) return;
    for (const auto& [lo, hi] : copy_rows) {
      const size_t off = (size_t)lo * t_c, n = (size_t)(hi - lo) * t_c;
      Check(cudaMemcpyAsync(host_rec + off, dev_rec + off, n * sizeof(TileRecord), cudaMemcpyDeviceToHost, copy_stream),
            "GpuRun record copy");
    }
    Check(cudaEventRecord(copy_done, copy_stream), "cudaEventRecord");
    copy_in_flight = true;
    ++copies;
  }
  void ScanCopied(std::vector<TileRecord>& out) {
    for (const auto& [lo, hi] : copy_rows) ScanRows(lo, hi, out);
  }
  void PollInto(std::vector<TileRecord>& out) {
    if (mapped) { ScanRows(0, Rows(), out); return; }
    if (copy_in_flight) {
      const cudaError_t e = cudaEventQuery(copy_done);
      if (e == cudaErrorNotReady) return;
      Check(e, "GpuRun record copy");
      copy_in_flight = false;
      ScanCopied(out);
    }
    IssueCopy();
  }
  void Finish() {
    Check(cudaStreamSynchronize(stream), "GpuRun kernel");
    if (mapped) {
      PollInto(pending);
    } else {
      // Take what the last live copy brought, then read every record once more: the kernel has ended,
      // so this copy is whole. Records handed out live must equal it (LiveMismatches).
      Check(cudaStreamSynchronize(copy_stream), "GpuRun record copy");
      if (copy_in_flight) { copy_in_flight = false; ScanCopied(pending); }
      std::vector<TileRecord> live = std::move(summary.tiles);
      const size_t n = (size_t)Rows() * t_c;
      Check(cudaMemcpy(host_rec, dev_rec, n * sizeof(TileRecord), cudaMemcpyDeviceToHost), "GpuRun record copy");
      for (const TileRecord& r : live) {
        const TileRecord& f = host_rec[((size_t)r.head * t_r + r.q_tile) * t_c + r.kv_tile];
        if (std::memcmp(&r, &f, sizeof r) != 0) ++mismatches;
      }
      summary.tiles.clear();
      for (const TileRecord& r : live) summary.tiles.push_back(host_rec[((size_t)r.head * t_r + r.q_tile) * t_c + r.kv_tile]);
      ScanRows(0, Rows(), pending);
      if (seen != Rows() * t_c) throw std::runtime_error("GpuRun: " + std::to_string(Rows() * t_c - seen) + " tile records missing after the kernel");
    }
    const bool tc = opt.algorithm != Algorithm::TiledFp32;  // (the Hopper kernel's O is bf16 too)
    const size_t nq = (size_t)problem.heads * problem.n_q;
    output.lse.resize(nq);
    output.row_masked.resize(nq);
    lse.Download(output.lse.data(), nq * 4);
    rm.Download(output.row_masked.data(), nq);
    if (tc) {
      output.o = DownloadHalfUnpadded(o, problem.heads * problem.n_q, problem.d_v, D, opt.algorithm == Algorithm::TensorCoreBf16);
    } else {
      output.o.resize(nq * problem.d_v);
      o.Download(output.o.data(), output.o.size() * 4);
    }
    unsigned long long c[dev::kNumCounterSlots];
    cnt.Download(c, sizeof c);
    FillCountersFromDevice(c, tc ? 2 : 4, summary.counters);
    std::vector<TileRecord> tiles = std::move(summary.tiles);
    FillSummary(problem, opt.algorithm, tiling, opt.pace_ns, ev.Ms(0, 1), summary);
    summary.tiles = std::move(tiles);
    if (hopper) {
      summary.kernel = "hopper";
      summary.warp_phases = hopper->WarpPhases();
    }
    output.run = summary;
    finished = true;
  }
};

GpuRun::GpuRun() : impl_(std::make_unique<Impl>()) {}
GpuRun::~GpuRun() = default;

void GpuRun::Start(const Problem& p, const GpuRunOptions& o) {
  if (impl_ && impl_->started && !impl_->finished) throw std::runtime_error("GpuRun::Start: a run is still in flight");
  std::string why;
  if (!GpuAvailable(&why)) throw std::runtime_error(why);
  if (o.algorithm == Algorithm::Materialising) throw std::runtime_error("GpuRun streams tiled kernels only");
  const bool hop = o.kernel == GpuKernel::kHopper;
  if (hop) {
    if (o.algorithm != Algorithm::TensorCoreBf16) throw std::invalid_argument("GpuRun: the Hopper kernel runs bf16 only (Algorithm::TensorCoreBf16)");
    if (o.pace_ns != 0) throw std::invalid_argument("GpuRun: the Hopper kernel has no slow motion (pace_ns must be 0)");
    if (o.transport != RecordTransport::kDeviceCopy)
      throw std::invalid_argument("GpuRun: the Hopper kernel writes its records to device memory only (transport kDeviceCopy)");
    if (std::max(p.d, p.d_v) > 128) throw std::invalid_argument("GpuRun: the Hopper kernel needs d, d_v <= 128");
    if (!HopperAvailable(&why)) throw std::runtime_error(why);
  }
  Validate(p);
  impl_ = std::make_unique<Impl>();
  Impl& m = *impl_;
  m.problem = p;
  m.opt = o;
  const bool tc = o.algorithm != Algorithm::TiledFp32;
  const bool bf16 = o.algorithm == Algorithm::TensorCoreBf16;
  m.tiling = hop ? kHopperTiling : tc ? TensorCoreTiling(p.mask.kind) : o.tiling;
  m.t_r = (p.n_q + m.tiling.b_r - 1) / m.tiling.b_r;
  m.t_c = (p.n_k + m.tiling.b_c - 1) / m.tiling.b_c;
  const size_t n_rec = (size_t)p.heads * m.t_r * m.t_c, nq = (size_t)p.heads * p.n_q;
  m.mapped = o.transport == RecordTransport::kMappedHost;
  Check(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  Check(cudaHostAlloc(reinterpret_cast<void**>(&m.host_rec), n_rec * sizeof(TileRecord), m.mapped ? cudaHostAllocMapped : 0),
        "cudaHostAlloc");
  std::memset(static_cast<void*>(m.host_rec), 0, n_rec * sizeof(TileRecord));
  if (m.mapped) {
    Check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&m.dev_rec), m.host_rec, 0), "cudaHostGetDevicePointer");
  } else {
    m.rec_buf = DevBuf(n_rec * sizeof(TileRecord));
    m.rec_buf.Zero();
    m.dev_rec = m.rec_buf.as<TileRecord>();
    Check(cudaStreamCreateWithFlags(&m.copy_stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    Check(cudaEventCreateWithFlags(&m.copy_done, cudaEventDisableTiming), "cudaEventCreate");
  }
  m.cursor.assign((size_t)p.heads * m.t_r, 0);
  const auto cls = ClassifyTiles(p, m.tiling);
  m.cls = DevBuf(cls.size());
  m.cls.Upload(cls.data(), cls.size());
  if (tc) {
    m.D = hop ? HopperPadD(std::max(p.d, p.d_v)) : TcPadD(std::max(p.d, p.d_v));
    m.q = UploadHalfPadded(p.q, p.heads * p.n_q, p.d, m.D, bf16);
    m.k = UploadHalfPadded(p.k, p.heads * p.n_k, p.d, m.D, bf16);
    m.v = UploadHalfPadded(p.v, p.heads * p.n_k, p.d_v, m.D, bf16);
    m.o = DevBuf(nq * m.D * 2);
  } else {
    m.q = DevBuf(p.q.size() * 4); m.q.Upload(p.q.data(), p.q.size() * 4);
    m.k = DevBuf(p.k.size() * 4); m.k.Upload(p.k.data(), p.k.size() * 4);
    m.v = DevBuf(p.v.size() * 4); m.v.Upload(p.v.data(), p.v.size() * 4);
    m.o = DevBuf(nq * p.d_v * 4);
  }
  m.lse = DevBuf(nq * 4);
  m.rm = DevBuf(nq);
  m.cnt = DevBuf(dev::kNumCounterSlots * 8);
  m.cnt.Zero();
  m.mask = UploadMask(p);
  DevProblem dp = MakeDevProblem(p, m.mask.dev);
  if (tc) dp.d = dp.d_v = m.D;
  if (hop) {
    if (o.warm_up)  // the same kernel with no records, counters or warp marks: loads the module outside the timing
      HopperLaunch(dp, m.q.ptr, m.k.ptr, m.v.ptr, m.cls.as<std::uint8_t>(), m.o.ptr, m.lse.as<float>(), m.rm.as<std::uint8_t>(), nullptr,
                   nullptr)
          .Launch(m.stream);
    m.hopper = std::make_unique<HopperLaunch>(dp, m.q.ptr, m.k.ptr, m.v.ptr, m.cls.as<std::uint8_t>(), m.o.ptr, m.lse.as<float>(),
                                              m.rm.as<std::uint8_t>(), m.dev_rec, m.cnt.as<unsigned long long>(), o.warp_sample_ctas);
    m.ev.Record(0, m.stream);
    m.hopper->Launch(m.stream);
    m.ev.Record(1, m.stream);
    m.started = true;
    return;
  }
  if (o.warm_up) {  // same kernel, no records, no counters, no pace: loads the module outside the timing
    if (tc)
      LaunchTensorCore(dp, m.tiling.b_r, bf16, m.q.ptr, m.k.ptr, m.v.ptr, m.cls.as<std::uint8_t>(), m.o.ptr, m.lse.as<float>(),
                       m.rm.as<std::uint8_t>(), nullptr, nullptr, 0, false, m.stream);
    else
      LaunchTiledFp32(dp, m.tiling.b_r, m.tiling.b_c, m.q.as<float>(), m.k.as<float>(), m.v.as<float>(), m.cls.as<std::uint8_t>(),
                      m.o.as<float>(), m.lse.as<float>(), m.rm.as<std::uint8_t>(), nullptr, nullptr, 0, false, m.stream);
  }
  m.ev.Record(0, m.stream);
  if (tc) {
    LaunchTensorCore(dp, m.tiling.b_r, bf16, m.q.ptr, m.k.ptr, m.v.ptr, m.cls.as<std::uint8_t>(), m.o.ptr, m.lse.as<float>(),
                     m.rm.as<std::uint8_t>(), m.dev_rec, m.cnt.as<unsigned long long>(), o.pace_ns, m.mapped, m.stream);
  } else {
    LaunchTiledFp32(dp, m.tiling.b_r, m.tiling.b_c, m.q.as<float>(), m.k.as<float>(), m.v.as<float>(), m.cls.as<std::uint8_t>(),
                    m.o.as<float>(), m.lse.as<float>(), m.rm.as<std::uint8_t>(), m.dev_rec, m.cnt.as<unsigned long long>(),
                    o.pace_ns, m.mapped, m.stream);
  }
  m.ev.Record(1, m.stream);
  m.started = true;
}

std::vector<TileRecord> GpuRun::Poll() {
  std::vector<TileRecord> out = std::move(impl_->pending);
  impl_->pending.clear();
  if (impl_->started && !impl_->finished) impl_->PollInto(out);
  return out;
}

bool GpuRun::Running() const { return impl_->started && !impl_->finished; }

bool GpuRun::Done() {
  Impl& m = *impl_;
  if (!m.started) return false;
  if (m.finished) return true;
  const cudaError_t e = cudaStreamQuery(m.stream);
  if (e == cudaErrorNotReady) return false;
  Check(e, "GpuRun kernel");
  m.Finish();  // picks up the last records into `pending`; the next Poll() still returns them
  return true;
}

int GpuRun::TilesTotal() const { return impl_->problem.heads * impl_->t_r * impl_->t_c; }
int GpuRun::TilesSeen() const { return impl_->seen; }
int GpuRun::LiveMismatches() const { return impl_->mismatches; }
int GpuRun::CopiesIssued() const { return impl_->copies; }
const RunSummary& GpuRun::Totals() const { return impl_->summary; }
const Output& GpuRun::Result() const { return impl_->output; }

}  // namespace bw::cuda
