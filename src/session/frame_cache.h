// What a frame shows of the model, computed once per position instead of several times a frame
// (issue 17, item 6): the placeholders' quantities (every Fill of the step text asked
// QuantitiesAt again: 100–250 formatted numbers, 6–7 times a frame), the panel sections and the
// diagram. Entries are keyed by the model, the trace event, the language and the palette (the diagram
// also by its SceneFrame: the box and the Ctrl ± scale it is laid out for), and are
// rebuilt lazily when any of them changes; the cache holds the model it was built from, so a model
// freed and another loaded at the same address can never match a stale entry.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "view/scenario_model.h"
#include "view/scene.h"

namespace bw::app {

struct AppState;

class FrameCache {
 public:
  const view::Quantities& Quantities(const AppState& s);
  const std::vector<view::PanelSection>& Panels(const AppState& s);
  const view::Scene& Scene(const AppState& s);
  // The box and text scale the next Scene is laid out for (DrawDiagram sets it each frame).
  void SetSceneFrame(const view::SceneFrame& frame);
  // Builds since start (tests check that a repeated frame builds nothing).
  int builds() const { return builds_; }

 private:
  void Key(const AppState& s);   // drops every entry whose key no longer matches
  std::shared_ptr<const view::ScenarioModel> model_;
  int event_ = -1;
  int revision_ = 0;   // the model's Revision(): results computed in the background arrived
  std::string lang_;
  bool projector_ = false;
  view::SceneFrame frame_;
  std::optional<view::Quantities> quantities_;
  std::optional<std::vector<view::PanelSection>> panels_;
  std::optional<view::Scene> scene_;
  int builds_ = 0;
};

}  // namespace bw::app
