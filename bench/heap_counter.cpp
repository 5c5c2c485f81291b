// The benchmarks' heap counter; see heap_counter.h. Every malloc, calloc, realloc, memalign and
// free of the process goes through here to glibc's own (__libc_*) and is counted by its usable size.
#include "heap_counter.h"

#include <malloc.h>

#include <atomic>
#include <cstddef>

extern "C" {
void* __libc_malloc(size_t);
void __libc_free(void*);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
}

namespace {
std::atomic<long long> g_now{0}, g_peak{0};
// A plain bool in the executable's static TLS block: reading it never allocates (no TLS wrapper).
thread_local constinit bool t_uncounted = false;
void Track(void* p) {
  if (!p || t_uncounted) return;
  const long long now = g_now.fetch_add(static_cast<long long>(malloc_usable_size(p))) +
                        static_cast<long long>(malloc_usable_size(p));
  long long peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
}
void Untrack(void* p) {
  if (p && !t_uncounted) g_now.fetch_sub(static_cast<long long>(malloc_usable_size(p)));
}
}  // namespace

extern "C" {
void* malloc(size_t n) {
  void* p = __libc_malloc(n);
  Track(p);
  return p;
}
void free(void* p) {
  Untrack(p);
  __libc_free(p);
}
void* calloc(size_t a, size_t b) {
  void* p = __libc_calloc(a, b);
  Track(p);
  return p;
}
void* realloc(void* old, size_t n) {
  Untrack(old);
  void* p = __libc_realloc(old, n);
  Track(p ? p : (n ? old : nullptr));
  return p;
}
void* memalign(size_t a, size_t n) {
  void* p = __libc_memalign(a, n);
  Track(p);
  return p;
}
void* aligned_alloc(size_t a, size_t n) { return memalign(a, n); }
int posix_memalign(void** out, size_t a, size_t n) {
  *out = memalign(a, n);
  return *out ? 0 : 12;  // ENOMEM
}
}

long long bw::bench::HeapNow() { return g_now.load(); }
long long bw::bench::HeapPeak() { return g_peak.load(); }
void bw::bench::ResetHeapPeak() { g_peak.store(g_now.load()); }
void bw::bench::SetThreadUncounted(bool uncounted) { t_uncounted = uncounted; }
