// ring_scene.h — the ring lesson's diagram (RingModel::BuildScene, ring_model.h): the devices with
// the links of the ring between them, and the grid of the (query, key) pairs each device computes at
// each step. Laid out for the label floors when the frame asks for it (SceneFrame::floors): the devices
// round a ring on the left, the work grid on the right, every line sized for the line the painter will
// draw; a box too small for the floors at any scale keeps the plain row of devices over the grid.
// Scene ids: device.D, link.D (from device D to the next), work.D.T (device D at step T), all 1-based.
#pragma once

#include <string>
#include <vector>

#include "engine/ring.h"
#include "view/scene.h"

namespace bw::view {

// What a device's box says at one event, and its state.
struct RingDeviceBox {
  std::string name, rows, holds;  // "device 1", its rows, the shard it holds now
  std::string outputs;            // its rows' outputs so far (the plain layout's last line)
  std::string sub;                // the state's word
  TileState state = TileState::kPending;
};

// The ring at one event: `k` steps merged, a send under way, O written.
struct RingSceneState {
  const engine::RingRun* run = nullptr;
  int k = 0;
  bool send = false, written = false;
  std::string lang;
  std::vector<RingDeviceBox> devs;  // one per device
};

Scene BuildRingScene(const RingSceneState& s, const Palette& pal, const SceneFrame& frame);

}  // namespace bw::view
