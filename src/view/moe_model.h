// ScenarioModel for "moe" scenarios: an MoE layer's parameter accounting and a top-k router run
// (engine/moe.h), shown as expert boxes with their loads, the token being routed and its arrows.
// Events: 0 = before any token (the accounting), t = 1…T after routing token t, T + 1 = the summary.
// With "deployment" (moe_views.cpp): T + 2 = the compute estimate C_train ≈ 6·N·D, T + 3 … T + 5 =
// expert parallelism (dispatch, experts compute, combine), T + 6 = the CPU/GPU placement and
// T + 7 … 2T + 6 = the placement while token t is routed.
// Positions (grammar: data/position.h): start, token:N (1-based), end, event:N (1-based); with "deployment" also compute,
// ep:dispatch, ep:compute, ep:combine, cpu_gpu, cpu_gpu:token:N.
#pragma once

#include <cstdint>

#include "data/moe_scenario.h"
#include "engine/moe.h"
#include "engine/moe_plan.h"
#include "view/scenario_model.h"

namespace bw::view {

// An expert's load is drawn as one square per routed token up to this many (the tallest stack);
// past it, as one bar of served and one of dropped tokens (scene rects "load.X.served" / ".dropped").
inline constexpr std::int64_t kMaxLoadSquares = 64;

class MoeModel final : public ScenarioModel {
 public:
  explicit MoeModel(data::MoeScenario sc);
  std::string Kind() const override { return "moe"; }
  const data::LocalText& Title() const override { return scenario_.title; }
  const std::string& File() const override { return scenario_.file; }
  int EventCount() const override;
  std::string EventLabel(int e) const override;
  std::vector<data::AcceptedPosition> AcceptedPositions() const override;
  int Find(const data::Position& position) const override;
  using ScenarioModel::BuildScene;
  Scene BuildScene(int e, const std::string& lang, const Palette& palette, const SceneFrame& frame) const override;
  std::vector<PanelSection> Panels(int e, const std::string& lang) const override;
  // {shared_params} {expert_params} {experts} {top_k} {total_params} {active_params} {idle_params}
  // {experts_total_params} {experts_active_params} {active_fraction} {total_params_exact}
  // {active_params_exact} {tokens} {assignments} {capacity} {capacity_factor} {dropped_assignments}
  // {tokens_fully_dropped} {max_demand} {imbalance} {demand} {served} (per-expert vectors, final)
  // {demand:E} {served:E} {dropped:E} (final, E 1-based) {load_now:E} (served after this event)
  // {token} {token_experts} {token_gates} {token_dropped} (the token routed at this event; "—" at 0)
  // With "deployment": {training_tokens} {compute_total} {compute_active} (6·N·D, FLOPs)
  // {compute_ratio} ("5/2") {compute_ratio_x} ("2.5×") {ep_devices} {ep_remote} {ep_local}
  // {ep_busiest_device} {ep_busiest_load} {ep_busiest_link} {ep_load} {hidden} {weight_bits}
  // {link_bytes_per_token} {expert_bytes_per_token} {gpu_weight_bytes} {cpu_weight_bytes} (BYTES,
  // exact with separators) and {q_bits} {q_expert_bytes_per_token} {q_cpu_weight_bytes} when quantised.
  Quantities QuantitiesAt(int e) const override;
  std::vector<TimelineMark> BlockMarks() const override;
  std::vector<std::string> Texts() const override;

  const engine::MoeParameterCount& count() const { return count_; }
  const engine::RouterResult& routing() const { return routing_; }
  const std::optional<engine::CpuGpuPlacement>& placement() const { return placement_; }
  const std::optional<engine::ExpertParallelPlan>& expert_parallel() const { return ep_; }
  const std::optional<engine::ComputeEstimate>& compute() const { return compute_; }

 private:
  std::int64_t TokenAt(int e) const;   // token routed at event e (0-based), −1 for none
  int SummaryEvent() const { return static_cast<int>(routing_.tokens) + 1; }
  int ComputeEvent() const { return SummaryEvent() + 1; }
  int ExpertParallelEvent() const { return SummaryEvent() + 2; }   // + 0 dispatch, 1 compute, 2 combine
  int CpuGpuEvent() const { return SummaryEvent() + 5; }           // + 1 + t while token t is routed
  // `floors`: laid out for a projector's or a laptop's LabelFloors (SceneFrame::floors).
  Scene BuildComputeScene(const std::string& lang, const Palette& pal, bool floors) const;
  Scene BuildExpertParallelScene(int phase, const std::string& lang, const Palette& pal, bool floors) const;
  Scene BuildCpuGpuScene(std::int64_t token, const std::string& lang, const Palette& pal, bool floors) const;
  Scene BuildCpuGpuFloorsScene(std::int64_t token, const std::string& lang, const Palette& pal) const;
  void AddNumaNodes(Scene& sc, std::int64_t token, float x, float y, float w, float h, float label_h, float expert_h, bool stored_word,
                    const std::string& lang, const Palette& pal) const;
  void AddDeploymentQuantities(Quantities& q) const;
  std::vector<PanelSection> DeploymentPanels(int e, const std::string& lang) const;

  data::MoeScenario scenario_;
  engine::MoeParameterCount count_;
  engine::RouterResult routing_;
  std::optional<engine::ComputeEstimate> compute_;
  std::optional<engine::ExpertParallelPlan> ep_;
  std::optional<engine::CpuGpuPlacement> placement_, placement_q_;   // weight_bits, quantised_bits
};

// 6.0×10^21: FLOP counts too large for 64 bits, two significant digits (exact below 10^7).
std::string FormatFlops(const engine::BigInt& flops);

// "1.0B", "0.4B", "0.25B", "50M", "7K", "12": parameter counts read from the back of a room.
std::string FormatParams(std::int64_t n);

}  // namespace bw::view
