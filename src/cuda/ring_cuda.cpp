// The GPU ring's entry points (ring_cuda.h): the problem check, the local transport's rank threads on
// one GPU, and one NCCL rank per process. The per-rank work is ring_rank.cu.
#include "cuda/ring_cuda.h"

#include "cuda/ring_transport.h"

#include <cuda_runtime.h>

#include <cstring>
#include <exception>
#include <stdexcept>
#include <thread>

#include "engine/ring.h"

namespace bw::cuda {

namespace {
void Check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
}  // namespace

RingSchedule ScheduleFor(const Problem& p, const RingOptions& opt) {
  if (p.n_q != p.n_k) throw std::invalid_argument("n_k: ring attention shards one sequence, N_q must equal N_k");
  if (p.d != p.d_v) throw std::invalid_argument("d_v: the tensor-core kernel needs d = d_v");
  if (p.mask.kind != MaskKind::None && p.mask.kind != MaskKind::CausalTopLeft)
    throw std::invalid_argument(std::string("mask: ring attention takes none or causal top-left, not ") + MaskKindName(p.mask.kind));
  if (p.heads < 1) throw std::invalid_argument("heads: must be at least 1");
  const size_t qk = static_cast<size_t>(p.heads) * p.n_q * p.d;
  if (p.q.size() != qk || p.k.size() != qk || p.v.size() != qk)
    throw std::invalid_argument("q, k, v: sizes do not match (heads, N, d)");
  return ScheduleRing(p.n_q, opt.ranks, opt.order, p.mask.kind == MaskKind::CausalTopLeft, p.d, p.heads);
}

void ScatterRankRows(const RingSchedule& s, const RingRankOutput& r, std::vector<float>& o, std::vector<float>& lse) {
  const auto& rows = s.shard_rows[static_cast<size_t>(r.rank)];
  const size_t nr = rows.size();
  o.resize(static_cast<size_t>(s.heads) * s.n * s.d);
  lse.resize(static_cast<size_t>(s.heads) * s.n);
  if (r.o.size() != static_cast<size_t>(s.heads) * nr * s.d || r.lse.size() != static_cast<size_t>(s.heads) * nr)
    throw std::invalid_argument("ScatterRankRows: the rank's output does not match its shard");
  for (int h = 0; h < s.heads; ++h)
    for (size_t i = 0; i < nr; ++i) {
      const size_t src = static_cast<size_t>(h) * nr + i, dst = static_cast<size_t>(h) * s.n + rows[i];
      lse[dst] = r.lse[src];
      std::memcpy(&o[dst * s.d], &r.o[src * s.d], static_cast<size_t>(s.d) * sizeof(float));
    }
}

RingOutput RunRingLocal(const Problem& p, const RingOptions& opt) {
  RingOutput out;
  out.schedule = ScheduleFor(p, opt);
  const int R = opt.ranks;
  Check(cudaSetDevice(0), "cudaSetDevice(0)");
  LocalRing ring(R, R > 1 ? R - 1 : 1);
  out.ranks.resize(static_cast<size_t>(R));
  std::vector<std::exception_ptr> errors(static_cast<size_t>(R));
  std::vector<std::thread> threads;
  for (int r = 0; r < R; ++r)
    threads.emplace_back([&, r] {
      try {
        Check(cudaSetDevice(0), "cudaSetDevice(0)");
        auto transport = MakeLocalTransport(ring, r);
        out.ranks[static_cast<size_t>(r)] = RunRingRank(out.schedule, p, opt.warmup, *transport);
      } catch (...) {
        errors[static_cast<size_t>(r)] = std::current_exception();
        ring.Drop();  // the others pass the barrier without this rank
      }
    });
  for (auto& t : threads) t.join();
  // Every rank's failure, not the first: a rank that fails drops out of the barrier, and its neighbour's
  // error ("rank 1 expects 0 bytes") is then only the consequence of the cause in that rank's own line.
  std::string why;
  for (int r = 0; r < R; ++r) {
    if (!errors[static_cast<size_t>(r)]) continue;
    try {
      std::rethrow_exception(errors[static_cast<size_t>(r)]);
    } catch (const std::exception& e) {
      why += (why.empty() ? "" : "; ") + std::string("rank ") + std::to_string(r) + ": " + e.what();
    } catch (...) {
      why += (why.empty() ? "" : "; ") + std::string("rank ") + std::to_string(r) + ": unknown error";
    }
  }
  if (!why.empty()) throw std::runtime_error("local ring: " + why);
  for (const RingRankOutput& r : out.ranks) ScatterRankRows(out.schedule, r, out.o, out.lse);
  return out;
}

RingRankOutput RunRingNcclRank(const Problem& p, const RingOptions& opt, int rank, const NcclId& id, int device) {
  const RingSchedule s = ScheduleFor(p, opt);
  if (rank < 0 || rank >= opt.ranks) throw std::invalid_argument("rank: outside 0…ranks − 1");
  Check(cudaSetDevice(device), "cudaSetDevice");
  auto transport = MakeNcclTransport(rank, opt.ranks, id);
  return RunRingRank(s, p, opt.warmup, *transport);
}

}  // namespace bw::cuda
