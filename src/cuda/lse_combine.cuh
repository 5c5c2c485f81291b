// lse_combine.cuh — the log-sum-exp merge of partial attention results, shared by the split-KV
// combine (kernel_decode.cu, issue 34) and the ring's merge (ring_rank.cu, issue 36): partials
// (O_s, lse_s), each O_s normalised over its own keys and lse_s = ln Σ e^{scaled scores} over them, merge
// into lse = ln Σ_s e^{lse_s} and O = Σ_s e^{lse_s − lse} O_s. Computed against mx = max_s lse_s:
// w_s = e^{lse_s − mx}, O = (Σ_s w_s O_s) / Σ_s w_s, lse = mx + ln Σ_s w_s. An empty partial
// (every key masked: O_s = 0, lse_s = −∞) has weight 0; all empty gives O = 0 and lse = −∞, never NaN.
// Source: FlashAttention-2 (Dao 2023) Algorithm 1 lines 8–10 and 12, the rescale by e^{m_old − m_new};
// Flash-Decoding's combine (Dao, Haziza, Massa, Sizov 2023). fp32 throughout.
#pragma once

#include <cuda_runtime.h>

namespace bw::cuda::dev {

// w_s = e^{lse_s − mx}; 0 when mx = −∞ (every partial empty).
__device__ __forceinline__ float CombineWeight(float lse_s, float mx) { return mx == -INFINITY ? 0.f : expf(lse_s - mx); }
// 1 / Σ_s w_s, or 0 when the sum is 0 (O = 0 for a row with no key).
__device__ __forceinline__ float CombineInverse(float sum) { return sum > 0.f ? 1.f / sum : 0.f; }
// lse = mx + ln Σ_s w_s, or −∞ when the sum is 0.
__device__ __forceinline__ float CombineLse(float mx, float sum) { return sum > 0.f ? mx + logf(sum) : -INFINITY; }

}  // namespace bw::cuda::dev
