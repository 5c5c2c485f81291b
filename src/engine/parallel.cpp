// ParallelFor: std::thread workers pulling indices from one atomic counter (parallel.h).
#include "engine/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace bw::engine::detail {

int EffectiveWorkers(int requested, std::int64_t units) {
  std::int64_t w = requested;
  if (w <= 0) w = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(std::max<std::int64_t>(1, std::min(w, units)));
}

void ParallelFor(std::int64_t n, int workers, const std::function<void(std::int64_t, int)>& body) {
  if (workers <= 1 || n <= 1) {
    for (std::int64_t i = 0; i < n; ++i) body(i, 0);
    return;
  }
  std::atomic<std::int64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  const auto work = [&](int worker) {
    for (std::int64_t i = next.fetch_add(1); i < n && !failed.load(); i = next.fetch_add(1)) {
      try {
        body(i, worker);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        failed.store(true);
      }
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(workers - 1));
  for (int w = 1; w < workers; ++w) {
    try {
      threads.emplace_back(work, w);
    } catch (const std::system_error&) {  // no more threads to be had: the started ones do the work
      break;
    }
  }
  work(0);
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace bw::engine::detail
