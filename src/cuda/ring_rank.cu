// ring_rank.cu — one rank of the GPU ring (ring_cuda.h): its buffers, the per-step overlap of the
// exchange (communication stream) with the tensor-core kernel and the merge (compute stream), the merge
// kernel, and the step times from CUDA events.
//
// Layouts (bf16, D = d): the Q shard and each K/V shard are stored run by run (RingSchedule::runs), each
// run as (heads, run rows, D), so a run is one kernel operand with the kernel's head stride. A K/V buffer
// holding shard s is [K: heads × rows_s × D | V: heads × rows_s × D], sent and received as one message of
// RingSchedule::ShardBytes(s). The running O (fp32) and lse (fp32) follow the Q shard's layout.
#include "cuda/cuda_util.h"
#include "cuda/kernels.h"
#include "cuda/lse_combine.cuh"
#include "cuda/ring_transport.h"

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>

namespace bw::cuda {
namespace {

using detail::Check;
using detail::DevBuf;

constexpr int kMergeWarps = 4;

__global__ void FillFloatKernel(float* p, long long n, float v) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) p[i] = v;
}

// One warp per (head, row): the running (O, lse) and one partial (O_s bf16, lse_s) merged in fp32 with
// the split-KV combine's weights (lse_combine.cuh) over the two partials.
template <int D>
__global__ void __launch_bounds__(kMergeWarps * 32) RingMergeKernel(float* o_run, float* lse_run, const __nv_bfloat16* o_part,
                                                                    const float* lse_part, long long rows) {
  constexpr int kPer = D / 32;
  const int lane = threadIdx.x & 31;
  const long long row = (long long)blockIdx.x * kMergeWarps + (threadIdx.x >> 5);
  if (row >= rows) return;
  const float l0 = lse_run[row], l1 = lse_part[row];
  const float mx = fmaxf(l0, l1);
  const float w0 = dev::CombineWeight(l0, mx), w1 = dev::CombineWeight(l1, mx);
  const float sum = w0 + w1, inv = dev::CombineInverse(sum);
  float* o = o_run + row * D + lane * kPer;
  const __nv_bfloat16* op = o_part + row * D + lane * kPer;
#pragma unroll
  for (int c = 0; c < kPer; ++c) o[c] = (w0 * o[c] + w1 * __bfloat162float(op[c])) * inv;
  if (lane == 0) lse_run[row] = dev::CombineLse(mx, sum);
}

void LaunchMerge(int D, float* o_run, float* lse_run, const void* o_part, const float* lse_part, long long rows, cudaStream_t st) {
  const unsigned blocks = (unsigned)((rows + kMergeWarps - 1) / kMergeWarps);
  const auto* op = static_cast<const __nv_bfloat16*>(o_part);
  if (D == 32) RingMergeKernel<32><<<blocks, kMergeWarps * 32, 0, st>>>(o_run, lse_run, op, lse_part, rows);
  else if (D == 64) RingMergeKernel<64><<<blocks, kMergeWarps * 32, 0, st>>>(o_run, lse_run, op, lse_part, rows);
  else RingMergeKernel<128><<<blocks, kMergeWarps * 32, 0, st>>>(o_run, lse_run, op, lse_part, rows);
  Check(cudaGetLastError(), "RingMergeKernel launch");
}

std::uint16_t Bf16Bits(float f) {
  const __nv_bfloat16 b = __float2bfloat16(f);  // round to nearest even, as UploadHalfPadded
  std::uint16_t u;
  std::memcpy(&u, &b, 2);
  return u;
}

struct Stream {
  cudaStream_t s = nullptr;
  Stream() { Check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
  ~Stream() { if (s) cudaStreamDestroy(s); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
};

struct Event {
  cudaEvent_t e = nullptr;
  Event() { Check(cudaEventCreate(&e), "cudaEventCreate"); }
  ~Event() { if (e) cudaEventDestroy(e); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
};

class RingRank {
 public:
  RingRank(const RingSchedule& s, const Problem& p, RingTransport& tr)
      : s_(s), tr_(tr), rank_(tr.Rank()), D_(s.d), H_(s.heads), rows_(s.ShardRows(tr.Rank())), scale_(p.scale) {
    const size_t shard_elems = (size_t)H_ * s.max_shard_rows * D_;
    q_ = DevBuf((size_t)H_ * rows_ * D_ * 2);
    own_ = DevBuf(2 * shard_elems * 2);
    for (DevBuf& b : recv_) b = DevBuf(2 * shard_elems * 2);
    o_run_ = DevBuf((size_t)H_ * rows_ * D_ * 4);
    lse_run_ = DevBuf((size_t)H_ * rows_ * 4);
    size_t most = 0;
    for (const auto& step : s.steps) most = std::max(most, step[rank_].launches.size());
    for (size_t i = 0; i < most; ++i) {
      o_part_.emplace_back((size_t)H_ * s.max_run_rows * D_ * 2);
      lse_part_.emplace_back((size_t)H_ * s.max_run_rows * 4);
      rm_part_.emplace_back((size_t)H_ * s.max_run_rows);
    }
    Upload(p);
    for (const auto& step : s.steps)  // every shape's tile classes before the first run
      for (const RingLaunch& l : step[rank_].launches)
        Classes(s.runs[rank_][l.q_run].rows, s.runs[step[rank_].shard][l.k_run].rows, l.cls == RingPairClass::kDiag);
    ev_ = std::make_unique<StepEvents[]>((size_t)s.ranks);
    sent_.assign((size_t)s.ranks, 0);
    // The uploads are cudaMemcpy from pageable memory, which may return before the DMA lands, and the
    // ring's two streams are non-blocking (not ordered after the legacy stream): wait for them here.
    Check(cudaDeviceSynchronize(), "ring rank: uploads");
  }

  void Forward() {
    const int R = s_.ranks;
    Check(cudaMemsetAsync(o_run_.ptr, 0, o_run_.bytes, compute_.s), "cudaMemsetAsync(O)");
    FillFloatKernel<<<64, 256, 0, compute_.s>>>(lse_run_.as<float>(), (long long)H_ * rows_, -INFINITY);
    Check(cudaGetLastError(), "FillFloatKernel launch");
    tr_.Barrier(compute_.s);  // the ranks start together
    Check(cudaEventRecord(base_.e, compute_.s), "cudaEventRecord(base)");
    Check(cudaStreamWaitEvent(comm_.s, base_.e, 0), "cudaStreamWaitEvent(base)");
    for (int t = 0; t < R; ++t) {
      const RingRankStep& st = s_.steps[t][rank_];
      const void* cur = t == 0 ? own_.ptr : recv_[(t - 1) % 2].ptr;
      StepEvents& ev = ev_[t];
      if (t + 1 < R) {  // the exchange: send the shard held, receive the next into the other buffer
        // recv_[t % 2] was read by step t − 1's kernels (it held step t − 1's shard) from t = 2 on; at t = 1
        // it is unused this run (step 0 computes on own_), so the first transfer starts at once.
        if (t >= 2) Check(cudaStreamWaitEvent(comm_.s, ev_[t - 1].compute_end.e, 0), "cudaStreamWaitEvent(free)");
        Check(cudaEventRecord(ev.transfer_start.e, comm_.s), "cudaEventRecord");
        const int next_shard = s_.steps[t + 1][rank_].shard;
        sent_[t] = s_.ShardBytes(st.shard);
        tr_.Exchange(t, cur, (size_t)sent_[t], recv_[t % 2].ptr, (size_t)s_.ShardBytes(next_shard), comm_.s);
        Check(cudaEventRecord(ev.transfer_end.e, comm_.s), "cudaEventRecord");
      }
      if (t >= 1) Check(cudaStreamWaitEvent(compute_.s, ev_[t - 1].transfer_end.e, 0), "cudaStreamWaitEvent(landed)");
      Check(cudaEventRecord(ev.compute_start.e, compute_.s), "cudaEventRecord");
      for (size_t i = 0; i < st.launches.size(); ++i) Launch(st, i, static_cast<const std::uint16_t*>(cur));
      Check(cudaEventRecord(ev.compute_end.e, compute_.s), "cudaEventRecord");
      for (size_t i = 0; i < st.launches.size(); ++i) {
        const RowRun& q = s_.runs[rank_][st.launches[i].q_run];
        LaunchMerge(D_, o_run_.as<float>() + (size_t)H_ * q.offset * D_, lse_run_.as<float>() + (size_t)H_ * q.offset,
                    o_part_[i].ptr, lse_part_[i].as<float>(), (long long)H_ * q.rows, compute_.s);
      }
      Check(cudaEventRecord(ev.merge_end.e, compute_.s), "cudaEventRecord");
    }
    Check(cudaStreamSynchronize(comm_.s), "ring forward (communication stream)");
    Check(cudaStreamSynchronize(compute_.s), "ring forward (compute stream)");
  }

  RingRankOutput Result() {
    RingRankOutput out;
    out.rank = rank_;
    std::vector<float> o((size_t)H_ * rows_ * D_), lse((size_t)H_ * rows_);
    o_run_.Download(o.data(), o.size() * 4);
    lse_run_.Download(lse.data(), lse.size() * 4);
    out.o.resize(o.size());
    out.lse.resize(lse.size());
    for (const RowRun& r : s_.runs[rank_])  // run-major (heads, run rows) → (heads, shard rows)
      for (int h = 0; h < H_; ++h)
        for (int i = 0; i < r.rows; ++i) {
          const size_t src = (size_t)H_ * r.offset + (size_t)h * r.rows + i, dst = (size_t)h * rows_ + r.offset + i;
          out.lse[dst] = lse[src];
          std::memcpy(&out.o[dst * D_], &o[src * D_], (size_t)D_ * 4);
        }
    auto ms = [&](const Event& e) { float x = 0; Check(cudaEventElapsedTime(&x, base_.e, e.e), "cudaEventElapsedTime"); return (double)x; };
    for (int t = 0; t < s_.ranks; ++t) {
      RingStepTimes tt;
      if (t + 1 < s_.ranks) { tt.transfer_start_ms = ms(ev_[t].transfer_start); tt.transfer_end_ms = ms(ev_[t].transfer_end); }
      tt.compute_start_ms = ms(ev_[t].compute_start);
      tt.compute_end_ms = ms(ev_[t].compute_end);
      tt.merge_end_ms = ms(ev_[t].merge_end);
      tt.bytes_sent = sent_[t];
      out.times.push_back(tt);
    }
    cudaDeviceProp prop{};
    int dev = 0;
    Check(cudaGetDevice(&dev), "cudaGetDevice");
    Check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
    out.device_name = prop.name;
    return out;
  }

 private:
  struct StepEvents { Event transfer_start, transfer_end, compute_start, compute_end, merge_end; };

  // Packs rows of a (heads, N, d) fp32 tensor into the run-major bf16 layout at dst.
  void Pack(const std::vector<float>& x, const std::vector<RowRun>& runs, std::uint16_t* dst) const {
    for (const RowRun& r : runs)
      for (int h = 0; h < H_; ++h)
        for (int i = 0; i < r.rows; ++i) {
          const int row = s_.shard_rows[rank_][r.offset + i];  // global row (a run's rows need not be consecutive)
          const float* src = &x[((size_t)h * s_.n + row) * D_];
          std::uint16_t* out = dst + ((size_t)H_ * r.offset + (size_t)h * r.rows + i) * D_;
          for (int c = 0; c < D_; ++c) out[c] = Bf16Bits(src[c]);
        }
  }

  void Upload(const Problem& p) {
    const auto& runs = s_.runs[rank_];
    std::vector<std::uint16_t> q((size_t)H_ * rows_ * D_), kv(2 * q.size());
    Pack(p.q, runs, q.data());
    Pack(p.k, runs, kv.data());
    Pack(p.v, runs, kv.data() + q.size());
    q_.Upload(q.data(), q.size() * 2);
    own_.Upload(kv.data(), kv.size() * 2);
  }

  // The kernel's tile classes for a launch's shape and mask, uploaded once per distinct shape.
  const std::uint8_t* Classes(int q_rows, int k_rows, bool diag) {
    auto key = std::make_tuple(q_rows, k_rows, diag);
    auto it = classes_.find(key);
    if (it != classes_.end()) return it->second.as<std::uint8_t>();
    Problem shape;
    shape.n_q = q_rows; shape.n_k = k_rows; shape.d = shape.d_v = D_; shape.heads = H_;
    shape.mask.kind = diag ? MaskKind::CausalTopLeft : MaskKind::None;
    const auto cls = ClassifyTiles(shape, TensorCoreTiling(shape.mask.kind));
    DevBuf b(cls.size());
    b.Upload(cls.data(), cls.size());
    return classes_.emplace(key, std::move(b)).first->second.as<std::uint8_t>();
  }

  void Launch(const RingRankStep& st, size_t i, const std::uint16_t* kv) {
    const RingLaunch& l = st.launches[i];
    const RowRun& q = s_.runs[rank_][l.q_run];
    const RowRun& k = s_.runs[st.shard][l.k_run];
    const bool diag = l.cls == RingPairClass::kDiag;
    detail::DevProblem dp;
    dp.n_q = q.rows; dp.n_k = k.rows; dp.d = dp.d_v = D_; dp.heads = H_; dp.scale = scale_;
    dp.mask = dev::MaskDev{static_cast<int>(diag ? MaskKind::CausalTopLeft : MaskKind::None), q.rows, k.rows, nullptr, nullptr};
    const int b_r = TensorCoreTiling(diag ? MaskKind::CausalTopLeft : MaskKind::None).b_r;
    const size_t v_off = (size_t)H_ * s_.ShardRows(st.shard) * D_;
    const std::uint16_t* kp = kv + (size_t)H_ * k.offset * D_;
    detail::LaunchTensorCore(dp, b_r, /*bf16=*/true, q_.as<std::uint16_t>() + (size_t)H_ * q.offset * D_, kp, kp + v_off,
                             Classes(q.rows, k.rows, diag), o_part_[i].ptr, lse_part_[i].as<float>(),
                             rm_part_[i].as<std::uint8_t>(), nullptr, nullptr, 0, false, compute_.s);
  }

  const RingSchedule& s_;
  RingTransport& tr_;
  int rank_, D_, H_, rows_;
  float scale_;
  Stream compute_, comm_;
  Event base_;
  std::unique_ptr<StepEvents[]> ev_;
  std::vector<long long> sent_;  // bytes handed to Exchange per step
  DevBuf q_, own_, recv_[2], o_run_, lse_run_;
  std::vector<DevBuf> o_part_, lse_part_, rm_part_;
  std::map<std::tuple<int, int, bool>, DevBuf> classes_;
};

}  // namespace

RingRankOutput RunRingRank(const RingSchedule& s, const Problem& p, int warmup, RingTransport& transport) {
  std::optional<RingRank> rank;  // outlives the handler below: freed only after the transport is aborted
  try {
    rank.emplace(s, p, transport);
    for (int w = 0; w < warmup; ++w) rank->Forward();
    rank->Forward();
    return rank->Result();
  } catch (...) {
    transport.Abort();  // before the buffers are freed: cudaFree would wait on a receive no peer will serve
    throw;
  }
}

}  // namespace bw::cuda
