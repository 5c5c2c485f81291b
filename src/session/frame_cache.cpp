// See frame_cache.h.
#include "session/frame_cache.h"

#include "session/app_state.h"

namespace bw::app {

void FrameCache::Key(const AppState& s) {
  std::shared_ptr<const view::ScenarioModel> m = s.CurrentModel();
  const int revision = m ? m->Revision() : 0;
  const bool same_model = m == model_ && s.ui.event == event_ && revision == revision_;
  if (!same_model) {
    model_ = std::move(m);
    event_ = s.ui.event;
    revision_ = revision;
    quantities_.reset();
    panels_.reset();
    scene_.reset();
  }
  if (lang_ != s.options.lang) {
    lang_ = s.options.lang;
    panels_.reset();
    scene_.reset();
  }
  if (projector_ != s.options.projector) {
    projector_ = s.options.projector;
    scene_.reset();
  }
}

void FrameCache::SetSceneFrame(const view::SceneFrame& f) {
  if (f == frame_) return;
  frame_ = f;
  scene_.reset();
}

const view::Quantities& FrameCache::Quantities(const AppState& s) {
  Key(s);
  if (!quantities_) {
    quantities_ = model_ ? model_->QuantitiesAt(event_) : view::Quantities{};
    ++builds_;
  }
  return *quantities_;
}

const std::vector<view::PanelSection>& FrameCache::Panels(const AppState& s) {
  Key(s);
  if (!panels_) {
    panels_ = model_ ? model_->Panels(event_, lang_) : std::vector<view::PanelSection>{};
    ++builds_;
  }
  return *panels_;
}

const view::Scene& FrameCache::Scene(const AppState& s) {
  Key(s);
  if (!scene_) {
    scene_ = model_ ? model_->BuildScene(event_, lang_, s.Palette(), frame_) : view::Scene{};
    ++builds_;
  }
  return *scene_;
}

}  // namespace bw::app
