// blockwise-ring — runs the GPU ring-attention forward (ring_cuda.h, issue 36) and writes its recording
// (ring_record.h, "kind": "ring_run").
//
//   --transport nccl   one process per rank, forked here, rank r pinned to GPU r, over NCCL;
//   --transport local  every rank a thread of this process on GPU 0 (NOT NCCL: device-to-device copies).
//
// Why a launcher of our own (plain fork + pipes) and not torchrun or mpirun: the binaries run where only a
// CUDA driver and torch's libnccl.so.2 exist (no MPI, and torchrun would tie a C++ program to a Python
// install for nothing but its process start). What a launcher must do is small: start R processes, hand
// every one rank 0's ncclUniqueId (here down a pipe), pin each to its GPU, collect their results. Every
// process gets NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1 and NVSHMEM_DISABLE_NVLS=1 (NVLink
// multicast stays off; nothing here calls cuMulticastCreate). The parent never touches CUDA before it
// forks (a CUDA context does not survive fork); a short child counts the GPUs. With fewer GPUs than ranks
// it says so and stops; --allow-shared-gpu pins rank r to GPU r mod count anyway, to see NCCL's own answer
// (2.28.9 refuses: "Duplicate GPU detected").
//
// Exit status: 0 ran and matched the one-GPU run; 1 mismatch; 2 bad options; 3 too few GPUs; 4 a failure.
#include "cuda/ring_cuda.h"
#include "cuda/ring_record.h"

#include <CLI/CLI.hpp>
#include <cuda_runtime.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "engine/ring.h"

namespace {

using namespace bw::cuda;
using nlohmann::json;

struct Args {
  std::string transport = "local", order = "zigzag", json_path;
  int ranks = 2, n = 4096, d = 128, heads = 8, warmup = 2, timeout_s = 120;
  unsigned seed = 1;
  bool causal = false, check = true, allow_shared = false;
};

Problem MakeProblem(const Args& a) {
  Problem p;
  p.n_q = p.n_k = a.n;
  p.d = p.d_v = a.d;
  p.heads = a.heads;
  p.scale = 1.f / std::sqrt(static_cast<float>(a.d));
  p.mask.kind = a.causal ? MaskKind::CausalTopLeft : MaskKind::None;
  std::mt19937 rng(a.seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const size_t e = static_cast<size_t>(a.heads) * a.n * a.d;
  for (auto* x : {&p.q, &p.k, &p.v}) {
    x->resize(e);
    for (float& f : *x) f = u(rng);
  }
  for (float& f : p.q) f *= 3.f;  // logits spread enough that the running max matters
  return p;
}

RingOptions RingOpts(const Args& a) {
  RingOptions o;
  o.ranks = a.ranks;
  o.order = a.order == "zigzag" ? bw::engine::RingOrder::kZigZag : bw::engine::RingOrder::kContiguous;
  o.warmup = a.warmup;
  return o;
}

// The one-GPU tensor-core kernel on the whole problem (run twice: the second is timed), against `rows`.
RingCheck CheckRows(const Problem& p, const std::vector<float>& o, const std::vector<float>& lse, const std::vector<int>& rows,
                    double* one_gpu_ms) {
  Options opt;
  opt.record_tiles = false;
  RunTensorCore(p, true, opt);
  const Output ref = RunTensorCore(p, true, opt);
  *one_gpu_ms = ref.run.kernel_ms;
  return CompareRing(o, lse, ref.o, ref.lse, p.heads, p.n_q, p.d, rows,
                     "the one-GPU tensor-core FA-2 kernel (RunTensorCore, bf16) on the whole problem");
}

json CheckJson(const RingCheck& c) {
  return {{"against", c.against}, {"max_abs_o", std::isfinite(c.max_abs_o) ? c.max_abs_o : 1e300},
          {"max_abs_lse", std::isfinite(c.max_abs_lse) ? c.max_abs_lse : 1e300}, {"mismatches", c.mismatches}, {"nan", c.nan}};
}

// The run's times into the recording; the bytes the rank sent must be the schedule's (the engine's).
void FillTimes(RingRecording& rec, const RingRankOutput& r) {
  for (RingStepRecord& s : rec.steps) {
    if (s.rank != r.rank) continue;
    const RingStepTimes& t = r.times[static_cast<size_t>(s.step)];
    if (t.bytes_sent != s.bytes_sent)
      throw std::runtime_error("rank " + std::to_string(r.rank) + " sent " + std::to_string(t.bytes_sent) + " bytes at step " +
                               std::to_string(s.step) + ", the schedule says " + std::to_string(s.bytes_sent));
    s.transfer_start_ms = t.transfer_start_ms; s.transfer_end_ms = t.transfer_end_ms;
    s.compute_start_ms = t.compute_start_ms; s.compute_end_ms = t.compute_end_ms; s.merge_end_ms = t.merge_end_ms;
    rec.ring_ms = std::max(rec.ring_ms, t.merge_end_ms);
  }
}

int Finish(const Args& a, RingRecording& rec) {
  std::cout << RingStepTable(rec);
  std::printf("ring: %d ranks over %s (%s), %s%s, N %d, d %d, heads %d: %.4f ms (one GPU, whole problem: %.4f ms); "
              "link bytes per step %lld, total %lld; check: max|dO| %.3g, max|dlse| %.3g, mismatches %lld, NaN %lld -> %s\n",
              rec.ranks, rec.transport.c_str(), rec.device_name.c_str(), rec.order.c_str(), rec.causal ? " causal" : "", rec.n,
              rec.d, rec.heads, rec.ring_ms, rec.one_gpu_ms, (long long)rec.bytes_per_link_per_step, (long long)rec.total_link_bytes,
              rec.check.max_abs_o, rec.check.max_abs_lse, (long long)rec.check.mismatches, (long long)rec.check.nan,
              !a.check ? "not checked" : rec.check.passed ? "PASS" : "FAIL");
  if (!a.json_path.empty()) {
    std::ofstream(a.json_path) << RingRecordingToJson(rec);
    std::printf("recording: %s\n", a.json_path.c_str());
  }
  return a.check && !rec.check.passed ? 1 : 0;
}

int RunLocal(const Args& a, const Problem& p, RingRecording& rec) {
  const RingOutput out = RunRingLocal(p, RingOpts(a));
  rec.transport = "local";
  rec.transport_note = "local: every rank a thread of one process on one GPU, shards copied device to device "
                       "(cudaMemcpyAsync) on each rank's communication stream; not NCCL";
  rec.gpus = 1;
  rec.device_name = out.ranks[0].device_name;
  for (const RingRankOutput& r : out.ranks) FillTimes(rec, r);
  if (a.check) rec.check = CheckRows(p, out.o, out.lse, {}, &rec.one_gpu_ms);
  return Finish(a, rec);
}

// --- NCCL: one process per rank -------------------------------------------------------------------

bool WriteAll(int fd, const void* p, size_t n) {
  for (const char* c = static_cast<const char*>(p); n;) {
    const ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR) continue;  // a signal arrived first: nothing was written
    if (w <= 0) return false;
    c += w; n -= static_cast<size_t>(w);
  }
  return true;
}
bool ReadAll(int fd, void* p, size_t n) {
  for (char* c = static_cast<char*>(p); n;) {
    const ssize_t r = read(fd, c, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    c += r; n -= static_cast<size_t>(r);
  }
  return true;
}

// In a child, so the parent stays free of CUDA (and of NCCL's library) until every rank has forked: the GPU
// count, and NCCL's version or why it cannot be opened.
int CountGpus(std::string* why, std::string* nccl) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    int n = 0;
    std::string version;
    const bool have = NcclAvailable(&version);
    const cudaError_t e = cudaGetDeviceCount(&n);
    const std::string msg = (have ? "1" : "0") + version + "\n" +
                            (e == cudaSuccess ? std::to_string(n) : std::string("-1 ") + cudaGetErrorString(e));
    WriteAll(fds[1], msg.data(), msg.size());
    _exit(0);
  }
  close(fds[1]);
  std::string msg;
  char buf[256];
  for (ssize_t r; (r = read(fds[0], buf, sizeof buf)) != 0;) {
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) break;
    msg.append(buf, static_cast<size_t>(r));
  }
  close(fds[0]);
  while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {}
  const size_t nl = msg.find('\n');
  if (nl == std::string::npos) { *nccl = "0the GPU probe failed"; return 0; }
  *nccl = msg.substr(0, nl);
  msg = msg.substr(nl + 1);
  if (msg.rfind("-1", 0) == 0) { *why = msg.substr(3); return 0; }
  return msg.empty() ? 0 : std::stoi(msg);
}

// A rank's process: gets the id (rank 0 makes it and sends it up), runs, checks its rows, reports a JSON line.
[[noreturn]] void RankMain(const Args& a, int rank, int gpus, int up_fd, int down_fd, int result_fd) {
  json res = {{"rank", rank}};
  int code = 0;
  try {
    const Problem p = MakeProblem(a);
    NcclId id{};
    if (rank == 0) {
      id = NcclUniqueId();
      if (!WriteAll(up_fd, id.data(), id.size())) throw std::runtime_error("could not pass the NCCL id to the launcher");
    } else if (!ReadAll(down_fd, id.data(), id.size())) {
      throw std::runtime_error("no NCCL id from the launcher (rank 0 failed?)");
    }
    const int device = a.allow_shared && gpus > 0 ? rank % gpus : rank;
    const RingRankOutput out = RunRingNcclRank(p, RingOpts(a), rank, id, device);
    res["device"] = out.device_name;
    res["gpu"] = device;
    json times = json::array();
    for (const RingStepTimes& t : out.times)
      times.push_back({t.transfer_start_ms, t.transfer_end_ms, t.compute_start_ms, t.compute_end_ms, t.merge_end_ms, t.bytes_sent});
    res["times"] = times;
    if (a.check) {
      const RingSchedule s = ScheduleFor(p, RingOpts(a));
      std::vector<float> o, lse;
      ScatterRankRows(s, out, o, lse);
      double ms = 0;
      res["check"] = CheckJson(CheckRows(p, o, lse, s.shard_rows[static_cast<size_t>(rank)], &ms));
      res["one_gpu_ms"] = ms;
    }
  } catch (const std::exception& e) {
    res["error"] = e.what();
    code = 4;
  }
  const std::string line = res.dump() + "\n";
  WriteAll(result_fd, line.data(), line.size());
  _exit(code);
}

int RunNccl(const Args& a, RingRecording& rec) {
  std::string why, nccl;
  const int gpus = CountGpus(&why, &nccl);
  const std::string version = nccl.empty() ? "" : nccl.substr(1);
  if (nccl.rfind("1", 0) != 0) {
    std::fprintf(stderr, "blockwise-ring: NCCL transport unavailable: %s\n", version.c_str());
    return 4;
  }
  if (gpus < a.ranks && !a.allow_shared) {
    std::fprintf(stderr,
                 "blockwise-ring: %d ranks need %d GPUs for NCCL (one per rank; NCCL refuses two ranks on one GPU), "
                 "this machine has %d%s%s. On one GPU use --transport local (every rank a thread on that GPU, not NCCL), "
                 "or --allow-shared-gpu to see NCCL's own refusal.\n",
                 a.ranks, a.ranks, gpus, why.empty() ? "" : ": ", why.c_str());
    return 3;
  }
  std::printf("launcher: NCCL %s, %d GPUs, %d ranks%s\n", version.c_str(), gpus, a.ranks,
              gpus < a.ranks ? " (ranks share GPUs: --allow-shared-gpu)" : "");
  std::fflush(stdout);
  // A write to a rank that has exited (its down pipe) or by rank 0 to a launcher past its deadline (the id pipe)
  // fails with EPIPE instead of killing the writer without a word; the ranks inherit this.
  signal(SIGPIPE, SIG_IGN);
  int up[2];
  if (pipe(up) != 0) throw std::runtime_error("pipe");
  std::vector<int> down_w, result_r;
  std::vector<pid_t> pids;
  for (int r = 0; r < a.ranks; ++r) {
    int down[2], result[2];
    if (pipe(down) != 0 || pipe(result) != 0) throw std::runtime_error("pipe");
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork");
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // no rank outlives a launcher that was stopped
      close(up[0]); close(down[1]); close(result[0]);
      if (r != 0) close(up[1]);  // only rank 0 writes the id: if it dies first, the launcher sees the pipe's end at once
      for (int fd : down_w) close(fd);
      for (int fd : result_r) close(fd);
      RankMain(a, r, gpus, up[1], down[0], result[1]);
    }
    close(down[0]); close(result[1]);
    down_w.push_back(down[1]);
    result_r.push_back(result[0]);
    pids.push_back(pid);
  }
  close(up[1]);
  NcclId id{};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(a.timeout_s);
  auto ms_left = [&] {
    return static_cast<int>(std::max<long long>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count()));
  };
  pollfd idfd{up[0], POLLIN, 0};
  const bool have_id = poll(&idfd, 1, ms_left()) > 0 && ReadAll(up[0], id.data(), id.size());  // from rank 0
  close(up[0]);
  for (size_t r = 1; r < down_w.size(); ++r)
    if (have_id) WriteAll(down_w[r], id.data(), id.size());
  for (int fd : down_w) close(fd);
  // Collect one JSON line per rank, within the time limit; then stop the rest.
  std::vector<std::string> lines(static_cast<size_t>(a.ranks));
  std::vector<bool> open(static_cast<size_t>(a.ranks), true);
  for (int left = a.ranks; left > 0;) {
    std::vector<pollfd> fds;
    for (int r = 0; r < a.ranks; ++r)
      if (open[static_cast<size_t>(r)]) fds.push_back({result_r[static_cast<size_t>(r)], POLLIN, 0});
    const int ms = ms_left();
    if (ms <= 0) break;
    const int ready = poll(fds.data(), fds.size(), ms);
    if (ready < 0 && errno == EINTR) continue;  // interrupted: poll again with the time left
    if (ready <= 0) break;
    for (const pollfd& f : fds) {
      if (!(f.revents & (POLLIN | POLLHUP))) continue;
      const int r = static_cast<int>(std::find(result_r.begin(), result_r.end(), f.fd) - result_r.begin());
      char buf[4096];
      const ssize_t n = read(f.fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) { lines[static_cast<size_t>(r)].append(buf, static_cast<size_t>(n)); continue; }
      open[static_cast<size_t>(r)] = false;
      --left;
    }
  }
  for (size_t r = 0; r < pids.size(); ++r)
    if (open[r]) { std::fprintf(stderr, "blockwise-ring: rank %zu gave no result in %d s; stopping it\n", r, a.timeout_s); kill(pids[r], SIGKILL); }
  for (pid_t pid : pids)
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {}
  for (int fd : result_r) close(fd);
  rec.transport = "nccl";
  rec.nccl_version = version;
  rec.transport_note = "nccl: one process per GPU, ncclSend/ncclRecv in one group per step on each rank's communication stream";
  rec.gpus = std::min(gpus, a.ranks);
  bool failed = false;
  rec.check = RingCheck{};
  rec.check.tol_abs = kRingTolAbs; rec.check.tol_rel = kRingTolRel; rec.check.tol_lse = kRingTolLse;
  for (int r = 0; r < a.ranks; ++r) {
    json res;
    try { res = json::parse(lines[static_cast<size_t>(r)]); } catch (...) { res = {{"error", "no result (the process died or was stopped)"}}; }
    if (res.contains("error")) {
      std::fprintf(stderr, "blockwise-ring: rank %d failed: %s\n", r, res["error"].get<std::string>().c_str());
      failed = true;
      continue;
    }
    rec.device_name = res["device"].get<std::string>();
    RingRankOutput times;
    times.rank = r;
    for (const auto& t : res["times"])
      times.times.push_back({t[0].get<double>(), t[1].get<double>(), t[2].get<double>(), t[3].get<double>(), t[4].get<double>(),
                             t[5].get<long long>()});
    FillTimes(rec, times);
    if (res.contains("check")) {
      const json& c = res["check"];
      rec.check.against = c["against"].get<std::string>();
      rec.check.max_abs_o = std::max(rec.check.max_abs_o, c["max_abs_o"].get<double>());
      rec.check.max_abs_lse = std::max(rec.check.max_abs_lse, c["max_abs_lse"].get<double>());
      rec.check.mismatches += c["mismatches"].get<std::int64_t>();
      rec.check.nan += c["nan"].get<std::int64_t>();
      rec.one_gpu_ms = std::max(rec.one_gpu_ms, res["one_gpu_ms"].get<double>());
    }
  }
  if (failed) return 4;
  rec.check.passed = rec.check.mismatches == 0 && rec.check.nan == 0;
  return Finish(a, rec);
}

int Probe() {
  std::string version;
  const bool nccl = NcclAvailable(&version);
  std::printf("NCCL: %s\n", nccl ? version.c_str() : ("unavailable: " + version).c_str());
  if (std::string why; !GpuAvailable(&why)) {
    std::printf("GPUs: none (%s)\n", why.c_str());
  } else {
    int n = 0;
    cudaGetDeviceCount(&n);
    for (int i = 0; i < n; ++i) {
      cudaDeviceProp prop{};
      cudaGetDeviceProperties(&prop, i);
      std::printf("GPU %d: %s, %d SMs\n", i, prop.name, prop.multiProcessorCount);
    }
  }
  if (nccl) {
    try { std::printf("ncclGetUniqueId: ok (%zu bytes)\n", NcclUniqueId().size()); }
    catch (const std::exception& e) { std::printf("ncclGetUniqueId: %s\n", e.what()); }
  }
  for (const char* v : {"NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST", "NVSHMEM_DISABLE_NVLS"})
    std::printf("%s=%s\n", v, std::getenv(v) ? std::getenv(v) : "(unset)");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (const char* v : {"NCCL_NVLS_ENABLE=0", "TORCH_SYMM_MEM_DISABLE_MULTICAST=1", "NVSHMEM_DISABLE_NVLS=1"})
    putenv(const_cast<char*>(v));  // inherited by every rank's process
  Args a;
  CLI::App app{"Ring attention on GPUs (issue 36): NCCL, one process per GPU, or the local transport on one GPU"};
  app.add_option("--transport", a.transport, "nccl (one process per GPU) or local (threads on GPU 0; not NCCL)")
      ->check(CLI::IsMember({"nccl", "local"}));
  app.add_option("--ranks", a.ranks, "ranks of the ring")->check(CLI::Range(1, 8));
  app.add_option("--n", a.n, "sequence length N (rows of Q, K, V)")->check(CLI::PositiveNumber);
  app.add_option("--d", a.d, "head dimension: 32, 64 or 128")->check(CLI::IsMember({32, 64, 128}));
  app.add_option("--heads", a.heads, "heads")->check(CLI::PositiveNumber);
  app.add_option("--order", a.order, "contiguous or zigzag")->check(CLI::IsMember({"contiguous", "zigzag"}));
  app.add_flag("--causal", a.causal, "causal mask (top-left)");
  app.add_option("--seed", a.seed, "inputs: uniform(-1, 1) (Q ×3) from this seed");
  app.add_option("--warmup", a.warmup, "untimed ring runs before the timed one")->check(CLI::NonNegativeNumber);
  app.add_option("--json", a.json_path, "write the recording (kind ring_run) here");
  app.add_flag("!--no-check", a.check, "skip the comparison with the one-GPU run");
  app.add_flag("--allow-shared-gpu", a.allow_shared, "nccl: pin rank r to GPU r mod count even with fewer GPUs than ranks");
  bool probe = false;
  app.add_flag("--probe", probe, "print NCCL's version, the GPUs and whether an ncclUniqueId can be made, then stop");
  app.add_option("--timeout", a.timeout_s, "nccl: seconds to wait for the ranks")->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);
  if (probe) return Probe();
  try {
    const Problem p = MakeProblem(a);
    RingRecording rec = RecordingFromSchedule(ScheduleFor(p, RingOpts(a)), a.seed);
    rec.warmup = a.warmup;
    return a.transport == "local" ? RunLocal(a, p, rec) : RunNccl(a, rec);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "blockwise-ring: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "blockwise-ring: %s\n", e.what());
    return 4;
  }
}
