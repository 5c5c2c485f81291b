// See moe_plan.h.
#include "engine/moe_plan.h"

#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace bw::engine {

ComputeEstimate EstimateTrainingCompute(const MoeParameterCount& c, std::int64_t training_tokens) {
  if (training_tokens < 0) throw std::invalid_argument("training tokens D must be >= 0");
  if (c.active_per_token <= 0) throw std::invalid_argument("active parameters must be > 0 for the ratio");
  ComputeEstimate e;
  const BigInt D(training_tokens);
  e.with_total = BigInt(6) * BigInt(c.total) * D;
  e.with_active = BigInt(6) * BigInt(c.active_per_token) * D;
  const std::int64_t g = std::gcd(c.total, c.active_per_token);
  e.ratio_num = c.total / g;
  e.ratio_den = c.active_per_token / g;
  return e;
}

ExpertParallelPlan PlanExpertParallel(const RouterResult& r, std::int64_t devices) {
  if (devices < 1 || devices > r.experts)
    throw std::invalid_argument("devices = " + std::to_string(devices) + ": must be 1 … experts (" +
                                std::to_string(r.experts) + ")");
  ExpertParallelPlan p;
  p.devices = devices, p.experts = r.experts, p.tokens = r.tokens;
  for (std::int64_t e = 0; e < r.experts; ++e) p.device_of_expert.push_back(e * devices / r.experts);
  for (std::int64_t t = 0; t < r.tokens; ++t) p.home_of_token.push_back(t * devices / std::max<std::int64_t>(1, r.tokens));
  p.dispatch.assign(static_cast<size_t>(devices), std::vector<std::int64_t>(static_cast<size_t>(devices), 0));
  p.load.assign(static_cast<size_t>(devices), 0);
  for (std::int64_t t = 0; t < r.tokens; ++t) {
    const auto& rt = r.routes[static_cast<size_t>(t)];
    for (size_t s = 0; s < rt.experts.size(); ++s) {
      if (rt.dropped[s]) continue;   // over capacity: never sent
      const std::int64_t from = p.home_of_token[static_cast<size_t>(t)];
      const std::int64_t to = p.device_of_expert[static_cast<size_t>(rt.experts[s])];
      ++p.dispatch[static_cast<size_t>(from)][static_cast<size_t>(to)];
      ++p.load[static_cast<size_t>(to)];
    }
  }
  for (std::int64_t a = 0; a < devices; ++a)
    for (std::int64_t b = 0; b < devices; ++b) {
      const std::int64_t n = p.dispatch[static_cast<size_t>(a)][static_cast<size_t>(b)];
      if (a == b) {
        p.local_copies += n;
      } else {
        p.remote_copies += n;
        p.busiest_link = std::max(p.busiest_link, n);
      }
    }
  for (std::int64_t d = 0; d < devices; ++d)
    if (p.load[static_cast<size_t>(d)] > p.busiest_load) p.busiest_load = p.load[static_cast<size_t>(d)], p.busiest_device = d;
  return p;
}

namespace {

std::int64_t Mul(std::int64_t a, std::int64_t b, const char* what) {
  if (a != 0 && b > std::numeric_limits<std::int64_t>::max() / a)
    throw std::invalid_argument(std::string(what) + " overflows 64 bits");
  return a * b;
}

std::int64_t BitsToBytes(std::int64_t params, std::int64_t bits, const char* what) {
  const std::int64_t b = Mul(params, bits, what);
  return b / 8 + (b % 8 != 0);
}

}  // namespace

CpuGpuPlacement PlaceCpuGpu(const MoeConfig& c, std::int64_t hidden, std::int64_t activation_bytes,
                            std::int64_t weight_bits) {
  if (hidden < 1) throw std::invalid_argument("hidden size must be >= 1");
  if (activation_bytes < 1) throw std::invalid_argument("activation bytes must be >= 1");
  if (weight_bits < 1) throw std::invalid_argument("weight bits must be >= 1");
  CpuGpuPlacement p;
  p.weight_bits = weight_bits;
  p.gpu_weight_bytes = BitsToBytes(c.shared_params, weight_bits, "shared weights");
  p.cpu_weight_bytes = BitsToBytes(Mul(c.experts, c.expert_params, "expert weights"), weight_bits, "expert weights");
  p.link_bytes_each_way = Mul(hidden, activation_bytes, "activations");
  p.link_bytes_per_token = Mul(2, p.link_bytes_each_way, "activations");
  p.expert_bytes_per_token = BitsToBytes(Mul(c.top_k, c.expert_params, "chosen experts"), weight_bits, "chosen experts");
  return p;
}

}  // namespace bw::engine
