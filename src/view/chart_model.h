// ScenarioModel for "chart" scenarios: a labelled chart with no engine run (data/chart_scenario.h),
// drawn as one panel per column with its items as boxes and the links as labelled arrows.
// One event. Positions (grammar: data/position.h): start, end (both the chart).
#pragma once

#include "data/chart_scenario.h"
#include "view/scenario_model.h"

namespace bw::view {

class ChartModel final : public ScenarioModel {
 public:
  explicit ChartModel(data::ChartScenario sc) : scenario_(std::move(sc)) {}
  std::string Kind() const override { return "chart"; }
  const data::LocalText& Title() const override { return scenario_.title; }
  const std::string& File() const override { return scenario_.file; }
  int EventCount() const override { return 1; }
  std::string EventLabel(int) const override { return "chart"; }
  std::vector<data::AcceptedPosition> AcceptedPositions() const override {
    return {{data::PositionForm::kStart}, {data::PositionForm::kEnd}};
  }
  int Find(const data::Position&) const override { return 0; }
  using ScenarioModel::BuildScene;
  Scene BuildScene(int e, const std::string& lang, const Palette& palette, const SceneFrame& frame) const override;
  std::vector<PanelSection> Panels(int e, const std::string& lang) const override;
  // {columns} {items} {links}: counts.
  Quantities QuantitiesAt(int e) const override;
  std::vector<TimelineMark> BlockMarks() const override { return {{0, "chart"}}; }
  std::vector<std::string> Texts() const override;

 private:
  data::ChartScenario scenario_;
};

}  // namespace bw::view
