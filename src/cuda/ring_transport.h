// ring_transport.h — how the ring's K/V shards travel between ranks (issue 36): one interface, two
// transports. Internal to the CUDA backend (CUDA runtime types); the public entry points are ring_cuda.h.
//
//   NcclTransport  — NCCL: one process per GPU, ncclSend to rank + 1 and ncclRecv from rank − 1 in one
//                    ncclGroupStart/End on the rank's communication stream. libnccl.so.2 is opened at run
//                    time (dlopen), so the binaries build and run without NCCL (CI has none) and use the
//                    one found on LD_LIBRARY_PATH (on the device: torch's wheel, NCCL 2.28.9). NCCL refuses
//                    two ranks on one GPU ("Duplicate GPU detected"), so it needs a GPU per rank.
//   LocalTransport — NOT NCCL: all ranks are threads of one process on ONE GPU, each with its own streams;
//                    the sender's communication stream waits for the receiver's "buffer free" event and
//                    copies its shard with cudaMemcpyAsync (device to device) into the receiver's buffer,
//                    then records "landed", which the receiver's stream waits for. Host barriers between
//                    the ranks' threads make every event recorded before another stream waits on it. It
//                    exists so the whole ring (overlap, merges, records, zig-zag) runs on one GPU.
//
// Exchange is collective: every rank calls it once per step t < R − 1, in step order, from its own
// thread or process. Units: bytes.
#pragma once

#include <cuda_runtime.h>

#include "cuda/ring_cuda.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "cuda/ring_schedule.h"

namespace bw::cuda {

class RingTransport {
 public:
  virtual ~RingTransport() = default;
  virtual const char* Name() const = 0;  // "local" or "nccl"
  virtual int Rank() const = 0;
  virtual int Ranks() const = 0;
  // Enqueues on `comm`: `send_bytes` from `send` go to rank + 1; rank − 1's `recv_bytes` land in `recv`.
  // Work already on `comm` comes first (the caller makes `comm` wait until `recv` may be overwritten and
  // `send` holds the shard); `comm` passes the call's end once the shard has landed and `send` was read.
  virtual void Exchange(int step, const void* send, std::size_t send_bytes, void* recv, std::size_t recv_bytes,
                        cudaStream_t comm) = 0;
  // All ranks meet on the host after the work already on `stream` has finished (the start line of the
  // timed run). Throws if a peer failed.
  virtual void Barrier(cudaStream_t stream) = 0;
  // Called once when this rank fails, before its buffers are freed: ends every operation the transport
  // has in flight, so freeing (cudaFree waits for the device) cannot wait forever on a peer that will never
  // send. NCCL: ncclCommAbort. Local: nothing (its copies never wait on a peer's kernel).
  virtual void Abort() {}
};

// Shared state of the local transport's R ranks (threads): a host barrier and, per step and rank, the
// receive buffer and the two events (ring_transport_local.cpp). Create it on a thread that has selected
// the GPU, before starting the rank threads.
class LocalRing {
 public:
  LocalRing(int ranks, int steps);
  ~LocalRing();
  LocalRing(const LocalRing&) = delete;
  LocalRing& operator=(const LocalRing&) = delete;
  int Ranks() const { return ranks_; }
  // A rank thread that fails calls this so the others are not left waiting at the barrier.
  void Drop();
  struct Impl;

 private:
  friend class LocalTransport;
  int ranks_;
  std::unique_ptr<Impl> impl_;
};

std::unique_ptr<RingTransport> MakeLocalTransport(LocalRing& ring, int rank);

// NCCL (see above). `id` is ncclUniqueId's 128 bytes from rank 0's NcclUniqueId() (ring_cuda.h). The
// calling process must have selected its GPU. Throws std::runtime_error with NCCL's error string.
std::unique_ptr<RingTransport> MakeNcclTransport(int rank, int ranks, const NcclId& id);

// One rank's ring forward on the current GPU (ring_rank.cu): its Q and K/V shards cut from the whole
// problem `p` (fp32, rounded to bf16), `warmup` untimed runs, then the timed one. Collective over the
// transport's ranks.
RingRankOutput RunRingRank(const RingSchedule& s, const Problem& p, int warmup, RingTransport& transport);

}  // namespace bw::cuda
