// Heap use of this process, for the benchmarks' "extra memory" figures: heap_counter.cpp
// interposes malloc/free (and calloc, realloc, memalign) and counts the usable size of every live
// block, in BYTES. Link heap_counter.cpp into the executable that reads it.
// A thread can be left out (SetThreadUncounted): its mallocs and frees are then not counted at all
// (class_load's simulated students, so that what is counted is the server's). A block one thread
// allocates and another frees is counted wrongly when only one of the two is left out.
#pragma once

namespace bw::bench {

long long HeapNow();     // bytes allocated and not yet freed
long long HeapPeak();    // the most HeapNow() has been since the last ResetHeapPeak()
void ResetHeapPeak();    // peak := now
void SetThreadUncounted(bool uncounted);  // the calling thread's mallocs and frees: not counted (true)

}  // namespace bw::bench
