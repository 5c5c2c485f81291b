// ScenarioModel for "attention" scenarios (file v2): full Q/K/V attention run by the engine in the
// scenario's order (reference, FlashAttention-2 or -1) with a trace, beside untraced runs of the
// other paths for the counter comparison. Block and tile numbers on screen are 1-based, as in the
// papers (Q_1 … Q_{T_r}); the engine's trace is 0-based.
// Positions (grammar: data/position.h): start, end, event:N (1-based, as every index on screen), tile:I,J
// (the merge — or skip — of tile (I, J)), read:T[:I], write:T[:I], compute:T (T a tensor name: Q K V S P O L m l).
// With "backward": true and tiles, the events of FlashAttention-2 Algorithm 2 follow the forward's
// on the same timeline ("end" stays the forward's last event): bwd:start, bwd:end,
// bwd:tile:I,J (the gradients of tile (I, J)), bwd:read:T[:I], bwd:write:T[:I], bwd:compute:T
// (T also D dO dQ dK dV).
#pragma once

#include <algorithm>
#include <cstdint>
#include <future>
#include <mutex>
#include <optional>

#include "data/attention_scenario.h"
#include "engine/attention.h"
#include "engine/attention_formulas.h"
#include "view/attention_runs.h"
#include "view/attention_states.h"
#include "view/numerics_panel.h"
#include "view/scenario_model.h"

namespace bw::view {

// (ComparisonMode, when the comparison runs, and ModelOptions, which carries it from whoever opens
// the file: scenario_model.h.)

class AttentionModel final : public ScenarioModel {
 public:
  explicit AttentionModel(data::AttentionScenario sc, ComparisonMode mode = ComparisonMode::kNow);
  ~AttentionModel() override;   // waits for a background comparison
  AttentionModel(const AttentionModel&) = delete;   // states_ points into runs_
  AttentionModel& operator=(const AttentionModel&) = delete;
  std::string Kind() const override { return "attention"; }
  const data::LocalText& Title() const override { return scenario_.title; }
  const std::string& File() const override { return scenario_.file; }
  int EventCount() const override;
  std::string EventLabel(int e) const override;
  std::vector<data::AcceptedPosition> AcceptedPositions() const override;
  int Find(const data::Position& position) const override;
  using ScenarioModel::BuildScene;
  Scene BuildScene(int e, const std::string& lang, const Palette& palette, const SceneFrame& frame) const override;
  std::vector<PanelSection> Panels(int e, const std::string& lang) const override;
  Quantities QuantitiesAt(int e) const override;
  std::vector<TimelineMark> BlockMarks() const override;
  std::vector<std::string> Texts() const override;
  std::optional<Heatmap> HeatmapAt(int e) const override;
  const engine::NumericsReport* Numerics() const override { return &runs_.run.numerics; }
  std::string InputPath(const engine::NumericsEvent& ev) const override { return InputPaths(scenario_)(ev); }

  bool Computing() const override { return !Compared(); }
  int Revision() const override { return Compared() ? 1 : 0; }
  // Waits for (or, kOnRequest, runs) the comparison.
  void FinishComparison() const;

  const data::AttentionScenario& scenario() const { return scenario_; }
  const engine::AttentionResult& run() const { return runs_.run; }
  // These wait for the comparison (FinishComparison).
  const engine::AttentionResult& reference() const { FinishComparison(); return runs_.reference; }
  const AttentionRuns& runs() const { FinishComparison(); return runs_; }
  std::int64_t T_r() const { return runs_.t_r; }
  std::int64_t T_c() const { return runs_.t_c; }

 private:
  bool Tiled() const { return runs_.Tiled(); }
  // Whether the comparison's fields of runs_ are there: merges a finished background result first.
  bool Compared() const;
  // The forward's events come first, then (with "backward") Algorithm 2's.
  int FwdCount() const { return static_cast<int>(runs_.run.trace.size()); }
  const engine::AttentionTrace* BwdTrace() const;
  bool IsBackward(int e) const { return BwdTrace() && e >= FwdCount(); }
  int FwdEvent(int e) const { return std::clamp(e, 0, std::max(0, FwdCount() - 1)); }
  Scene BuildBackwardScene(int b, const std::string& lang, const Palette& palette, bool floors) const;
  void AddBackwardQuantities(Quantities& q, int b) const;
  std::vector<PanelSection> BackwardPanels(int b, const std::string& lang) const;

  data::AttentionScenario scenario_;
  // The scenario's order (traced), the reference, the side runs, backward. Mutable for one write
  // only: the comparison's fields are moved in (MergeComparison, under cmp_mutex_) when it is done.
  mutable AttentionRuns runs_;
  TileStateTrack states_;    // tile states per event, from runs_.run.trace
  TileStateTrack bwd_states_;                  // the same for the backward trace
  std::vector<BackwardOnChip> bwd_chip_;       // what Algorithm 2 holds on chip per backward event
  mutable std::mutex cmp_mutex_;
  mutable bool compared_ = true;               // runs_ holds the comparison
  // The comparison not yet merged (kBackground: std::async's thread; kOnRequest: deferred). Last
  // member: destroyed first, waiting for the thread while the scenario and run it reads still exist.
  mutable std::future<AttentionRuns> pending_;
};

}  // namespace bw::view
