// ScenarioModel for "ring" scenarios (data/ring_scenario.h): ring attention over P simulated devices
// (engine/ring.h; Liu, Zaharia, Abbeel 2023). The scene puts the devices in a row with the links of
// the ring between them (the last link back to the first device), each device's rows and the shard
// it holds, and under them a grid of the (query, key) pairs each device computes at each step — the
// idle cells a causal mask leaves hatched. Laid out for the label floors (SceneFrame::floors), the
// devices stand round a ring (two rows, the links in the gaps) beside the grid, every box sized for the
// floors' lines at the scale the frame's box gives; a link's bytes while sending and a cell's pairs are
// key numbers. The panels list the devices' states, the bytes on the
// links, the balance of the work against the other order (contiguous or zig-zag, run beside it),
// and the result against the one-device reference.
//
// Events: start; for t = 1 … P: "ring step:t" (every device merges the shard it holds) and, but
// after the last, "ring send:t" (every device passes its shard to the next); write (O = u/l).
// Positions: start, step:N, send:N, write, end, event:N.
// Scene ids: device.D, link.D (from device D to the next), work.D.T (device D at step T), all 1-based.
// At the floors, texts work.D.T.pairs (the pairs in cell work.D.T).
// Panels: devices, links, balance, result.
// Placeholders: {devices} {n} {order} {other_order} {bytes_per_link} {total_link_bytes} {sends}
// {idle_steps} {other_idle_steps} {imbalance} {other_imbalance} {total_pairs} {max_error}
// {output_last} {reference_last}; per device D {rows@D} {pairs@D} {idle@D} {other_idle@D}, and at the
// position {step} {pairs_now@D} {shard_now@D}.
#pragma once

#include "data/ring_scenario.h"
#include "engine/ring.h"
#include "view/scenario_model.h"

namespace bw::view {

class RingModel final : public ScenarioModel {
 public:
  explicit RingModel(data::RingScenario sc);
  std::string Kind() const override { return "ring"; }
  const data::LocalText& Title() const override { return scenario_.title; }
  const std::string& File() const override { return scenario_.file; }
  int EventCount() const override { return 2 * run_.Devices() + 1; }
  std::string EventLabel(int e) const override;
  std::vector<data::AcceptedPosition> AcceptedPositions() const override;
  int Find(const data::Position& position) const override;
  using ScenarioModel::BuildScene;
  Scene BuildScene(int e, const std::string& lang, const Palette& palette, const SceneFrame& frame) const override;
  std::vector<PanelSection> Panels(int e, const std::string& lang) const override;
  Quantities QuantitiesAt(int e) const override;
  std::optional<ExpectedNumber> NumberAt(int e, const std::string& name) const override;
  std::vector<TimelineMark> BlockMarks() const override;
  std::vector<std::string> Texts() const override;

  const engine::RingRun& run() const { return run_; }

 private:
  // Steps merged once event e has happened (0 … P), whether e is a send, and whether O is written.
  int StepsDoneAt(int e) const;
  bool SendAt(int e) const;

  data::RingScenario scenario_;
  engine::RingRun run_;
  engine::RingRun other_;   // the same problem in the other order, for the balance
};

}  // namespace bw::view
