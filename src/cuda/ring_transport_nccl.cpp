// The NCCL ring transport (ring_transport.h): ncclSend / ncclRecv in one group per step on the rank's
// communication stream, one process per GPU. libnccl.so.2 is opened at run time (dlopen): nothing needs
// NCCL to build (the few declarations below are NCCL's ABI, checked against nccl.h where it exists), and
// a binary without NCCL on its library path still runs the local transport.
#include "cuda/ring_transport.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>

#if __has_include(<nccl.h>)
#include <nccl.h>
#define BW_HAVE_NCCL_H 1
#endif

namespace bw::cuda {
namespace {

// NCCL's ABI (nccl.h, 2.x): results and enums are ints, a communicator an opaque pointer, the unique id
// 128 bytes passed by value.
using NcclResult = int;
using NcclComm = void*;
struct NcclUniqueIdAbi { char internal[128]; };
constexpr int kNcclSuccess = 0, kNcclUint8 = 1, kNcclFloat32 = 7, kNcclSum = 0;
#ifdef BW_HAVE_NCCL_H
static_assert(sizeof(ncclUniqueId) == sizeof(NcclUniqueIdAbi) && sizeof(ncclResult_t) == sizeof(NcclResult));
static_assert(ncclSuccess == kNcclSuccess && ncclUint8 == kNcclUint8 && ncclFloat32 == kNcclFloat32 && ncclSum == kNcclSum);
#endif

struct NcclLib {
  void* handle = nullptr;
  std::string error;
  NcclResult (*GetVersion)(int*) = nullptr;
  NcclResult (*GetUniqueId)(NcclUniqueIdAbi*) = nullptr;
  NcclResult (*CommInitRank)(NcclComm*, int, NcclUniqueIdAbi, int) = nullptr;
  NcclResult (*CommDestroy)(NcclComm) = nullptr;
  NcclResult (*CommAbort)(NcclComm) = nullptr;
  NcclResult (*GroupStart)() = nullptr;
  NcclResult (*GroupEnd)() = nullptr;
  NcclResult (*Send)(const void*, size_t, int, int, NcclComm, cudaStream_t) = nullptr;
  NcclResult (*Recv)(void*, size_t, int, int, NcclComm, cudaStream_t) = nullptr;
  NcclResult (*AllReduce)(const void*, void*, size_t, int, int, NcclComm, cudaStream_t) = nullptr;
  const char* (*GetErrorString)(NcclResult) = nullptr;
  const char* (*GetLastError)(NcclComm) = nullptr;
};

const NcclLib& Lib() {
  static NcclLib lib;
  static std::once_flag once;
  std::call_once(once, [] {
    lib.handle = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib.handle) {
      const char* e = dlerror();
      lib.error = std::string("cannot open libnccl.so.2 (set LD_LIBRARY_PATH to NCCL's lib folder): ") + (e ? e : "?");
      return;
    }
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib.handle, name));
      if (!fn && lib.error.empty()) lib.error = std::string("libnccl.so.2 lacks ") + name;
    };
    sym(lib.GetVersion, "ncclGetVersion");
    sym(lib.GetUniqueId, "ncclGetUniqueId");
    sym(lib.CommInitRank, "ncclCommInitRank");
    sym(lib.CommDestroy, "ncclCommDestroy");
    sym(lib.CommAbort, "ncclCommAbort");
    sym(lib.GroupStart, "ncclGroupStart");
    sym(lib.GroupEnd, "ncclGroupEnd");
    sym(lib.Send, "ncclSend");
    sym(lib.Recv, "ncclRecv");
    sym(lib.AllReduce, "ncclAllReduce");
    sym(lib.GetErrorString, "ncclGetErrorString");
    sym(lib.GetLastError, "ncclGetLastError");
  });
  return lib;
}

const NcclLib& Need() {
  const NcclLib& n = Lib();
  if (!n.error.empty()) throw std::runtime_error(n.error);
  return n;
}

void NcclCheck(NcclResult r, const char* what, NcclComm comm = nullptr) {
  if (r == kNcclSuccess) return;
  const NcclLib& n = Lib();
  std::string msg = std::string(what) + ": " + n.GetErrorString(r);
  if (const char* last = n.GetLastError(comm); last && *last) msg += std::string(" (") + last + ")";
  throw std::runtime_error(msg);
}

void CudaCheck(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

class NcclTransport final : public RingTransport {
 public:
  NcclTransport(int rank, int ranks, const NcclId& id) : rank_(rank), ranks_(ranks) {
    const NcclLib& n = Need();
    NcclUniqueIdAbi uid;
    std::memcpy(uid.internal, id.data(), sizeof uid.internal);
    NcclCheck(n.CommInitRank(&comm_, ranks, uid, rank), "ncclCommInitRank");
    CudaCheck(cudaMalloc(&scratch_, 4), "cudaMalloc(barrier scratch)");
    CudaCheck(cudaMemset(scratch_, 0, 4), "cudaMemset(barrier scratch)");  // summed by the barrier: defined bytes
  }
  ~NcclTransport() override {
    if (comm_) Lib().CommDestroy(comm_);
    if (scratch_) cudaFree(scratch_);
  }
  void Abort() override {
    if (comm_) Lib().CommAbort(comm_);  // pending sends and receives end; the communicator is freed
    comm_ = nullptr;
  }
  const char* Name() const override { return "nccl"; }
  int Rank() const override { return rank_; }
  int Ranks() const override { return ranks_; }

  void Exchange(int /*step*/, const void* send, std::size_t send_bytes, void* recv, std::size_t recv_bytes,
                cudaStream_t comm) override {
    const NcclLib& n = Lib();
    NcclCheck(n.GroupStart(), "ncclGroupStart", comm_);
    // The group is always closed, also when a call in it fails, before that failure is reported.
    const auto sent = n.Send(send, send_bytes, kNcclUint8, (rank_ + 1) % ranks_, comm_, comm);
    const auto got = n.Recv(recv, recv_bytes, kNcclUint8, (rank_ + ranks_ - 1) % ranks_, comm_, comm);
    const auto ended = n.GroupEnd();
    NcclCheck(sent, "ncclSend", comm_);
    NcclCheck(got, "ncclRecv", comm_);
    NcclCheck(ended, "ncclGroupEnd", comm_);
  }

  void Barrier(cudaStream_t stream) override {
    NcclCheck(Lib().AllReduce(scratch_, scratch_, 1, kNcclFloat32, kNcclSum, comm_, stream), "ncclAllReduce(barrier)", comm_);
    CudaCheck(cudaStreamSynchronize(stream), "cudaStreamSynchronize(barrier)");
  }

 private:
  int rank_, ranks_;
  NcclComm comm_ = nullptr;
  void* scratch_ = nullptr;
};

}  // namespace

bool NcclAvailable(std::string* version_or_why) {
  const NcclLib& n = Lib();
  if (!n.error.empty()) {
    if (version_or_why) *version_or_why = n.error;
    return false;
  }
  int v = 0;
  if (n.GetVersion(&v) != kNcclSuccess) {
    if (version_or_why) *version_or_why = "ncclGetVersion failed";
    return false;
  }
  if (version_or_why) {  // NCCL_VERSION_CODE: major·10000 + minor·100 + patch (2.9 and later)
    char buf[32];
    std::snprintf(buf, sizeof buf, "%d.%d.%d", v / 10000, (v / 100) % 100, v % 100);
    *version_or_why = buf;
  }
  return true;
}

NcclId NcclUniqueId() {
  NcclUniqueIdAbi uid{};
  NcclCheck(Need().GetUniqueId(&uid), "ncclGetUniqueId");
  NcclId id;
  std::memcpy(id.data(), uid.internal, id.size());
  return id;
}

std::unique_ptr<RingTransport> MakeNcclTransport(int rank, int ranks, const NcclId& id) {
  return std::make_unique<NcclTransport>(rank, ranks, id);
}

}  // namespace bw::cuda
