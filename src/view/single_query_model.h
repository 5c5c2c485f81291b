// ScenarioModel for "single_query" scenarios (file v1): wraps engine::RunSingleQuery.
#pragma once

#include "data/scenario.h"
#include "engine/single_query.h"
#include "view/numerics_panel.h"
#include "view/scenario_model.h"

namespace bw::view {

class SingleQueryModel final : public ScenarioModel {
 public:
  // The side panel's block table lists this many blocks at most, around the current one.
  static constexpr int kPanelBlockRows = 64;
  // The merge strip's height is the tallest of this many merges at most (BuildScene).
  static constexpr int kStripSample = 256;
  explicit SingleQueryModel(data::SingleQueryScenario sc);
  std::string Kind() const override { return "single_query"; }
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
  std::optional<ExpectedNumber> NumberAt(int e, const std::string& name) const override {
    return SingleQueryNumber(run_, e, name);
  }
  std::vector<TimelineMark> BlockMarks() const override;
  std::vector<std::string> Texts() const override;
  std::optional<Heatmap> HeatmapAt(int e) const override;
  const engine::NumericsReport* Numerics() const override { return &run_.numerics; }
  std::string InputPath(const engine::NumericsEvent& ev) const override { return InputPaths(scenario_)(ev); }

  const engine::SingleQueryRun& run() const { return run_; }
  const data::SingleQueryScenario& scenario() const { return scenario_; }

 private:
  data::SingleQueryScenario scenario_;
  engine::SingleQueryRun run_;
  std::vector<float> probabilities_;  // the one row of P: w_i / Σ w
};

}  // namespace bw::view
