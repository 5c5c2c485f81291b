// engine_adapter.h — the bridge between the CPU engine (src/engine/attention.h, issue 3) and the
// CUDA backend's plain interface: an engine AttentionProblem becomes a bw::cuda::Problem (fp32), and
// the GPU's per-tensor traffic becomes bw::engine::Counters so the two can be compared as integers.
// Plain C++ (no CUDA): the model side (PredictCounters) is testable on machines without a GPU.
// Compared fields: HBM read/write elements of Q K V S P O L, tiles computed, tiles skipped.
#pragma once

#include "cuda/attention_cuda.h"
#include "engine/attention.h"

#include <string>

namespace bw::cuda {

// Q, K, V cast to float, the effective scale, the mask (both causal alignments). One head.
Problem FromEngine(const engine::AttentionProblem& p);
// Tiling{B_r, B_c} from the engine's TileSizes (throws std::invalid_argument if they do not fit an int).
Tiling FromEngine(const engine::TileSizes& t);

// The traffic fields of the GPU counters in the engine's form. element_bytes: 4 for the fp32
// kernels, 2 for the tensor-core kernels (their Q, K, V, O are 16-bit; L is fp32 but is counted
// in elements, so compare elements). SRAM peak, FLOPs and exp counts are left 0.
engine::Counters ToEngine(const Counters& c, Algorithm a);

// "" when the traffic fields (elements per tensor, tiles computed/skipped) agree; otherwise one
// line per difference, e.g. "K reads: gpu 4096, engine 4352".
std::string CompareTraffic(const engine::Counters& gpu, const engine::Counters& engine);

}  // namespace bw::cuda
