// ScenarioModel for "moe" scenarios: an MoE layer's parameter accounting and a top-k router run
// (engine/moe.h), shown as expert boxes with their loads, the token being routed and its arrows.
// Events: 0 = before any token (the accounting), t = 1…T after routing token t, T + 1 = the summary.
// Positions: start, token:N (1-based), end, event:N (1-based).
#pragma once

#include "data/moe_scenario.h"
#include "engine/moe.h"
#include "view/scenario_model.h"

namespace bw::view {

class MoeModel final : public ScenarioModel {
 public:
  explicit MoeModel(data::MoeScenario sc);
  std::string Kind() const override { return "moe"; }
  const data::LocalText& Title() const override { return scenario_.title; }
  const std::string& File() const override { return scenario_.file; }
  int EventCount() const override;
  std::string EventLabel(int e) const override;
  int FindPosition(const std::string& position) const override;
  std::string PositionHelp() const override;
  Scene BuildScene(int e, const std::string& lang, const Palette& palette) const override;
  std::vector<PanelSection> Panels(int e, const std::string& lang) const override;
  // {shared_params} {expert_params} {experts} {top_k} {total_params} {active_params} {idle_params}
  // {experts_total_params} {experts_active_params} {active_fraction} {total_params_exact}
  // {active_params_exact} {tokens} {assignments} {capacity} {capacity_factor} {dropped_assignments}
  // {tokens_fully_dropped} {max_demand} {imbalance} {demand} {served} (per-expert vectors, final)
  // {demand:E} {served:E} {dropped:E} (final, E 1-based) {load_now:E} (served after this event)
  // {token} {token_experts} {token_gates} {token_dropped} (the token routed at this event; "—" at 0)
  Quantities QuantitiesAt(int e) const override;
  std::vector<TimelineMark> BlockMarks() const override;
  std::vector<std::string> Texts() const override;

  const engine::MoeParameterCount& count() const { return count_; }
  const engine::RouterResult& routing() const { return routing_; }

 private:
  std::int64_t TokenAt(int e) const;   // token routed at event e (0-based), −1 for none

  data::MoeScenario scenario_;
  engine::MoeParameterCount count_;
  engine::RouterResult routing_;
};

// "1.0B", "0.4B", "0.25B", "50M", "7K", "12": parameter counts read from the back of a room.
std::string FormatParams(std::int64_t n);

}  // namespace bw::view
