// The local ring transport (ring_transport.h): ranks as threads of one process on one GPU, shards
// copied device to device on the sender's communication stream. Not NCCL.
#include "cuda/ring_transport.h"

#include <barrier>
#include <stdexcept>

namespace bw::cuda {

namespace {
void Check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
}  // namespace

struct LocalRing::Impl {
  struct Slot {
    void* recv = nullptr;
    std::size_t bytes = 0;
    cudaEvent_t ready = nullptr;   // recorded on the receiver's stream: its buffer may be written
    cudaEvent_t landed = nullptr;  // recorded on the sender's stream after its copy
  };
  explicit Impl(int ranks) : barrier_(ranks), errors_(static_cast<size_t>(ranks)) {}
  std::barrier<> barrier_;
  std::vector<std::vector<Slot>> slots_;  // [step][receiving rank]
  std::vector<std::string> errors_;       // per sending rank: a size mismatch
};

LocalRing::LocalRing(int ranks, int steps) : ranks_(ranks), impl_(std::make_unique<Impl>(ranks)) {
  auto& slots_ = impl_->slots_;
  slots_.assign(static_cast<size_t>(steps), std::vector<Impl::Slot>(static_cast<size_t>(ranks)));
  for (auto& step : slots_)
    for (Impl::Slot& s : step) {
      Check(cudaEventCreateWithFlags(&s.ready, cudaEventDisableTiming), "cudaEventCreateWithFlags");
      Check(cudaEventCreateWithFlags(&s.landed, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    }
}

LocalRing::~LocalRing() {
  for (auto& step : impl_->slots_)
    for (Impl::Slot& s : step) {
      if (s.ready) cudaEventDestroy(s.ready);
      if (s.landed) cudaEventDestroy(s.landed);
    }
}

void LocalRing::Drop() { impl_->barrier_.arrive_and_drop(); }

class LocalTransport final : public RingTransport {
 public:
  LocalTransport(LocalRing& ring, int rank) : ring_(*ring.impl_), ranks_(ring.ranks_), rank_(rank) {}
  const char* Name() const override { return "local"; }
  int Rank() const override { return rank_; }
  int Ranks() const override { return ranks_; }

  void Exchange(int step, const void* send, std::size_t send_bytes, void* recv, std::size_t recv_bytes,
                cudaStream_t comm) override {
    if (step < 0 || step >= static_cast<int>(ring_.slots_.size())) throw std::invalid_argument("local ring: step out of range");
    auto& slots = ring_.slots_[static_cast<size_t>(step)];
    LocalRing::Impl::Slot& mine = slots[static_cast<size_t>(rank_)];
    mine.recv = recv;
    mine.bytes = recv_bytes;
    Check(cudaEventRecord(mine.ready, comm), "cudaEventRecord(ready)");
    ring_.barrier_.arrive_and_wait();  // every receiver's buffer and ready event are posted
    LocalRing::Impl::Slot& next = slots[static_cast<size_t>((rank_ + 1) % ranks_)];
    std::string& err = ring_.errors_[static_cast<size_t>(rank_)];
    if (next.bytes != send_bytes) {
      err = "local ring: rank " + std::to_string(rank_) + " sends " + std::to_string(send_bytes) + " bytes at step " +
            std::to_string(step) + " but rank " + std::to_string((rank_ + 1) % ranks_) + " expects " +
            std::to_string(next.bytes);
    } else {
      Check(cudaStreamWaitEvent(comm, next.ready, 0), "cudaStreamWaitEvent(ready)");
      Check(cudaMemcpyAsync(next.recv, send, send_bytes, cudaMemcpyDeviceToDevice, comm), "cudaMemcpyAsync(ring shard)");
      Check(cudaEventRecord(next.landed, comm), "cudaEventRecord(landed)");
    }
    ring_.barrier_.arrive_and_wait();  // every landed event is recorded
    mine.recv = nullptr;  // used: a later step or run posts it again (a failed rank's slot stays empty)
    mine.bytes = 0;
    if (!err.empty()) throw std::runtime_error(err);
    const std::string& prev_err = ring_.errors_[static_cast<size_t>((rank_ + ranks_ - 1) % ranks_)];
    if (!prev_err.empty()) throw std::runtime_error(prev_err);
    Check(cudaStreamWaitEvent(comm, mine.landed, 0), "cudaStreamWaitEvent(landed)");
  }

  void Barrier(cudaStream_t stream) override {
    Check(cudaStreamSynchronize(stream), "cudaStreamSynchronize(barrier)");
    ring_.barrier_.arrive_and_wait();
  }

 private:
  LocalRing::Impl& ring_;
  int ranks_, rank_;
};

std::unique_ptr<RingTransport> MakeLocalTransport(LocalRing& ring, int rank) {
  if (rank < 0 || rank >= ring.Ranks()) throw std::invalid_argument("local ring: rank out of range");
  return std::make_unique<LocalTransport>(ring, rank);
}

}  // namespace bw::cuda
