// Heap use of this process, for the benchmarks' "extra memory" figures: heap_counter.cpp
// interposes malloc/free (and calloc, realloc, memalign) and counts the usable size of every live
// block, in BYTES. Link heap_counter.cpp into the executable that reads it.
#pragma once

namespace bw::bench {

long long HeapNow();     // bytes allocated and not yet freed
long long HeapPeak();    // the most HeapNow() has been since the last ResetHeapPeak()
void ResetHeapPeak();    // peak := now

}  // namespace bw::bench
