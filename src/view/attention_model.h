// ScenarioModel for "attention" scenarios (file v2): full Q/K/V attention run by the engine in the
// scenario's order (reference, FlashAttention-2 or -1) with a trace, beside untraced runs of the
// other paths for the counter comparison. Block and tile numbers on screen are 1-based, as in the
// papers (Q_1 … Q_{T_r}); the engine's trace is 0-based.
// Positions: start, end, event:N (1-based, as every index on screen), tile:I,J (the merge — or skip — of tile (I, J)),
// read:T[:I], write:T[:I], compute:T (T a tensor name: Q K V S P O L m l).
#pragma once

#include <optional>

// P is kept for the heatmap up to this many elements (4096² floats = 64 MiB).
inline constexpr long long kMaxHeatmapElements = 4096LL * 4096;
// The five wrong merges are run beside the right one up to this many score elements.
inline constexpr long long kMaxWrongMergeElements = 256LL * 256;

#include "data/attention_scenario.h"
#include "engine/attention.h"
#include "engine/attention_formulas.h"
#include "view/numerics_panel.h"
#include "view/scenario_model.h"

namespace bw::view {

class AttentionModel final : public ScenarioModel {
 public:
  explicit AttentionModel(data::AttentionScenario sc);
  std::string Kind() const override { return "attention"; }
  const data::LocalText& Title() const override { return scenario_.title; }
  const std::string& File() const override { return scenario_.file; }
  int EventCount() const override;
  std::string EventLabel(int e) const override;
  int FindPosition(const std::string& position) const override;
  std::string PositionHelp() const override;
  Scene BuildScene(int e, const std::string& lang, const Palette& palette) const override;
  std::vector<PanelSection> Panels(int e, const std::string& lang) const override;
  Quantities QuantitiesAt(int e) const override;
  std::vector<TimelineMark> BlockMarks() const override;
  std::vector<std::string> Texts() const override;
  std::optional<Heatmap> HeatmapAt(int e) const override;
  const engine::NumericsReport* Numerics() const override { return &run_.numerics; }
  std::string InputPath(const engine::NumericsEvent& ev) const override { return InputPaths(scenario_)(ev); }

  const engine::AttentionResult& run() const { return run_; }
  const engine::AttentionResult& reference() const { return reference_; }
  std::int64_t T_r() const { return t_r_; }
  std::int64_t T_c() const { return t_c_; }

 private:
  bool Tiled() const { return run_.algorithm != engine::Algorithm::kReference; }

  data::AttentionScenario scenario_;
  engine::AttentionResult run_;        // the scenario's order, traced
  engine::AttentionResult reference_;  // Algorithm 0, for the comparison (untraced)
  std::optional<engine::AttentionResult> flash2_, flash1_;  // untraced, when tiles are known
  // "backward": true with tiles: FA-2 Algorithm 2 (recompute P per tile) beside the materialising
  // backward (FA-1 Algorithm 3), for the {bwd_…} placeholders.
  std::optional<engine::BackwardResult> bwd_recompute_, bwd_reference_;
  std::optional<engine::CounterFormula> formula_;
  engine::CompareReport check_;        // run_.O against reference_.O
  // The wrong merges as the engine runs them (FA-2 order), for small problems: variant → O.
  std::vector<std::pair<engine::MergeVariant, engine::AttentionMatrix>> wrong_;
  std::int64_t t_r_ = 1, t_c_ = 1;
};

}  // namespace bw::view
