// Internal to the engine (not a public header): run a loop body over [0, n) on a few threads, the
// way FlashAttention-2 hands Q blocks to thread blocks (FA-2 §3.2, "Parallelism": the sequence
// length dimension is split across thread blocks, each owning its rows of O). Indices are handed
// out one at a time from an atomic counter; the caller's body must write only what index i owns.
#pragma once

#include <cstdint>
#include <functional>

namespace bw::engine::detail {

// Threads a run uses for `requested` (RunOptions::workers): 0 → std::thread::hardware_concurrency()
// (1 if unknown); never more than `units` (the independent pieces of work), never fewer than 1.
int EffectiveWorkers(int requested, std::int64_t units);

// Calls body(i, worker) once for every i in [0, n), on `workers` threads (this thread is worker 0;
// workers − 1 more are started and joined before returning). worker ∈ [0, workers) names the
// thread, so the body can use per-worker scratch. workers ≤ 1 runs the loop in order on this thread.
// The first exception a body throws is rethrown here, after every thread has stopped; indices not
// yet started are then skipped.
void ParallelFor(std::int64_t n, int workers, const std::function<void(std::int64_t i, int worker)>& body);

}  // namespace bw::engine::detail
